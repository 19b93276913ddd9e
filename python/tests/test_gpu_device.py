"""tracec.function(..., device="gpu"), tracec.jit(..., device="gpu") and
`with tracec.device("gpu")`: compiled for CUDA (docs/guides/gpu.md). This machine has no GPU: each
case runs in a fresh process (the driver is loaded once per process) with
TRACEC_CUDA_DRIVER naming no library (the error a machine without CUDA
gives) or the fake driver of the C++ tests, which launches nothing (the
results' values are not checked: only that the GPU path ran, with the
shapes and dtypes of the CPU's)."""
import os
import subprocess
import sys

import numpy as np
import pytest

import tracec

FAKE_DRIVER = os.path.join(os.path.dirname(tracec.__file__), "..", "..",
                           "lib", "libFakeCudaDriver.so")


def run(code, driver):
    env = dict(os.environ, TRACEC_CUDA_DRIVER=driver)
    return subprocess.run([sys.executable, "-c", code], env=env,
                          capture_output=True, text=True, timeout=300)


def test_bad_device_is_a_value_error():
    with pytest.raises(ValueError, match="device must be one of"):
        tracec.function(lambda x: x, device="tpu")
    with pytest.raises(ValueError, match="device must be one of"):
        tracec.jit(lambda x: x, device="cuda:0")


def test_without_a_driver_a_call_raises_naming_it():
    code = """
import numpy as np, tracec
f = tracec.jit(lambda x: tracec.numpy.exp(x) * 2, device="gpu")
try:
    f(np.ones(4, np.float32))
except RuntimeError as error:
    print("raised:", error)
print("cpu", tracec.jit(lambda x: x * 2)(np.ones(2, np.float32)))
"""
    out = run(code, "/nonexistent/libcuda.so.1")
    assert out.returncode == 0, out.stderr
    assert "raised:" in out.stdout and "CUDA driver not found" in out.stdout, \
        out.stdout
    assert "cpu [2. 2.]" in out.stdout, out.stdout


def test_gpu_functions_and_their_gradients_run_on_the_driver():
    if not os.path.exists(FAKE_DRIVER):
        pytest.skip(f"no fake CUDA driver at {FAKE_DRIVER} (a build tree's)")
    code = """
import numpy as np, tracec
f = tracec.jit(lambda w, x: tracec.numpy.sum(tracec.numpy.tanh(x @ w)),
               device="gpu")
w, x = np.ones((8, 4), np.float32), np.ones((16, 8), np.float32)
y = f(w, x)
g = tracec.jit(tracec.grad(lambda w, x: tracec.numpy.sum(
    tracec.numpy.tanh(x @ w))), device="gpu")(w, x)
print("shapes", np.shape(y), np.asarray(y).dtype, g.shape, g.dtype)
"""
    out = run(code, os.path.abspath(FAKE_DRIVER))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "shapes () float32 (8, 4) float32" in out.stdout, out.stdout


