"""Random numbers, two ways (both Philox4x32-10):

- stateful, as TensorFlow 1: `uniform(shape, seed=)`, `normal(shape, seed=)`
  give new numbers at every run of the compiled function or eager op; the
  same seed gives the same sequence;
- keyed, as JAX's `jax.random`: `key = PRNGKey(0)`, `k1, k2 = split(key)`,
  `uniform(k1, shape)`, `normal(k2, shape)`, `fold_in(key, step)`: the
  numbers are a pure function of the key and the shape, the same in every
  run, eager or traced. A key is an int32 array of shape (2,) (the two
  32-bit words of a Philox key), passed and returned like any array.

`uniform` and `normal` take a key when their first argument is not a shape
(a tuple, list or int)."""
from __future__ import annotations

import numpy as np

from . import _core
from . import _tracec as _C
from ._core import apply

# The counter words (counter, stream) each derivation draws at: the numbers
# of uniform and normal are at stream 0, so no two uses share a counter.
_SPLIT_STREAM = 1
_FOLD_IN_STREAM = 2


def _uniform(shape, dtype, seed, low, high):
    return _C.random_uniform(list(shape), dtype, seed, low, high)


def _normal(shape, dtype, seed, mean, stddev):
    return _C.random_normal(list(shape), dtype, seed, mean, stddev)


def _stateless_uniform(key, shape, dtype, low, high):
    return _C.stateless_random_uniform(key, list(shape), dtype, low, high)


def _stateless_normal(key, shape, dtype, mean, stddev):
    return _C.stateless_random_normal(key, list(shape), dtype, mean, stddev)


def _bits(key, counter, shape, stream):
    return _C.stateless_random_bits(key, counter, list(shape), stream)


def _is_shape(x):
    return isinstance(x, (tuple, list, int, np.integer))


def _check_key(key, what):
    shape = tuple(getattr(key, "shape", np.shape(key)))
    dtype = getattr(key, "dtype", None)
    name = _core.dtype_name(dtype) if dtype is not None else None
    if shape != (2,) or name != "i32":
        raise TypeError(
            f"{what} takes a random key (an int32 array of shape (2,), from "
            f"tracec.random.PRNGKey or split), got shape {shape} and dtype "
            f"{dtype}; for a stateful draw pass a shape tuple first")
    return key


def _shape_of(shape):
    return (int(shape),) if isinstance(shape, (int, np.integer)) else \
        tuple(int(d) for d in shape)


def PRNGKey(seed):
    """The key of integer `seed` (JAX's `jax.random.PRNGKey`): its low and
    high 32-bit words. A traced seed gives a traced key."""
    if isinstance(seed, (int, np.integer)):
        seed = int(seed) & 0xFFFFFFFFFFFFFFFF
        words = np.array([seed & 0xFFFFFFFF, seed >> 32], dtype=np.uint32)
        return words.view(np.int32)
    from . import numpy as tnp
    seed = tnp.asarray(seed)
    if seed.ndim != 0 or not np.issubdtype(_core.numpy_dtype(
            _core.dtype_name(seed.dtype)), np.integer):
        raise TypeError(f"PRNGKey takes an integer scalar seed, got {seed!r}")
    low = tnp.astype(seed, np.int32)
    high = tnp.astype(tnp.floor_divide(seed, 2**32), np.int32) \
        if _core.dtype_name(seed.dtype) == "i64" else tnp.zeros((), np.int32)
    return tnp.stack([low, high])


key = PRNGKey


def split(key, num=2):
    """`num` new keys, an int32 array of shape (num, 2) (JAX's
    `jax.random.split`)."""
    _check_key(key, "split")
    if int(num) < 1:
        raise ValueError(f"split needs num >= 1, got {num}")
    return apply(_bits, (key, np.int32(0)), (int(num), 2), _SPLIT_STREAM,
                 name="random_split")


def fold_in(key, data):
    """A new key from `key` and integer `data` (JAX's `jax.random.fold_in`:
    e.g. a key per step of a loop from the step number)."""
    _check_key(key, "fold_in")
    if isinstance(data, (int, np.integer)):
        data = np.uint32(int(data) & 0xFFFFFFFF).view(np.int32)
    else:
        from . import numpy as tnp
        data = tnp.astype(data, np.int32)
    return apply(_bits, (key, data), (2,), _FOLD_IN_STREAM,
                 name="random_fold_in")


