"""NumPy's names for tracec's ops: symbolic inside a traced function, eager
(compiled once per signature, cached) on arrays outside one.

>>> import tracec.numpy as tnp
>>> tnp.sum(tnp.exp(np.zeros((2, 3), np.float32)), axis=1)
array([3., 3.], dtype=float32)
"""
from __future__ import annotations

import builtins

import numpy as np

from . import _core
from . import _tracec as _C
from ._core import Value, apply, binary_kernel, op

float16, float32, float64 = np.float16, np.float32, np.float64
int32, int64, bool_ = np.int32, np.int64, np.bool_
# No NumPy dtype: bf16 arrays cross as float32 (_core.BF16_NAMES).
bfloat16 = "bf16"
ndarray = np.ndarray

# ---------------------------------------------------------------------------
# Elementwise
# ---------------------------------------------------------------------------


def _op_kernel(op_name):
    """A kernel recording trace.<op_name> on its operands."""
    def kernel(*operands):
        return op(op_name, *operands)
    kernel.__name__ = op_name
    return kernel


def _unary(op_name, name):
    kernel = _op_kernel(op_name)

    def fn(x):
        return apply(kernel, (x,), name=name)
    fn.__name__ = name
    fn.__doc__ = f"Elementwise {name} (trace.{op_name})."
    return fn


def _square(x):
    return op("mul", x, x)


negative = _unary("neg", "negative")
abs = absolute = _unary("abs", "abs")
exp = _unary("exp", "exp")
log = _unary("log", "log")
log1p = _unary("log1p", "log1p")
sqrt = _unary("sqrt", "sqrt")
tanh = _unary("tanh", "tanh")
sin = _unary("sin", "sin")
cos = _unary("cos", "cos")
sign = _unary("sign", "sign")
floor = _unary("floor", "floor")


def square(x):
    """Elementwise x * x."""
    return apply(_square, (x,), name="square")


def _binary(op_name, name):
    kernel = binary_kernel(_op_kernel(op_name))

    def fn(x, y):
        return apply(kernel, (x, y), name=name)
    fn.__name__ = name
    fn.__doc__ = f"Elementwise {name} with NumPy broadcasting."
    return fn


add = _binary("add", "add")
subtract = _binary("sub", "subtract")
multiply = _binary("mul", "multiply")
divide = true_divide = _binary("div", "divide")
power = _binary("pow", "power")
maximum = _binary("max", "maximum")
minimum = _binary("min", "minimum")
equal = _binary("eq", "equal")
not_equal = _binary("ne", "not_equal")
less = _binary("lt", "less")
less_equal = _binary("le", "less_equal")
greater = _binary("gt", "greater")
greater_equal = _binary("ge", "greater_equal")


def _where(c, x, y):
    if not isinstance(x, Value):
        x = _core.scalar_operand(x, y)
    if not isinstance(y, Value):
        y = _core.scalar_operand(y, x)
    return op("select", c, x, y)


def where(condition, x, y):
    """condition ? x : y elementwise, broadcasting all three."""
    return apply(_where, (condition, x, y), name="where")


def _astype(x, dtype):
    return _C.cast(x, dtype)


def astype(x, dtype):
    return apply(_astype, (x,), _core.dtype_name(dtype), name="cast")


# ---------------------------------------------------------------------------
# Linear algebra and reductions
# ---------------------------------------------------------------------------


def _matmul(a, b):
    return op("matmul", a, b)


def matmul(a, b):
    """Matrix product, batched with broadcast batch dims (a @ b). As in
    NumPy, a 1-D a is a row and a 1-D b a column, whose dim the result
    drops."""
    row, column = _ndim(a) == 1, _ndim(b) == 1
    result = apply(_matmul, (reshape(a, (1, -1)) if row else a,
                             reshape(b, (-1, 1)) if column else b),
                   name="matmul")
    if row or column:
        shape = list(_shape(result))
        if column:
            del shape[-1]
        if row:
            del shape[-1 if column else -2]
        result = reshape(result, tuple(shape))
    return result


