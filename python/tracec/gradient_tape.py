"""tracec.GradientTape (tf.GradientTape): the user's tape.

The recording, watching and the gradients are tape.Tape's, which traced
functions, tracec.implicit_value_and_grad and gradients_function use too;
GradientTape adds what a user controls: blocks that are not recorded, and
reset.
"""
from __future__ import annotations

import contextlib

import numpy as np

from . import _core
from . import numpy as tnp
from ._tree import tree_flatten
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

    def jacobian(self, target, sources, unconnected_gradients="none",
                 parallel_iterations=None, experimental_use_pfor=True):
        """tf.GradientTape.jacobian: for each source, the Jacobian of
        `target` with respect to it, of shape target.shape + source.shape
        (None if unconnected, or zeros with unconnected_gradients="zero").
        One gradient per element of the target, seeded with a one-hot
        output gradient; TensorFlow vectorizes them (pfor), the numbers are
        the same. `parallel_iterations` and `experimental_use_pfor` are
        accepted for its code. `sources` may be nested."""
        target_shape = tuple(np.shape(target))
        n = int(np.prod(target_shape))

        def seed(i):
            one_hot = np.zeros(n, _dtype_of(target))
            one_hot[i] = 1
            return one_hot.reshape(target_shape)
        leaves, structure = tree_flatten(sources)
        rows = self._gradients_for_seeds(target, leaves, n, seed,
                                         unconnected_gradients)
        return structure.unflatten([
            _stacked([r[k] for r in rows], 0,
                     target_shape + tuple(np.shape(leaf)))
            for k, leaf in enumerate(leaves)])

    def batch_jacobian(self, target, source, unconnected_gradients="none",
                       parallel_iterations=None, experimental_use_pfor=True):
        """tf.GradientTape.batch_jacobian: target [b, y...] and source
        [b, x...] whose batch rows are independent; the result is
        [b, y..., x...], row i the Jacobian of target[i] with respect to
        source[i]. One gradient per element of a target row, seeded with
        a one-hot row in every batch row."""
        target_shape = tuple(np.shape(target))
        source_shape = tuple(np.shape(source))
        if not target_shape or not source_shape or \
                target_shape[0] != source_shape[0]:
            raise ValueError(
                "batch_jacobian needs a target and a source with the same "
                f"first (batch) dim, got shapes {target_shape} and "
                f"{source_shape}")
        batch, row = target_shape[0], target_shape[1:]
        n = int(np.prod(row))

        def seed(j):
            one_hot = np.zeros((batch, n), _dtype_of(target))
            one_hot[:, j] = 1
            return one_hot.reshape(target_shape)
        rows = self._gradients_for_seeds(target, [source], n, seed,
                                         unconnected_gradients)
        return _stacked([r[0] for r in rows], 1,
                        (batch,) + row + source_shape[1:])

    def _gradients_for_seeds(self, target, sources, n, seed,
                             unconnected_gradients):
        """[gradient(target, sources, seed(i)) for i < n], `sources` a
        list: one use of the tape, as gradient() is."""
        persistent = self._persistent
        rows = []
        try:
            for i in range(n):
                rows.append(list(self.gradient(
                    target, list(sources), output_gradients=seed(i),
                    unconnected_gradients=unconnected_gradients)))
                self._persistent = True  # the seeds after the first
        finally:
            self._persistent = persistent
        return rows

    def reset(self):
        """Forgets everything recorded (the tape keeps recording if active)."""
        self._records.clear()
        self._called_variables.clear()
        self._unrecorded_reads.clear()
        self._tracked.clear()
        self._watched_variables.clear()
        self._used = False


def _dtype_of(x):
    dtype = getattr(x, "dtype", np.float32)
    if isinstance(dtype, str):  # a traced Value's ("f32")
        dtype = _core.numpy_dtype(dtype)
    dtype = np.dtype(dtype)
    return dtype if np.issubdtype(dtype, np.floating) else np.float32


def _stacked(rows, axis, shape):
    """rows (gradients, None if unconnected) stacked along `axis` and
    reshaped to `shape`; None if every row is None."""
    if not rows or all(r is None for r in rows):
        return None
    zero = next(r for r in rows if r is not None)
    rows = [tnp.zeros_like(zero) if r is None else r for r in rows]
    return tnp.reshape(tnp.stack(rows, axis), shape)