def bits(key, shape=()):
    """Random 32-bit words, as int32 (JAX's `jax.random.bits`, whose words
    are uint32)."""
    _check_key(key, "bits")
    return apply(_bits, (key, np.int32(0)), _shape_of(shape), 0,
                 name="random_bits")


def _stateful_uniform(shape, minval=0.0, maxval=1.0, dtype=np.float32,
                      seed=0):
    _core._effects += 1
    return apply(_uniform, (), _shape_of(shape), _core.dtype_name(dtype),
                 int(seed), float(minval), float(maxval),
                 name="random_uniform")


def _stateful_normal(shape, mean=0.0, stddev=1.0, dtype=np.float32, seed=0):
    _core._effects += 1
    return apply(_normal, (), _shape_of(shape), _core.dtype_name(dtype),
                 int(seed), float(mean), float(stddev), name="random_normal")


def _keyed_uniform(key, shape=(), dtype=np.float32, minval=0.0, maxval=1.0):
    _check_key(key, "uniform")
    return apply(_stateless_uniform, (key,), _shape_of(shape),
                 _core.dtype_name(dtype), float(minval), float(maxval),
                 name="random_uniform")


def _keyed_normal(key, shape=(), dtype=np.float32):
    _check_key(key, "normal")
    return apply(_stateless_normal, (key,), _shape_of(shape),
                 _core.dtype_name(dtype), 0.0, 1.0, name="random_normal")


def uniform(key_or_shape, *args, **kwargs):
    """Uniform numbers in [minval, maxval):
    `uniform(key, shape=(), dtype=float32, minval=0., maxval=1.)` (JAX's),
    or stateful `uniform(shape, minval=0., maxval=1., dtype=float32,
    seed=0)` (TensorFlow 1's)."""
    if _is_shape(key_or_shape):
        return _stateful_uniform(key_or_shape, *args, **kwargs)
    return _keyed_uniform(key_or_shape, *args, **kwargs)


def normal(key_or_shape, *args, **kwargs):
    """Standard normal numbers: `normal(key, shape=(), dtype=float32)`
    (JAX's), or stateful `normal(shape, mean=0., stddev=1., dtype=float32,
    seed=0)` (TensorFlow 1's)."""
    if _is_shape(key_or_shape):
        return _stateful_normal(key_or_shape, *args, **kwargs)
    return _keyed_normal(key_or_shape, *args, **kwargs)


def bernoulli(key, p=0.5, shape=None):
    """True with probability `p` (JAX's `jax.random.bernoulli`); `shape`
    defaults to `p`'s."""
    from . import numpy as tnp
    shape = tnp._shape(p) if shape is None else _shape_of(shape)
    dtype = np.float64 if _core.dtype_name(
        getattr(p, "dtype", np.float32)) == "f64" else np.float32
    return tnp.less(_keyed_uniform(key, shape, dtype), p)


def randint(key, shape, minval, maxval, dtype=np.int32):
    """Integers in [minval, maxval) (JAX's `jax.random.randint`): the floor
    of a float64 uniform number scaled to the range (bias below 2^-53 of
    the range)."""
    from . import numpy as tnp
    if not int(maxval) > int(minval):
        raise ValueError(f"randint needs maxval > minval, got [{minval}, "
                         f"{maxval})")
    u = _keyed_uniform(key, shape, np.float64, float(minval), float(maxval))
    return tnp.astype(tnp.floor(u), dtype)


def categorical(key, logits, axis=-1, shape=None):
    """Indices drawn with probabilities softmax(`logits`) along `axis` (JAX's
    `jax.random.categorical`): the argmax of logits plus Gumbel noise."""
    from . import numpy as tnp
    if shape is not None:
        raise NotImplementedError("categorical: `shape` is not supported; "
                                  "broadcast the logits instead")
    dtype = np.float64 if _core.dtype_name(
        getattr(logits, "dtype", np.float32)) == "f64" else np.float32
    u = _keyed_uniform(key, tnp._shape(logits), dtype,
                       float(np.finfo(dtype).tiny), 1.0)
    gumbel = tnp.negative(tnp.log(tnp.negative(tnp.log(u))))
    return tnp.argmax(tnp.add(logits, gumbel), axis=axis)