dot = matmul


def _axes(axis, ndim=None):
    if axis is None:
        return ()
    if isinstance(axis, int):
        return (axis,)
    return tuple(axis)


def _reduction(op_name, name):
    def kernel(x, axes, keepdims):
        # No axes: NumPy's axis=None, every axis.
        return op(op_name, x, axes=list(axes) or list(range(x.ndim)),
                  keepdims=keepdims)
    kernel.__name__ = name

    def fn(x, axis=None, keepdims=False):
        return apply(kernel, (x,), _axes(axis), bool(keepdims), name=name)
    fn.__name__ = name
    fn.__doc__ = f"{name} over `axis` (all axes if None)."
    return fn


sum = _reduction("reduce_sum", "sum")
mean = _reduction("reduce_mean", "mean")
max = amax = _reduction("reduce_max", "max")
min = amin = _reduction("reduce_min", "min")
prod = _reduction("reduce_prod", "prod")


def _argmax(x, axis):
    return op("argmax", x, axis=axis)


def argmax(x, axis=-1):
    return apply(_argmax, (x,), int(axis), name="argmax")


def argmin(x, axis=-1):
    return argmax(negative(x), axis)


def clip(x, a_min, a_max):
    return minimum(maximum(x, a_min), a_max)


def var(x, axis=None, keepdims=False):
    centered = subtract(x, mean(x, axis, keepdims=True))
    return mean(multiply(centered, centered), axis, keepdims)


def std(x, axis=None, keepdims=False):
    return sqrt(var(x, axis, keepdims))


# ---------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------


def ravel(x):
    return reshape(x, (-1,))


def squeeze(x, axis=None):
    shape = _shape(x)
    axes = range(len(shape)) if axis is None else \
        [a % len(shape) for a in _axes(axis)]
    for a in axes:
        if axis is not None and shape[a] != 1:
            raise ValueError(f"cannot squeeze axis {a} of size {shape[a]}")
    return reshape(x, tuple(d for i, d in enumerate(shape)
                            if not (i in axes and d == 1)))


def _reshape(x, shape):
    return _C.reshape(x, list(shape))


def reshape(x, newshape):
    if isinstance(newshape, int):
        newshape = (newshape,)
    # A None dim (a dynamic one, as a traced Value's shape gives it) is the
    # one inferred dim, -1.
    return apply(_reshape, (x,),
                 tuple(-1 if d is None else int(d) for d in newshape),
                 name="reshape")


def _transpose(x, perm):
    return op("transpose", x, perm=list(perm) or list(reversed(range(x.ndim))))


def transpose(x, axes=None):
    return apply(_transpose, (x,), tuple(axes) if axes is not None else (),
                 name="transpose")


def _broadcast_to(x, shape):
    return _C.broadcast_to(x, list(shape))


def broadcast_to(x, shape):
    return apply(_broadcast_to, (x,), tuple(shape), name="broadcast_to")


def _concat(*values_and_axis):
    *values, axis = values_and_axis
    return op("concat", *values, axis=axis)


def concatenate(arrays, axis=0):
    return apply(_concat, tuple(arrays), int(axis), name="concat")


def stack(arrays, axis=0):
    return concatenate([expand_dims(a, axis) for a in arrays], axis)


def expand_dims(x, axis):
    shape = list(np.shape(x) if not isinstance(x, Value) else x.shape)
    if axis < 0:
        axis += len(shape) + 1
    shape.insert(axis, 1)
    return reshape(x, shape)


def _pad(x, low, high, value):
    return op("pad", x, low=list(low), high=list(high), value=value)


def pad(x, pad_width, constant_values=0.0):
    """np.pad with mode='constant'."""
    ndim = len(_shape(x))
    pad_width = np.broadcast_to(np.asarray(pad_width, np.int64), (ndim, 2))
    return apply(_pad, (x,), tuple(int(p) for p in pad_width[:, 0]),
                 tuple(int(p) for p in pad_width[:, 1]), float(constant_values),
                 name="pad")


