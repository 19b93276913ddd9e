"""tracec.to_dlpack and tracec.from_dlpack: arrays shared with PyTorch and
NumPy without copies (docs/guides/gpu.md#dlpack). This machine has no GPU:
the CUDA cases run in a fresh process on the fake driver of the C++ tests
(as test_gpu_device.py), where CUDA memory is host memory the fake driver
tracks; the copy of CUDA device memory is tested in C++
(CudaFakeDriverTests)."""
import os
import subprocess
import sys

import numpy as np
import pytest

import tracec

torch = pytest.importorskip("torch")

FAKE_DRIVER = os.path.join(os.path.dirname(tracec.__file__), "..", "..",
                           "lib", "libFakeCudaDriver.so")


def test_results_go_to_torch_without_a_copy():
    f = tracec.jit(lambda x: tracec.numpy.exp(x))
    x = np.linspace(-1.0, 1.0, 12).reshape(3, 4)
    y = f(x)
    t = torch.from_dlpack(tracec.to_dlpack(y))
    assert t.dtype == torch.float64 and tuple(t.shape) == (3, 4)
    np.testing.assert_allclose(t.numpy(), np.exp(x), rtol=1e-14)
    t[1, 2] = 42.0  # one memory: tracec's result sees torch's write
    assert y[1, 2] == 42.0
    legacy = torch.utils.dlpack.from_dlpack(
        tracec.to_dlpack(y).__dlpack__())
    assert legacy.data_ptr() == y.ctypes.data
    assert tracec.to_dlpack(y).__dlpack_device__() == (1, 0)


def test_torch_tensors_come_in_without_a_copy():
    t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    a = tracec.from_dlpack(t)
    assert a.dtype == np.float32 and a.shape == (2, 3)
    assert a.ctypes.data == t.data_ptr()
    t[0, 0] = -5.0
    assert a[0, 0] == -5.0
    capsule = torch.utils.dlpack.to_dlpack(t)
    b = tracec.from_dlpack(capsule)
    assert b.ctypes.data == t.data_ptr()
    with pytest.raises(ValueError, match="can be consumed once"):
        tracec.from_dlpack(capsule)
    # Strided views come in through NumPy's import, as views.
    c = tracec.from_dlpack(t.t())
    np.testing.assert_array_equal(c, t.t().numpy())
    g = tracec.jit(lambda a: tracec.numpy.sum(a * a))
    np.testing.assert_allclose(g(a), float((t * t).sum()), rtol=1e-6)


def test_numpy_takes_host_arrays_and_bad_inputs_raise():
    x = np.arange(5, dtype=np.int32)
    y = np.from_dlpack(tracec.to_dlpack(x))
    assert y.ctypes.data == x.ctypes.data
    with pytest.raises(TypeError, match="has no __dlpack__"):
        tracec.from_dlpack([1, 2, 3])


def test_variables_share_their_storage_with_torch():
    v = tracec.Variable(np.arange(6, dtype=np.float32).reshape(2, 3))
    t = torch.from_dlpack(v)
    assert t.data_ptr() == v._handle.view().ctypes.data
    assert tracec.to_dlpack(v).__dlpack_device__() == (1, 0)
    # The variable's later updates, eager and compiled, show through.
    v.assign_add(np.ones((2, 3), np.float32))

    @tracec.function
    def double():
        v.assign(v.read_value() * 2.0)

    double()
    np.testing.assert_array_equal(t.numpy(),
                                  (np.arange(6).reshape(2, 3) + 1) * 2)
    t[0, 0] = -1.0  # and torch's writes are the variable's
    assert v.numpy()[0, 0] == -1.0
    # NumPy and tracec's own import share it too.
    assert np.from_dlpack(v).ctypes.data == t.data_ptr()
    assert tracec.from_dlpack(v).ctypes.data == t.data_ptr()
    del v, double
    assert t[1, 2] == 12.0  # the capsule keeps the storage alive


def run(code):
    env = dict(os.environ, TRACEC_CUDA_DRIVER=FAKE_DRIVER)
    return subprocess.run([sys.executable, "-c", code], env=env,
                          capture_output=True, text=True, timeout=300)


def test_gpu_arrays_are_cuda_tensors_and_come_back_in_place():
    if not os.path.exists(FAKE_DRIVER):
        pytest.skip(f"no fake CUDA driver at {FAKE_DRIVER} (a build tree's)")
    code = """
import numpy as np, tracec
d = tracec.device_put(np.arange(12, dtype=np.float32).reshape(3, 4))
out = tracec.to_dlpack(d)
print("device", out.__dlpack_device__())
back = tracec.from_dlpack(out)
print("same", back.ctypes.data == d.ctypes.data, tracec.on_device(back))

class Producer:
    # A GPU framework's tensor: records the stream tracec asks for.
    def __init__(self, array): self.inner = tracec.to_dlpack(array)
    def __dlpack_device__(self): return self.inner.__dlpack_device__()
    def __dlpack__(self, stream=None):
        print("stream", stream)
        return self.inner.__dlpack__(stream=stream)

theirs = Producer(d)
f = tracec.jit(lambda x: tracec.numpy.exp(x) * 2, device="gpu")
y = f(theirs)  # a foreign GPU array as an argument
print("called", y.shape, tracec.on_device(y))
strided = d[:, ::2]
copied = tracec.to_dlpack(strided)
print("strided", copied.__dlpack_device__(),
      tracec.from_dlpack(copied).ctypes.data != strided.ctypes.data,
      np.array_equal(tracec.from_dlpack(copied), strided))
v = tracec.Variable(d)  # a variable on the GPU: its storage, in place
print("variable", v.__dlpack_device__(),
      tracec.from_dlpack(v).ctypes.data == v._handle.view().ctypes.data)
"""
    out = run(code)
    assert out.returncode == 0, out.stderr
    assert "device (2, 0)" in out.stdout, out.stdout
    assert "same True True" in out.stdout, out.stdout
    assert "stream 1" in out.stdout, out.stdout
    assert "called (3, 4) True" in out.stdout, out.stdout
    assert "strided (2, 0) True True" in out.stdout, out.stdout
    assert "variable (2, 0) True" in out.stdout, out.stdout
