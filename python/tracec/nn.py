"""Neural-network ops (NHWC activations, HWIO filters, as tf.nn).

>>> tracec.nn.relu(np.array([-1.0, 2.0], np.float32))
array([0., 2.], dtype=float32)
"""
from __future__ import annotations

import numpy as np

from . import _core
from . import _tracec as _C
from . import numpy as tnp
from . import random
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
            raise ValueError(f"padding must be 'SAME', 'VALID', an int or 2 "
                             f"or 4 ints, got {padding!r}")
        pads = []
        for size, k, s, d in zip(input_hw, window, strides, dilations):
            effective = (k - 1) * d + 1
            out = -(-size // s)
            total = max((out - 1) * s + effective - size, 0)
            pads += [total // 2, total - total // 2]
        return tuple(pads)
    if isinstance(padding, (int, np.integer)):  # PyTorch's padding=1
        padding = (padding, padding)
    pads = tuple(int(p) for p in padding)
    if len(pads) == 2:
        pads = (pads[0], pads[0], pads[1], pads[1])
    if len(pads) != 4:
        raise ValueError(f"padding must be 'SAME', 'VALID', an int or 2 or 4 "
                         f"ints, got {padding!r}")
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


# ---------------------------------------------------------------------------
# Normalization, dropout and embeddings, composed of tracec.numpy's ops (so
# their gradients are those ops' rules)
# ---------------------------------------------------------------------------

_rsqrt = tnp._unary("rsqrt", "rsqrt")


def moments(x, axes, keepdims=False):
    """(mean, variance) of x over `axes` (tf.nn.moments; the variance is
    the biased one, of the mean of squared deviations)."""
    mean = tnp.mean(x, axes, keepdims=True)
    centered = tnp.subtract(x, mean)
    variance = tnp.mean(tnp.multiply(centered, centered), axes, keepdims)
    if not keepdims:
        mean = tnp.squeeze(mean, axes)
    return mean, variance


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon):
    """(x - mean) / sqrt(variance + epsilon) * scale + offset, broadcast
    (tf.nn.batch_normalization; offset and scale may be None)."""
    y = tnp.multiply(tnp.subtract(x, mean),
                     _rsqrt(tnp.add(variance, variance_epsilon)))
    if scale is not None:
        y = tnp.multiply(y, scale)
    if offset is not None:
        y = tnp.add(y, offset)
    return y


def layer_norm(x, scale=None, offset=None, axis=-1, epsilon=1e-5):
    """x normalized over `axis` (an int or ints; the last by default), then
    * scale + offset: torch.nn.functional.layer_norm over the trailing dims,
    flax's LayerNorm."""
    mean, variance = moments(x, axis, keepdims=True)
    return batch_normalization(x, mean, variance, offset, scale, epsilon)


def batch_norm(x, scale=None, offset=None, running_mean=None,
               running_var=None, training=False, momentum=0.1, epsilon=1e-5,
               axis=-1):
    """Batch normalization over every axis but the channel `axis` (the
    last: NHWC), as torch.nn.functional.batch_norm: with `training`, by the
    batch's statistics, and `running_mean`/`running_var` (tracec.Variables,
    if given) move toward them, `(1 - momentum) * running + momentum *
    batch` (the variance unbiased, as PyTorch); without, by the running
    statistics. Inside a traced function the updates are part of the
    compiled step."""
    ndim = tnp._ndim(x)
    channel = axis % ndim
    reduced = tuple(a for a in range(ndim) if a != channel)
    if not training:
        if running_mean is None or running_var is None:
            raise ValueError("batch_norm without training= needs "
                             "running_mean and running_var")
        return batch_normalization(x, _channel(running_mean, channel, ndim),
                                   _channel(running_var, channel, ndim),
                                   _channel(offset, channel, ndim),
                                   _channel(scale, channel, ndim), epsilon)
    mean, variance = moments(x, reduced, keepdims=True)
    if running_mean is not None or running_var is not None:
        shape = tnp._shape(x)
        if any(shape[a] is None for a in reduced):
            raise ValueError("batch_norm updates running statistics over "
                             "static dims only (the unbiased variance's "
                             f"count), got a shape {shape}")
        count = int(np.prod([shape[a] for a in reduced]))
        batch_mean = _core.stop_gradient(tnp.reshape(mean, (-1,)))
        batch_var = _core.stop_gradient(tnp.reshape(variance, (-1,)))
        if running_mean is not None:
            running_mean.assign(tnp.add(
                tnp.multiply(running_mean, 1.0 - momentum),
                tnp.multiply(batch_mean, momentum)))
        if running_var is not None:
            unbiased = tnp.multiply(batch_var, count / max(count - 1, 1))
            running_var.assign(tnp.add(
                tnp.multiply(running_var, 1.0 - momentum),
                tnp.multiply(unbiased, momentum)))
    return batch_normalization(x, mean, variance,
                               _channel(offset, channel, ndim),
                               _channel(scale, channel, ndim), epsilon)


def _channel(v, channel, ndim):
    """A per-channel vector shaped to broadcast along `channel`."""
    if v is None or channel == ndim - 1:
        return v
    return tnp.reshape(v, (-1,) + (1,) * (ndim - 1 - channel))


def dropout(x, rate, training=True, seed=0, key=None):
    """Zeroes each element with probability `rate` and scales the others by
    1 / (1 - rate) (torch.nn.functional.dropout, tf.nn.dropout); the
    identity without `training`. The mask is new at every call (of the
    compiled function, or eagerly), seeded as tracec.random.uniform; with a
    random `key` (tracec.random.PRNGKey), it is the key's, as in JAX."""
    if not 0.0 <= rate < 1.0:
        raise ValueError(f"dropout rate must be in [0, 1), got {rate}")
    if not training or rate == 0.0:
        return x
    dtype = _logits_dtype(x)
    u = random.uniform(key, tnp._shape(x), dtype) if key is not None else \
        random.uniform(tnp._shape(x), dtype=dtype, seed=seed)
    keep = tnp.greater_equal(u, rate)
    return tnp.where(keep, tnp.multiply(x, 1.0 / (1.0 - rate)), 0.0)


def _top_k(x, k):
    values, indices = _C.sort(
        [x, _C.iota(list(tnp._shape(x)), "i32", len(tnp._shape(x)) - 1)],
        -1, True)
    start = [0] * len(tnp._shape(x))
    limit = list(tnp._shape(x)[:-1]) + [k]
    return (op("slice", values, start=start, limit=limit),
            op("slice", indices, start=start, limit=limit))


def top_k(x, k=1):
    """The `k` largest entries of the last axis and their indices (int32),
    largest first, the lower index first among equal ones
    (tf.math.top_k, jax.lax.top_k); gradients flow to the chosen entries."""
    shape = tnp._shape(x)
    if not shape:
        raise ValueError("top_k needs at least one axis")
    if None in shape:
        raise ValueError("top_k needs a static shape")
    if not 0 <= int(k) <= shape[-1]:
        raise ValueError(f"top_k: k = {k} is out of range for a last axis of "
                         f"{shape[-1]}")
    return apply(_top_k, (x,), int(k), name="top_k")


def embedding(ids, table):
    """Rows `ids` of `table` (torch.nn.functional.embedding,
    tf.nn.embedding_lookup): its gradient adds into the rows used."""
    return tnp.take(table, ids, axis=0)