def _take(params, indices, axis):
    return op("gather", params, indices, axis=axis)


def take(a, indices, axis=0):
    """np.take (out-of-range indices are clamped)."""
    if isinstance(indices, (int, list)):
        indices = np.asarray(indices, np.int32)
    return apply(_take, (a, indices), int(axis), name="take")


def _scatter_add(operand, indices, updates, axis):
    return op("scatter_add", operand, indices, updates, axis=axis)


def scatter_add(a, indices, updates, axis=0):
    """`a` with `updates` added at `indices` along `axis`: np.add.at on a
    copy (JAX's `a.at[indices].add(updates)`), the adjoint of `take`.
    `updates` has take's result shape; repeated indices add up and
    out-of-range ones are clamped, as `take` clamps them.

    >>> import numpy as np, tracec.numpy as tnp
    >>> tnp.scatter_add(np.zeros((3, 2), np.float32), np.array([2, 0, 2]),
    ...                 np.ones((3, 2), np.float32)).tolist()
    [[1.0, 1.0], [0.0, 0.0], [2.0, 2.0]]
    """
    if isinstance(indices, (int, list)):
        indices = np.asarray(indices, np.int32)
    return apply(_scatter_add, (a, indices, updates), int(axis),
                 name="scatter_add")


def _slice(x, start, limit, strides):
    attributes = {"strides": list(strides)} if strides else {}
    return op("slice", x, start=list(start), limit=list(limit), **attributes)


def _ndim(x):
    return x.ndim if hasattr(x, "ndim") else np.ndim(x)


def _shape(x):
    if isinstance(x, Value):
        return tuple(x.shape)
    return tuple(np.shape(x))


def _is_mask(index):
    if isinstance(index, Value):
        return index.dtype == "i1"
    return isinstance(index, (np.ndarray, list)) and \
        np.asarray(index).dtype == np.bool_


