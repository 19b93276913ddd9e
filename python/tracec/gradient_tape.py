"""tracec.GradientTape (tf.GradientTape): the user's tape.

The recording, watching and the gradients are tape.Tape's, which traced
functions, tracec.implicit_value_and_grad and gradients_function use too;
GradientTape adds what a user controls: blocks that are not recorded, and
reset.
"""
from __future__ import annotations

import contextlib

from .tape import Tape

__all__ = ["GradientTape"]


class GradientTape(Tape):
    """Records operations for automatic differentiation (tf.GradientTape).

    >>> x = np.array(3.0, np.float32)
    >>> with tracec.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tnp.multiply(x, x)
    >>> tape.gradient(y, x)
    array(6., dtype=float32)

    Works eagerly and inside tracec.function. Eagerly, the values tracec
    computes while a tape records are TapedArrays (NumPy arrays) whose
    operators, NumPy ufuncs and functions, indexing and methods are tracec
    ops the tape records (`loss += w * w`, `np.exp(y)`, `y.sum()`); one
    tracec has no op for is a TypeError if it makes a float result. A
    NumPy array of yours keeps NumPy's operators: after `tape.watch(x)`,
    `x = tnp.asarray(x)` gives one whose operators record.
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