def test_tensor_core_matmuls_compile_and_run_on_the_driver():
    """f16 matmuls, and f32 ones with TRACEC_ALLOW_TF32=1, take the
    tensor-core kernel (trace-gpu-mma-matmul; its PTX is checked in
    test/Pipelines/gpu): they compile, load and launch."""
    if not os.path.exists(FAKE_DRIVER):
        pytest.skip(f"no fake CUDA driver at {FAKE_DRIVER} (a build tree's)")
    code = """
import numpy as np, tracec, tracec.numpy as tnp
f = tracec.jit(lambda a, b: a @ b, device="gpu")
half = f(np.ones((32, 16), np.float16), np.ones((16, 8), np.float16))
single = f(np.ones((32, 16), np.float32), np.ones((16, 8), np.float32))
print("shapes", half.shape, half.dtype, single.shape, single.dtype)
"""
    env = dict(os.environ, TRACEC_ALLOW_TF32="1",
               TRACEC_CUDA_DRIVER=os.path.abspath(FAKE_DRIVER))
    out = subprocess.run([sys.executable, "-c", code], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "shapes (32, 8) float16 (32, 8) float32" in out.stdout, out.stdout


def test_a_device_scope_places_calls_without_a_device_of_their_own():
    code = """
import numpy as np, tracec
f = tracec.jit(lambda x: x * 2)
on_cpu = tracec.jit(lambda x: x * 3, device="cpu")
x = np.ones(2, np.float32)
with tracec.device("gpu"):
    try:
        f(x)
    except RuntimeError as error:
        print("gpu raised:", error)
    print("pinned", on_cpu(x))
    with tracec.device("cpu"):
        print("inner", f(x))
print("after", f(x))
"""
    out = run(code, "/nonexistent/libcuda.so.1")
    assert out.returncode == 0, out.stderr
    assert "gpu raised: CUDA driver not found" in out.stdout, out.stdout
    for line in ("pinned [3. 3.]", "inner [2. 2.]", "after [2. 2.]"):
        assert line in out.stdout, out.stdout
    with pytest.raises(ValueError, match="device must be one of"):
        with tracec.device("tpu"):
            pass


def test_arrays_stay_on_the_device():
    """device_put copies an array into the device's memory (which NumPy
    reads too), a GPU function's results are there, and either goes into
    the next call in place; a variable made from such an array is there
    too; host arrays are not on the device; an empty array goes, an array
    of objects is a TypeError; without a driver device_put raises
    RuntimeError naming why."""
    if not os.path.exists(FAKE_DRIVER):
        pytest.skip(f"no fake CUDA driver at {FAKE_DRIVER} (a build tree's)")
    code = """
import numpy as np, tracec
x = np.arange(12, dtype=np.float32).reshape(3, 4)
d = tracec.device_put(x)
print("put", tracec.on_device(d), d.dtype, d.shape, np.array_equal(d, x))
print("host", tracec.on_device(x))
d[0, 0] = 7.0  # the host writes it too
print("written", float(d[0, 0]), float(x[0, 0]))
f = tracec.jit(lambda x: tracec.numpy.exp(x) * 2, device="gpu")
y = f(d)
print("result", tracec.on_device(y), y.dtype, y.shape)
z = f(y)
print("chained", tracec.on_device(z), z.shape)
empty = tracec.device_put(np.zeros((0, 3), np.float64))
print("empty", tracec.on_device(empty), empty.shape)
try:
    tracec.device_put(np.array([object()]))
except TypeError as error:
    print("objects:", error)
v = tracec.Variable(tracec.device_put(np.ones(4, np.float32)))
w = tracec.Variable(np.ones(4, np.float32))
print("variables", tracec.on_device(v), tracec.on_device(w), v.numpy())
@tracec.function(device="gpu")
def bump(x):
    v.assign_add(x)
    return v.read_value()
print("updated", tracec.on_device(v), bump(np.ones(4, np.float32)).shape)
"""
    out = run(code, FAKE_DRIVER)
    assert out.returncode == 0, out.stderr
    assert "put True float32 (3, 4) True" in out.stdout, out.stdout
    assert "host False" in out.stdout, out.stdout
    assert "written 7.0 0.0" in out.stdout, out.stdout
    assert "result True float32 (3, 4)" in out.stdout, out.stdout
    assert "chained True (3, 4)" in out.stdout, out.stdout
    assert "empty True (0, 3)" in out.stdout, out.stdout
    assert "objects: device_put: an array of numbers, not of object" in \
        out.stdout, out.stdout
    assert "variables True False [1. 1. 1. 1.]" in out.stdout, out.stdout
    assert "updated True (4,)" in out.stdout, out.stdout
    missing = run("""
import numpy as np, tracec
try:
    tracec.device_put(np.ones(3))
except RuntimeError as error:
    print("raised:", error)
""", "/nonexistent/libcuda.so.1")
    assert "raised: CUDA driver not found" in missing.stdout, \
        missing.stdout + missing.stderr