def _getitem(x, index):
    """Basic indexing: ints, slices (with steps, negative ones too: the
    elements in ascending order, then reversed by a gather), None and
    Ellipsis; an integer array indexes the first axis (take)."""
    if _is_mask(index):
        raise IndexError("boolean mask indexing is not supported (its "
                         "result's shape depends on the data); use "
                         "tracec.numpy.where")
    if isinstance(index, (np.ndarray, list, Value)):
        return take(x, index, 0)
    if not isinstance(index, tuple):
        index = (index,)
    shape = _shape(x)
    if builtins.sum(1 for i in index if i is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    n_real = builtins.sum(1 for i in index if i is not None and i is not Ellipsis)
    if n_real > len(shape):
        raise IndexError(f"too many indices for an array of shape {shape}")
    expanded = []
    for i in index:
        if i is Ellipsis:
            expanded.extend([slice(None)] * (len(shape) - n_real))
        else:
            expanded.append(i)
    while builtins.sum(1 for i in expanded if i is not None) < len(shape):
        expanded.append(slice(None))
    start, limit, strides, out_shape = [], [], [], []
    reversed_dims = []  # (axis of the slice, its size): negative steps
    dim = 0
    for i in expanded:
        if i is None:
            out_shape.append(1)
            continue
        size = shape[dim]
        if isinstance(i, (int, np.integer)):
            j = int(i) + size if i < 0 else int(i)
            if not 0 <= j < size:
                raise IndexError(f"index {i} is out of bounds for axis {dim} "
                                 f"with size {size}")
            start.append(j)
            limit.append(j + 1)
            strides.append(1)
        elif isinstance(i, slice):
            if i.step == 0:
                raise ValueError("slice step cannot be zero")
            b, e, s = i.indices(size)
            n = len(range(b, e, s))
            if s < 0 and n > 1:
                # The same elements in ascending order, then reversed.
                b, s = b + (n - 1) * s, -s
                reversed_dims.append((len(strides), n))
            s = builtins.abs(s)
            start.append(b if n else 0)
            limit.append(b + (n - 1) * s + 1 if n else 0)
            strides.append(s)
            out_shape.append(n)
        else:
            raise IndexError(f"unsupported index {i!r} (ints, slices, None, "
                             "... and integer arrays are)")
        dim += 1
    result = apply(_slice, (x,), tuple(start), tuple(limit), tuple(strides),
                   name="slice")
    for axis, n in reversed_dims:
        result = take(result, np.arange(n - 1, -1, -1, dtype=np.int32), axis)
    if tuple(out_shape) != _shape(result):
        result = reshape(result, out_shape)
    return result


# ---------------------------------------------------------------------------
# Sources
# ---------------------------------------------------------------------------


def _full(shape, value, dtype):
    return _C.full(list(shape), value, dtype)


def full(shape, fill_value, dtype=np.float32):
    if isinstance(shape, int):
        shape = (shape,)
    return apply(_full, (), tuple(shape), float(fill_value),
                 _core.dtype_name(dtype), name="full")


def zeros(shape, dtype=np.float32):
    return full(shape, 0.0, dtype)


def ones(shape, dtype=np.float32):
    return full(shape, 1.0, dtype)


def zeros_like(x):
    return apply(_C.zeros_like, (x,), name="zeros_like")


def ones_like(x):
    return apply(_C.ones_like, (x,), name="ones_like")


def _iota(shape, dtype, axis):
    return _C.iota(list(shape), dtype, axis)


def arange(n, dtype=np.int32):
    return apply(_iota, (), (int(n),), _core.dtype_name(dtype), 0, name="iota")


def _identity(x):
    return x


def asarray(x, dtype=None):
    """x as an array (a Value inside a trace). Eagerly under a tape, a
    NumPy array becomes a recorded copy whose operators the tape records
    (a TapedArray): `x = tnp.asarray(x)` after `tape.watch(x)`."""
    if isinstance(x, Value):
        return x if dtype is None else astype(x, dtype)
    if _core._tapes and not _core.is_tracing():
        x = apply(_identity, (np.asarray(x),), name="identity")
        return x if dtype is None else astype(x, dtype)
    return np.asarray(x, dtype=dtype)


# ---------------------------------------------------------------------------
# Operators on tracer Values (Python's operators record tracec ops).
# ---------------------------------------------------------------------------


def _reflect(fn):
    return lambda self, other: fn(other, self)


def _install_operators(cls):
    cls.__add__, cls.__radd__ = add, _reflect(add)
    cls.__sub__, cls.__rsub__ = subtract, _reflect(subtract)
    cls.__mul__, cls.__rmul__ = multiply, _reflect(multiply)
    cls.__truediv__, cls.__rtruediv__ = divide, _reflect(divide)
    cls.__pow__, cls.__rpow__ = power, _reflect(power)
    cls.__matmul__, cls.__rmatmul__ = matmul, _reflect(matmul)
    cls.__lt__, cls.__le__ = less, less_equal
    cls.__gt__, cls.__ge__ = greater, greater_equal
    cls.__neg__ = negative
    cls.__abs__ = abs
    cls.__getitem__ = _getitem
    cls.__array_ufunc__ = None
    cls.T = property(lambda self: transpose(self))
    cls.reshape = lambda self, *shape: reshape(
        self, shape[0] if len(shape) == 1 else shape)
    cls.astype = astype
    cls.sum = lambda self, axis=None, keepdims=False: sum(self, axis, keepdims)
    cls.mean = lambda self, axis=None, keepdims=False: mean(self, axis, keepdims)
    cls.__repr__ = lambda self: f"<tracec.Value {self.type_string()}>"
    cls.__bool__ = _no_bool
    cls.__len__ = lambda self: self.shape[0]
    cls.__iter__ = _no_iter
    cls.__hash__ = object.__hash__


def _no_bool(self):
    raise TypeError(
        f"the truth value of a symbolic {self.type_string()} is not known while "
        "tracing: use tracec.cond / tracec.numpy.where instead of `if`, or "
        "pass the value as a non-array (static) argument")


def _no_iter(self):
    raise TypeError("iterating over a symbolic value is not supported; index "
                    "it (x[i]) instead")


_install_operators(Value)


# ---------------------------------------------------------------------------
# Eager values under tapes (_core.TapedArray): NumPy's ufuncs, functions and
# methods on them record these ops while a tape is active.
# ---------------------------------------------------------------------------


def _reduce(fn):
    return lambda x, axis=0, keepdims=False: fn(x, axis, keepdims)


def _while_taped(record, numpy_method):
    """A method that records `record` while a tape is active, else is
    NumPy's."""
    def method(self, *args, **kwargs):
        if _core._tapes:
            return record(self, *args, **kwargs)
        return numpy_method(self, *args, **kwargs)
    return method


def _shape_argument(shape):
    return shape[0] if len(shape) == 1 else shape


def _taped_getitem(x, index):
    if _is_mask(index):
        return _core.not_recorded_numpy(np.ndarray.__getitem__, (x, index),
                                        "boolean mask indexing")
    return _getitem(x, index)


def _taped_where(condition, *xy):
    if len(xy) != 2:  # np.where(condition): indices, no gradient
        return _core.not_recorded_numpy(np.where, (condition,), "np.where")
    return where(condition, *xy)


def _taped_dot(a, b):
    if _ndim(a) > 2 or _ndim(b) > 2:  # not matmul's batch semantics
        return _core.not_recorded_numpy(np.dot, (a, b), "np.dot")
    return matmul(a, b)


def _install_taped_operators(cls):
    binary = {"add": add, "subtract": subtract, "multiply": multiply,
              "true_divide": divide, "divide": divide, "power": power,
              "maximum": maximum, "minimum": minimum, "matmul": matmul}
    unary = {"negative": negative, "positive": _identity, "absolute": abs,
             "exp": exp, "log": log, "log1p": log1p, "sqrt": sqrt,
             "tanh": tanh, "sin": sin, "cos": cos, "square": square,
             "sign": sign, "floor": floor}
    reductions = {"add": sum, "maximum": max, "minimum": min,
                  "multiply": prod}
    cls.recorded_ufuncs = {
        **{(name, "__call__"): fn for name, fn in binary.items()},
        **{(name, "__call__"): fn for name, fn in unary.items()},
        **{(name, "reduce"): _reduce(fn) for name, fn in reductions.items()}}
    cls.recorded_functions = {
        np.sum: sum, np.mean: mean, np.max: max, np.amax: max, np.min: min,
        np.amin: min, np.prod: prod, np.var: var, np.std: std,
        np.reshape: reshape, np.transpose: transpose, np.ravel: ravel,
        np.squeeze: squeeze, np.expand_dims: expand_dims,
        np.concatenate: concatenate, np.stack: stack, np.where: _taped_where,
        np.clip: clip, np.dot: _taped_dot, np.matmul: matmul}
    cls.__getitem__ = _while_taped(_taped_getitem, np.ndarray.__getitem__)
    cls.reshape = _while_taped(
        lambda self, *shape: reshape(self, _shape_argument(shape)),
        np.ndarray.reshape)
    cls.transpose = _while_taped(
        lambda self, *axes: transpose(self, _shape_argument(axes) or None),
        np.ndarray.transpose)
    cls.T = property(_while_taped(transpose, np.ndarray.T.__get__))
    cls.astype = _while_taped(astype, np.ndarray.astype)
    cls.ravel = _while_taped(ravel, np.ndarray.ravel)
    cls.flatten = _while_taped(ravel, np.ndarray.flatten)
    cls.squeeze = _while_taped(squeeze, np.ndarray.squeeze)


_install_taped_operators(_core.TapedArray)

