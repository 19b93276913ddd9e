"""tracec.GradientTape (tf.GradientTape): the user's tape.

The recording and the gradients are tape.Tape's, which traced functions
and tracec.implicit_value_and_grad use too; GradientTape adds what a user
controls: what is watched, blocks that are not recorded, and reset.
"""
from __future__ import annotations

import contextlib

import numpy as np

from ._core import Value
from .tape import Tape
from .variables import Variable

__all__ = ["GradientTape"]


class GradientTape(Tape):
    """Records operations for automatic differentiation (tf.GradientTape).

    >>> x = np.array(3.0, np.float32)
    >>> with tracec.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tnp.multiply(x, x)
    >>> tape.gradient(y, x)
    array(6., dtype=float32)

    Works eagerly and inside tracec.function. Eagerly, only tracec's ops
    are recorded (tracec.numpy, tracec.nn, operators on tracec.Variables,
    tracec.functions): NumPy's own operators on arrays are not.
    """

    def __init__(self, persistent: bool = False,
                 watch_accessed_variables: bool = True):
        """`persistent`: gradient() may be called more than once.
        `watch_accessed_variables`: trainable Variables read while the tape
        is active are watched (as TensorFlow's)."""
        super().__init__(persistent, watch_accessed_variables)

    @contextlib.contextmanager
    def stop_recording(self):
        """Ops run in this block are not recorded."""
        if not self._recording:
            raise ValueError("stop_recording() needs a tape that is recording")
        self._pop()
        try:
            yield
        finally:
            self._push()

    def reset(self):
        """Forgets everything recorded (the tape keeps recording if active)."""
        self._records.clear()
        self._called_variables.clear()
        self._unrecorded_reads.clear()
        self._tracked.clear()
        self._watched_variables.clear()
        self._used = False

    def watch(self, tensor):
        """Records the ops that use `tensor` (or each tensor of a list)."""
        for t in tensor if isinstance(tensor, (list, tuple)) else [tensor]:
            if isinstance(t, Variable):
                self._watched_variables[id(t)] = t
            elif isinstance(t, (np.ndarray, Value)):
                self._tracked[id(t)] = t
            elif isinstance(t, np.generic):
                raise TypeError("GradientTape.watch: a NumPy scalar "
                                f"({type(t).__name__}) is not an array; watch "
                                "np.asarray(x) and compute with that")
            else:
                raise TypeError(f"GradientTape.watch: a {type(t).__name__} is "
                                "neither an array, a tracec value nor a "
                                "Variable (convert numbers with np.asarray)")
