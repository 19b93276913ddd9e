"""Seeded random numbers (Philox4x32-10; new numbers at every run of the
compiled function or eager op; the same seed gives the same sequence)."""
from __future__ import annotations

import numpy as np

from . import _core
from . import _tracec as _C
from ._core import apply


def _uniform(shape, dtype, seed, low, high):
    return _C.random_uniform(list(shape), dtype, seed, low, high)


def _normal(shape, dtype, seed, mean, stddev):
    return _C.random_normal(list(shape), dtype, seed, mean, stddev)


def uniform(shape, minval=0.0, maxval=1.0, dtype=np.float32, seed=0):
    """Uniform in [minval, maxval)."""
    _core._effects += 1
    return apply(_uniform, (), tuple(shape), _core.dtype_name(dtype), int(seed),
                 float(minval), float(maxval), name="random_uniform")


def normal(shape, mean=0.0, stddev=1.0, dtype=np.float32, seed=0):
    _core._effects += 1
    return apply(_normal, (), tuple(shape), _core.dtype_name(dtype), int(seed),
                 float(mean), float(stddev), name="random_normal")
