"""Neural-network ops (NHWC activations, HWIO filters, as tf.nn).

>>> tracec.nn.relu(np.array([-1.0, 2.0], np.float32))
array([0., 2.], dtype=float32)
"""
from __future__ import annotations

import numpy as np

from . import _core
from . import _tracec as _C
from . import numpy as tnp
from ._core import apply, op

relu = tnp._unary("relu", "relu")
gelu = tnp._unary("gelu", "gelu")
sigmoid = tnp._unary("sigmoid", "sigmoid")
tanh = tnp.tanh


def _logsumexp(x, axes, keepdims):
    return op("reduce_logsumexp", x, axes=list(axes) or list(range(x.ndim)),
              keepdims=keepdims)


def logsumexp(x, axis=None, keepdims=False):
    """log(sum(exp(x))) over `axis` (all axes if None), without overflow
    (jax.nn.logsumexp, torch.logsumexp)."""
    return apply(_logsumexp, (x,), tnp._axes(axis), bool(keepdims),
                 name="logsumexp")


def _softmax(x, axis):
    return op("softmax", x, axis=axis)


def _log_softmax(x, axis):
    return op("log_softmax", x, axis=axis)


def softmax(x, axis=-1):
    return apply(_softmax, (x,), int(axis), name="softmax")


def log_softmax(x, axis=-1):
    return apply(_log_softmax, (x,), int(axis), name="log_softmax")


def _padding(padding, input_hw, window, strides, dilations=(1, 1)):
    """[top, bottom, left, right] for "VALID", "SAME" or explicit pads."""
    if isinstance(padding, str):
        if padding.upper() == "VALID":
            return (0, 0, 0, 0)
        if padding.upper() != "SAME":
            raise ValueError(f"padding must be 'SAME', 'VALID' or 4 ints, got "
                             f"{padding!r}")
        pads = []
        for size, k, s, d in zip(input_hw, window, strides, dilations):
            effective = (k - 1) * d + 1
            out = -(-size // s)
            total = max((out - 1) * s + effective - size, 0)
            pads += [total // 2, total - total // 2]
        return tuple(pads)
    pads = tuple(int(p) for p in padding)
    if len(pads) == 2:
        pads = (pads[0], pads[0], pads[1], pads[1])
    if len(pads) != 4:
        raise ValueError(f"padding must be 'SAME', 'VALID' or 4 ints, got "
                         f"{padding!r}")
    return pads


def _pair(v):
    return (int(v), int(v)) if isinstance(v, int) else tuple(int(x) for x in v)


def _conv2d(x, w, strides, padding, dilations):
    return op("conv2d", x, w, strides=list(strides), padding=list(padding),
              dilations=list(dilations))


def conv2d(x, filters, strides=1, padding="VALID", dilations=1):
    """2-D convolution: x [N, H, W, C], filters [KH, KW, C, F] -> [N, H', W', F]."""
    strides, dilations = _pair(strides), _pair(dilations)
    pads = _padding(padding, tnp._shape(x)[1:3], tnp._shape(filters)[:2],
                    strides, dilations)
    return apply(_conv2d, (x, filters), strides, pads, dilations,
                 name="conv2d")


def _pool(op_name):
    def kernel(x, window, strides, padding):
        return op(op_name, x, window=list(window), strides=list(strides),
                  padding=list(padding))
    kernel.__name__ = op_name
    return kernel


_max_pool = _pool("max_pool2d")
_avg_pool = _pool("avg_pool2d")


def max_pool2d(x, window, strides=None, padding="VALID"):
    window = _pair(window)
    strides = window if strides is None else _pair(strides)
    pads = _padding(padding, tnp._shape(x)[1:3], window, strides)
    return apply(_max_pool, (x,), window, strides, pads, name="max_pool2d")


def avg_pool2d(x, window, strides=None, padding="VALID"):
    window = _pair(window)
    strides = window if strides is None else _pair(strides)
    pads = _padding(padding, tnp._shape(x)[1:3], window, strides)
    return apply(_avg_pool, (x,), window, strides, pads, name="avg_pool2d")


def _one_hot(indices, depth, dtype, axis, on, off):
    return _C.one_hot(indices, depth, dtype, axis, on, off)


def one_hot(indices, depth, dtype=np.float32, axis=-1, on_value=1.0,
            off_value=0.0):
    if isinstance(indices, (list, int)):
        indices = np.asarray(indices, np.int32)
    return apply(_one_hot, (indices,), int(depth), _core.dtype_name(dtype),
                 int(axis), float(on_value), float(off_value), name="one_hot")


def softmax_cross_entropy_with_logits(labels, logits, axis=-1):
    """Per-example -sum(labels * log_softmax(logits)) (tf.nn's)."""
    return tnp.negative(tnp.sum(tnp.multiply(labels, log_softmax(logits, axis)),
                                axis=axis))


def sparse_softmax_cross_entropy_with_logits(labels, logits):
    """Per-example cross-entropy with integer class labels."""
    depth = tnp._shape(logits)[-1]
    return softmax_cross_entropy_with_logits(
        one_hot(labels, depth, _logits_dtype(logits)), logits)


def _logits_dtype(logits):
    if isinstance(logits, _core.Value):
        return _core.numpy_dtype(logits.dtype)
    return np.asarray(logits).dtype
