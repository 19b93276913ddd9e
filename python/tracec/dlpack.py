"""DLPack exchange with PyTorch, JAX, CuPy and NumPy without copies
(docs/guides/gpu.md#dlpack)."""
from __future__ import annotations

import numpy as np

from . import _tracec as _C

# DLDeviceType's values (dlpack.h).
CPU, CUDA = 1, 2
# The stream a consumer names for CUDA's legacy default stream (the
# array API standard's __dlpack__): the producer queues its pending work
# there, where tracec waits for it.
_LEGACY_DEFAULT_STREAM = 1


class DLPackArray:
    """An array as a DLPack producer: `torch.from_dlpack`,
    `jax.numpy.from_dlpack`, `cupy.from_dlpack` and (host arrays)
    `np.from_dlpack` take it without a copy. A GPU array (tracec.device_put,
    a GPU function's result) is a CUDA tensor on device 0."""

    def __init__(self, array: np.ndarray):
        self._array = array
        self._device = (CUDA, 0) if _C.array_on_device(array) else (CPU, 0)

    def __dlpack_device__(self):
        return self._device

    def __dlpack__(self, stream=None, **_):
        # A consumer's stream needs no ordering: tracec's calls return
        # after their device work is done.
        if self._device[0] == CPU:
            return self._array.__dlpack__()
        return _C.to_dlpack_capsule(self._array)


class DLPackVariable:
    """A variable's storage as a DLPack producer: the consumer shares it
    and sees the variable's later updates (assignments, training steps);
    a CUDA tensor on device 0 where the variable lives on the GPU."""

    def __init__(self, handle):
        self._handle = handle
        self._device = (CUDA, 0) if handle.on_device else (CPU, 0)

    def __dlpack_device__(self):
        return self._device

    def __dlpack__(self, stream=None, **_):
        # No ordering to give a consumer's stream: tracec's calls return
        # after their device work is done.
        return _C.variable_dlpack_capsule(self._handle)


def to_dlpack(array):
    """`array` (a NumPy array: tracec's results are; or a tracec.Variable)
    for another framework, sharing its memory: a variable's storage itself,
    which later updates change. A GPU array that is strided or misaligned
    is first copied into one that is not, on the device."""
    handle = getattr(array, "_handle", None)
    if isinstance(handle, _C.VariableHandle):
        return DLPackVariable(handle)
    array = np.asarray(array)
    if _C.array_on_device(array) and not (
            array.flags.c_contiguous and array.ctypes.data % 64 == 0):
        array = _C.device_put_array(array)
    return DLPackArray(array)


def from_dlpack(x) -> np.ndarray:
    """Another framework's array (anything with `__dlpack__`, or a legacy
    "dltensor" capsule such as `torch.utils.dlpack.to_dlpack`'s) as a
    NumPy array tracec functions take. Host memory and CUDA managed
    memory are shared, not copied; CUDA device memory (a torch or JAX GPU
    tensor's), which the host cannot read, is copied on the device into
    GPU memory that tracec and NumPy share (as tracec.device_put's).
    CUDA data is waited for first. ValueError, naming what, for CUDA data
    of a dtype tracec has no counterpart for, of non-row-major strides or
    without a CUDA driver, and for devices other than the CPU and CUDA
    device 0."""
    if type(x).__name__ == "PyCapsule":
        return _C.from_dlpack_capsule(x)
    if not hasattr(x, "__dlpack__"):
        raise TypeError(f"from_dlpack: a {type(x).__name__} has no __dlpack__")
    device_type, _ = x.__dlpack_device__()
    if device_type == CPU:
        # NumPy's own import: any dtype and strides, in place.
        return np.from_dlpack(x)
    return _C.from_dlpack_capsule(x.__dlpack__(stream=_LEGACY_DEFAULT_STREAM))
