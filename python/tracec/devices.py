"""Arrays and variables that stay in GPU memory across calls
(docs/guides/gpu.md#memory)."""
from __future__ import annotations

import numpy as np

from . import _tracec as _C
from .variables import Variable


def device_put(x) -> np.ndarray:
    """A copy of `x` in GPU memory that NumPy reads and writes too (CUDA
    managed memory: its pages move to whichever side touches them). A
    function compiled for the GPU uses such an array in place, as it does
    its own results, where it copies a host array in and out on every
    call; `tracec.Variable(device_put(x))` is a variable in GPU memory.
    RuntimeError where there is no CUDA driver."""
    return _C.device_put_array(np.asarray(x))


def on_device(x) -> bool:
    """Whether `x` (an array or a tracec.Variable) is in GPU memory:
    device_put's arrays, the results of functions compiled for the GPU,
    variables made from either."""
    if isinstance(x, Variable):
        return x._handle.on_device
    return _C.array_on_device(np.asarray(x))
