"""NumPy's names for tracec's ops: symbolic inside a traced function, eager
(compiled once per signature, cached) on arrays outside one.

>>> import tracec.numpy as tnp
>>> tnp.sum(tnp.exp(np.zeros((2, 3), np.float32)), axis=1)
array([3., 3.], dtype=float32)
"""
from __future__ import annotations

import builtins
import operator

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


_weak_array = _core.number_as_array


def _unary(op_name, name):
    kernel = _op_kernel(op_name)

    def fn(x):
        return apply(kernel, (_weak_array(x),), name=name)
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
arcsin = asin = _unary("asin", "arcsin")
arccos = acos = _unary("acos", "arccos")
arctan = atan = _unary("atan", "arctan")
arcsinh = asinh = _unary("asinh", "arcsinh")
arccosh = acosh = _unary("acosh", "arccosh")
arctanh = atanh = _unary("atanh", "arctanh")


def square(x):
    """Elementwise x * x."""
    return apply(_square, (_weak_array(x),), name="square")


def _is_number(x):
    """A Python number (np.float64, a float too, is not one: its dtype is
    its own, as in JAX)."""
    return isinstance(x, _core._SCALARS) and not isinstance(x, np.generic)


def _binary_operands(x, y):
    """Two Python numbers meet as arrays (one of them alone would take the
    other operand's dtype; a NumPy scalar keeps its own)."""
    if _is_number(x) and _is_number(y):
        return _weak_array(x), _weak_array(y)
    return x, y


def _binary_function(kernel, name, doc=None):
    def fn(x, y):
        return apply(kernel, _binary_operands(x, y), name=name)
    fn.__name__ = name
    fn.__doc__ = doc or f"Elementwise {name} with NumPy broadcasting."
    return fn


def _binary(op_name, name):
    return _binary_function(binary_kernel(_op_kernel(op_name)), name)


def _is_bool(x):
    return (x.dtype if isinstance(x, Value) else None) == "i1" or \
        isinstance(x, bool)


def _both_bool(x, y):
    return _is_bool(x) and _is_bool(y) and \
        (isinstance(x, Value) or isinstance(y, Value))


def _bool_value(x):
    return x if isinstance(x, Value) else _C.constant(np.asarray(bool(x)))


def _logical_or(x, y):
    x, y = _bool_value(x), _bool_value(y)
    return op("select", x, x, y)  # true where x is, else y


def _logical_and(x, y):
    x, y = _bool_value(x), _bool_value(y)
    return op("select", x, y, x)  # y where x is true, else false


def _with_booleans(on_bools, op_name):
    """trace.<op_name>'s kernel, but on two booleans NumPy's logical
    meaning of it (+ and max: or; * and min: and)."""
    numeric = binary_kernel(_op_kernel(op_name))

    def kernel(x, y):
        if _both_bool(x, y):
            return on_bools(x, y)
        return numeric(x, y)
    kernel.__name__ = op_name
    return kernel


def _subtract(x, y):
    if _both_bool(x, y):
        raise TypeError("boolean subtract, the `-` operator, is not "
                        "supported (as in NumPy): use logical_xor")
    return binary_kernel(_op_kernel("sub"))(x, y)


add = _binary_function(_with_booleans(_logical_or, "add"), "add")
subtract = _binary_function(_subtract, "subtract")
multiply = _binary_function(_with_booleans(_logical_and, "mul"), "multiply")
power = _binary("pow", "power")
maximum = _binary_function(_with_booleans(_logical_or, "max"), "maximum")
minimum = _binary_function(_with_booleans(_logical_and, "min"), "minimum")


def promote_types(a, b):
    """The dtype operands of dtypes a and b are computed in: JAX's lattice
    bool < int32 < int64 < float16/bfloat16 < float32 < float64 (an integer
    with a float gives the float; float16 with bfloat16 gives float32).
    NumPy's differs where an integer meets a float narrower than float64
    (NumPy: float64) and for unsigned/small types (not supported)."""
    name = _C.promote_types(_core.dtype_name(a), _core.dtype_name(b))
    return "bf16" if name == "bf16" else _core.numpy_dtype(name)


def _common_values(x, y):
    """x and y (one of them a Value) as Values of their common dtype: a
    Python number takes the Value's dtype (a float meeting an integer one
    makes float32)."""
    if not isinstance(x, Value):
        x = _core.scalar_operand(x, y)
    elif not isinstance(y, Value):
        y = _core.scalar_operand(y, x)
    dtype = _C.common_dtype([x, y])  # a weakly typed Value follows
    return _C.cast(x, dtype), _C.cast(y, dtype)


def _is_floating_operand(x):
    return x.dtype in _core.FLOAT_DTYPES if isinstance(x, Value) else \
        isinstance(x, float)


def _as_float64(x):
    return _C.cast(x, "f64") if isinstance(x, Value) else float(x)


def _true_divide(x, y):
    # Integers and bools divide as float64 (NumPy's and TensorFlow's
    # truediv): float32 would round integers above 2**24.
    if not _is_floating_operand(x) and not _is_floating_operand(y):
        x, y = _as_float64(x), _as_float64(y)
    return binary_kernel(_op_kernel("div"))(x, y)


def _arctan2(y, x):
    # Integers and bools as float64 (as NumPy's arctan2 takes them), or as
    # the other operand's float dtype.
    floats = [v.dtype for v in (y, x)
              if isinstance(v, Value) and v.dtype in _core.FLOAT_DTYPES]
    dtype = floats[0] if floats else "f64"

    def as_float(v):
        if isinstance(v, Value):
            return v if v.dtype in _core.FLOAT_DTYPES else _C.cast(v, dtype)
        return float(v)
    y, x = as_float(y), as_float(x)
    if not isinstance(y, Value) and not isinstance(x, Value):
        y = _C.constant(np.asarray(y, np.float64))
    return binary_kernel(_op_kernel("atan2"))(y, x)


arctan2 = atan2 = _binary_function(_arctan2, "arctan2")


def _integer_floor_divmod(x, y):
    # div and rem truncate (and give 0 for a zero divisor, as NumPy's //
    # and %); floor semantics move a nonzero remainder whose sign differs
    # from the divisor's by one divisor.
    quotient, remainder = op("div", x, y), op("rem", x, y)
    zero = _core.scalar_operand(0, remainder)
    fix = _logical_and(op("ne", remainder, zero),
                       op("ne", op("lt", remainder, zero), op("lt", y, zero)))
    one = _core.scalar_operand(1, quotient)
    return (op("select", fix, op("sub", quotient, one), quotient),
            op("select", fix, op("add", remainder, y), remainder))


def _float_floor_divide(x, y, remainder):
    # NumPy's npy_divmod: the quotient of x - fmod(x, y), exact up to a
    # rounding that floor then fixes; x / y itself (inf, NaN) where y is 0.
    zero = _core.scalar_operand(0, x)
    one = _core.scalar_operand(1, x)
    quotient = op("div", op("sub", x, remainder), y)
    fix = _logical_and(op("ne", remainder, zero),
                       op("ne", op("lt", remainder, zero), op("lt", y, zero)))
    quotient = op("select", fix, op("sub", quotient, one), quotient)
    floored = op("floor", quotient)
    half = _core.scalar_operand(0.5, x)
    floored = op("select", op("gt", op("sub", quotient, floored), half),
                 op("add", floored, one), floored)
    floored = op("select", op("eq", y, zero), op("div", x, y), floored)
    # Piecewise constant: its derivative is 0 wherever it has one.
    return op("stop_gradient", floored)


def _float_remainder(x, y, remainder):
    # fmod's result moved by y where its sign differs from y's (JAX's
    # remainder): d/dx = 1, d/dy = -floor(x / y) through rem's rule.
    zero = _core.scalar_operand(0, x)
    fix = _logical_and(op("ne", remainder, zero),
                       op("ne", op("lt", remainder, zero), op("lt", y, zero)))
    return op("select", fix, op("add", remainder, y), remainder)


def _floor_operands(x, y):
    x, y = _common_values(x, y)
    if x.dtype == "i1":  # NumPy: int8; tracec's smallest integer is int32
        x, y = _C.cast(x, "i32"), _C.cast(y, "i32")
    return x, y


def _floor_divide(x, y):
    x, y = _floor_operands(x, y)
    if x.dtype in _core.FLOAT_DTYPES:
        return _float_floor_divide(x, y, op("rem", x, y))
    return _integer_floor_divmod(x, y)[0]


def _remainder(x, y):
    x, y = _floor_operands(x, y)
    if x.dtype in _core.FLOAT_DTYPES:
        return _float_remainder(x, y, op("rem", x, y))
    return _integer_floor_divmod(x, y)[1]


def _divmod(x, y):
    x, y = _floor_operands(x, y)
    if x.dtype in _core.FLOAT_DTYPES:
        remainder = op("rem", x, y)
        return (_float_floor_divide(x, y, remainder),
                _float_remainder(x, y, remainder))
    return _integer_floor_divmod(x, y)


def _fmod(x, y):
    x, y = _floor_operands(x, y)
    return op("rem", x, y)


divide = true_divide = _binary_function(
    _true_divide, "divide",
    "x / y elementwise (true division: integers divide as float64).")
floor_divide = _binary_function(
    _floor_divide, "floor_divide",
    "x // y elementwise: the floor of the quotient, as NumPy's (x // 0 is "
    "0 for integers, +-inf or NaN for floats); no gradient.")
remainder = mod = _binary_function(
    _remainder, "remainder",
    "x % y elementwise, with the sign of y (NumPy's and Python's %; x % 0 "
    "is 0 for integers, NaN for floats).")
fmod = _binary_function(
    _fmod, "fmod", "C's fmod: the remainder with the sign of x (trace.rem).")
divmod = _binary_function(_divmod, "divmod",
                          "(x // y, x % y), computed together.")


def logical_and(x, y):
    return apply(_logical_and, _binary_operands(_as_bool(x), _as_bool(y)),
                 name="logical_and")


def logical_or(x, y):
    return apply(_logical_or, _binary_operands(_as_bool(x), _as_bool(y)),
                 name="logical_or")


def logical_xor(x, y):
    return not_equal(_as_bool(x), _as_bool(y))


def logical_not(x):
    return equal(_as_bool(x), False)


def _as_bool(x):
    """x's truth values: nonzero elements are true (NumPy's logical_*)."""
    if isinstance(x, _core._SCALARS):
        return bool(x)
    if isinstance(x, Value) and x.dtype == "i1" or \
            not isinstance(x, Value) and np.asarray(x).dtype == np.bool_:
        return x
    return not_equal(x, 0)
equal = _binary("eq", "equal")
not_equal = _binary("ne", "not_equal")
less = _binary("lt", "less")
less_equal = _binary("le", "less_equal")
greater = _binary("gt", "greater")
greater_equal = _binary("ge", "greater_equal")


def _where(c, x, y):
    # A Python bool beside a boolean Value stays a bool (scalar_operand
    # would make it an int32, as for arithmetic).
    if _both_bool(x, y):
        x, y = _bool_value(x), _bool_value(y)
    if not isinstance(x, Value):
        x = _core.scalar_operand(x, y)
    if not isinstance(y, Value):
        y = _core.scalar_operand(y, x)
    return op("select", c, x, y)


def where(condition, x, y):
    """condition ? x : y elementwise, broadcasting all three; a condition
    not boolean is true where nonzero (NumPy's)."""
    condition = _as_bool(condition)
    if isinstance(condition, bool):
        condition = np.asarray(condition)
    return apply(_where, (condition, *_binary_operands(x, y)), name="where")


def _astype(x, dtype):
    return _C.cast(x, dtype)


def astype(x, dtype):
    return apply(_astype, (_weak_array(x),), _core.dtype_name(dtype),
                 name="cast")


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


def dot(a, b):
    """NumPy's dot: a product with a scalar, matmul of 1-D and 2-D
    operands, else a sum over a's last axis and b's second-to-last."""
    if _ndim(a) == 0 or _ndim(b) == 0:
        return multiply(a, b)
    if _ndim(a) <= 2 and _ndim(b) <= 2 or _ndim(b) == 1:
        return matmul(a, b)
    return tensordot(a, b, ([-1], [-2]))


def _axes(axis, ndim=None):
    if axis is None:
        return ()
    if isinstance(axis, int):
        return (axis,)
    return tuple(axis)


def _reduction(op_name, name):
    def kernel(x, axes, keepdims):
        # No axes: NumPy's axis=None, every axis.
        axes = list(axes) or list(range(x.ndim))
        if x.dtype == "i1" and op_name in ("reduce_max", "reduce_min"):
            # max/min of booleans: or/and, as NumPy's.
            return _C.cast(op(op_name, _C.cast(x, "i32"), axes=axes,
                              keepdims=keepdims), "i1")
        if x.dtype == "i1":  # sum/prod/mean of booleans: of 0s and 1s
            x = _C.cast(x, "i32")
        return op(op_name, x, axes=axes, keepdims=keepdims)
    kernel.__name__ = name

    def fn(x, axis=None, keepdims=False):
        return apply(kernel, (_weak_array(x),), _axes(axis), bool(keepdims),
                     name=name)
    fn.__name__ = name
    fn.__doc__ = f"{name} over `axis` (all axes if None)."
    return fn


def _with_dtype(reduction, name):
    """reduction(x, axis, keepdims) with NumPy's `dtype=`: x cast to dtype
    first (the accumulator and result type; booleans reduce as any/all)."""
    def fn(x, axis=None, keepdims=False, *, dtype=None):
        if dtype is None:
            return reduction(x, axis, keepdims)
        x = _weak_array(x)
        if name in ("nansum", "nanprod") and _is_float(x):
            # NaNs replaced before the cast (NumPy's).
            x = where(isnan(x), 0.0 if name == "nansum" else 1.0, x)
        if np.dtype(_core.numpy_dtype(_core.dtype_name(dtype))) == np.bool_:
            if name in ("sum", "nansum"):
                return any(x, axis, keepdims)
            if name in ("prod", "nanprod"):
                return all(x, axis, keepdims)
        if name in ("mean", "nanmean") and \
                _core.dtype_name(dtype) not in _core.FLOAT_DTYPES:
            # NumPy: the sum in dtype, divided, cast back (truncated).
            summed = (nansum if name == "nanmean" else sum)(
                astype(x, dtype), axis, keepdims)
            if name == "nanmean":
                n = count_nonzero(logical_not(isnan(x)), axis, keepdims)
            else:
                n = _size(x) // builtins.max(1, _size(summed))
            return astype(divide(summed, n), dtype)
        return reduction(astype(x, dtype), axis, keepdims)
    fn.__name__ = name
    fn.__doc__ = reduction.__doc__
    return fn


sum = _with_dtype(_reduction("reduce_sum", "sum"), "sum")
mean = _with_dtype(_reduction("reduce_mean", "mean"), "mean")
max = amax = _reduction("reduce_max", "max")
min = amin = _reduction("reduce_min", "min")
prod = _with_dtype(_reduction("reduce_prod", "prod"), "prod")


def _argmax(x, axis):
    return op("argmax", x, axis=axis)


def argmax(x, axis=None):
    """The index of the first maximum along `axis`; of the flattened array
    if None (NumPy's)."""
    x = _weak_array(x)
    if axis is None:
        x, axis = ravel(x), 0
    if _is_bool(x) or np.asarray(x).dtype == np.bool_ \
            if not isinstance(x, Value) else _is_bool(x):
        x = astype(x, np.int32)
    return apply(_argmax, (x,), int(axis), name="argmax")


def argmin(x, axis=None):
    x = _weak_array(x)
    if isinstance(x, Value) and _is_bool(x) or \
            not isinstance(x, Value) and np.asarray(x).dtype == np.bool_:
        return argmax(logical_not(x), axis)
    return argmax(negative(x), axis)


def clip(x, a_min=None, a_max=None):
    """x limited to [a_min, a_max]; either bound may be None (not both)."""
    if a_min is None and a_max is None:
        raise ValueError("At most one of a_min and a_max may be None")
    x = _weak_array(x)
    if a_min is not None:
        x = maximum(x, a_min)
    return minimum(x, a_max) if a_max is not None else x


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
    return apply(_reshape, (_weak_array(x),),
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
    return apply(_broadcast_to, (_weak_array(x),), tuple(shape),
                 name="broadcast_to")


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


def _wrapped_indices(params, indices, axis):
    """Negative indices count from the end of `axis`, as in NumPy."""
    if indices.dtype not in ("i32", "i64"):
        raise TypeError(f"indices must be int32 or int64, got a "
                        f"{indices.type_string()}")
    size = params.shape[axis]
    size = _core.scalar_operand(size, indices) if size is not None else \
        _C.size(params, [axis], indices.dtype)
    zero = _core.scalar_operand(0, indices)
    return op("select", op("lt", indices, zero), op("add", indices, size),
              indices)


def _take(params, indices, axis):
    return op("gather", params, _wrapped_indices(params, indices, axis),
              axis=axis)


def _concrete_indices(indices, size, axis):
    """Indices known now (not a traced Value): checked against the axis
    size as NumPy checks them, negative ones wrapped."""
    indices = np.asarray(indices)
    if indices.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer type, "
                         f"not {indices.dtype}")
    if size is not None and indices.size:
        bad = indices[(indices >= size) | (indices < -size)]
        if bad.size:
            raise IndexError(f"index {int(bad.flat[0])} is out of bounds for "
                             f"axis {axis} with size {size}")
        indices = np.where(indices < 0, indices + size, indices)
    fits = not indices.size or (indices.min() >= np.iinfo(np.int32).min and
                                indices.max() <= np.iinfo(np.int32).max)
    return indices.astype(np.int32 if fits else np.int64)


def take(a, indices, axis=None):
    """np.take: the elements at `indices` along `axis` (of the flattened
    array if None). Negative indices count from the end. Indices known when
    the call is made (NumPy arrays, lists, ints) are checked: one out of
    range is an IndexError, as in NumPy; traced indices cannot be, and an
    out-of-range one is clamped to the nearest end (JAX's indexing)."""
    a = _weak_array(a)
    if axis is None:
        a, axis = ravel(a), 0
    axis = int(axis)
    shape = _shape(a)
    if not -len(shape) <= axis < len(shape):
        raise IndexError(f"axis {axis} is out of bounds for an array of "
                         f"{len(shape)} dims")
    axis %= len(shape)
    if not isinstance(indices, Value):
        indices = _concrete_indices(indices, shape[axis], axis)
    return apply(_take, (a, indices), axis, name="take")


def _scatter_add(operand, indices, updates, axis):
    return op("scatter_add", operand,
              _wrapped_indices(operand, indices, axis), updates, axis=axis)


def scatter_add(a, indices, updates, axis=0):
    """`a` with `updates` added at `indices` along `axis`: np.add.at on a
    copy (JAX's `a.at[indices].add(updates)`), the adjoint of `take`.
    `updates` has take's result shape; repeated indices add up; negative
    ones count from the end and out-of-range ones are checked or clamped,
    as by `take`.

    >>> import numpy as np, tracec.numpy as tnp
    >>> tnp.scatter_add(np.zeros((3, 2), np.float32), np.array([2, 0, 2]),
    ...                 np.ones((3, 2), np.float32)).tolist()
    [[1.0, 1.0], [0.0, 0.0], [2.0, 2.0]]
    """
    axis = int(axis) % len(_shape(a))
    if not isinstance(indices, Value):
        indices = _concrete_indices(indices, _shape(a)[axis], axis)
    return apply(_scatter_add, (a, indices, updates), axis,
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


def _size(x, axis=None):
    shape = _shape(x)
    dims = shape if axis is None else [shape[axis]]
    if None in dims:
        raise TypeError("np.size of a dynamic dim is not known while tracing")
    return int(np.prod(dims))


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
# More of NumPy's names, composed of the ops above (their gradients are
# those ops' rules). They need static sizes along the axes they work on.
# ---------------------------------------------------------------------------


def _static_size(x, axis, what):
    size = _shape(x)[axis]
    if size is None:
        raise ValueError(f"{what} needs a static size along axis {axis}, "
                         f"got a dynamic dim (shape {_shape(x)})")
    return size


def _axis_list(x, axis):
    ndim = len(_shape(x))
    if axis is None:
        return list(range(ndim))
    axes = [a % ndim if -ndim <= a < ndim else None for a in _axes(axis)]
    if None in axes:
        raise ValueError(f"axis {axis} is out of bounds for an array of "
                         f"{ndim} dims")
    return axes


def flip(x, axis=None):
    """x with the order of elements along `axis` (all axes if None)
    reversed."""
    x = _weak_array(x)
    index = [slice(None)] * len(_shape(x))
    for a in _axis_list(x, axis):
        _static_size(x, a, "flip")
        index[a] = slice(None, None, -1)
    return _getitem(x, tuple(index))


def _slice_axis(x, axis, start, stop):
    index = [slice(None)] * len(_shape(x))
    index[axis] = slice(start, stop)
    return _getitem(x, tuple(index))


def roll(x, shift, axis=None):
    """Elements shifted by `shift` along `axis`, those past the end coming
    back at the start (of the flattened array if axis is None)."""
    x = _weak_array(x)
    if axis is None:
        return reshape(roll(ravel(x), shift, 0), _shape(x))
    shifts = (shift,) if isinstance(shift, int) else tuple(shift)
    axes = _axis_list(x, axis)
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    if len(shifts) != len(axes):
        raise ValueError("roll: shift and axis must have the same length")
    for a, k in zip(axes, shifts):
        n = _static_size(x, a, "roll")
        k = k % n if n else 0
        if k:
            x = concatenate([_slice_axis(x, a, n - k, n),
                             _slice_axis(x, a, 0, n - k)], a)
    return x


def tile(x, reps):
    """x repeated `reps` times along each axis (np.tile): a broadcast
    between new axes, then a reshape."""
    x = _weak_array(x)
    reps = (reps,) if isinstance(reps, int) else tuple(int(r) for r in reps)
    shape = _shape(x)
    ndim = builtins.max(len(shape), len(reps))
    shape = (1,) * (ndim - len(shape)) + shape
    reps = (1,) * (ndim - len(reps)) + reps
    if None in shape:
        raise ValueError(f"tile needs static sizes, got shape {shape}")
    interleaved = [d for r, n in zip(reps, shape) for d in (1, n)]
    broadcast = [d for r, n in zip(reps, shape) for d in (r, n)]
    x = broadcast_to(reshape(x, interleaved), broadcast)
    return reshape(x, tuple(r * n for r, n in zip(reps, shape)))


def repeat(x, repeats, axis=None):
    """Each element repeated `repeats` times along `axis` (of the flattened
    array if None); `repeats` an int, or one int per element (a gather)."""
    x = _weak_array(x)
    if axis is None:
        x, axis = ravel(x), 0
    axis = _axis_list(x, axis)[0]
    n = _static_size(x, axis, "repeat")
    if not isinstance(repeats, (int, np.integer)):
        counts = np.asarray(repeats)
        if counts.shape not in ((n,), (1,)) or counts.dtype.kind not in "iu":
            raise ValueError(f"repeat: repeats must be an int or {n} ints, "
                             f"got {repeats!r}")
        if counts.shape == (1,):
            repeats = int(counts[0])
        else:
            return take(x, np.repeat(np.arange(n), counts), axis)
    repeats = int(repeats)
    if repeats < 0:
        raise ValueError("repeat: repeats must not be negative")
    shape = _shape(x)
    expanded = expand_dims(x, axis + 1)
    wide = list(_shape(expanded))
    wide[axis + 1] = repeats
    out = list(shape)
    out[axis] = n * repeats
    return reshape(broadcast_to(expanded, wide), out)


def split(x, indices_or_sections, axis=0):
    """x cut along `axis` into equal sections (an int) or at indices."""
    x = _weak_array(x)
    axis = _axis_list(x, axis)[0]
    n = _static_size(x, axis, "split")
    if isinstance(indices_or_sections, (int, np.integer)):
        sections = int(indices_or_sections)
        if sections <= 0 or n % sections:
            raise ValueError("array split does not result in an equal "
                             f"division ({n} into {sections})")
        cuts = [n // sections * i for i in range(1, sections)]
    else:
        cuts = [int(i) for i in indices_or_sections]
    bounds = [0] + [builtins.min(builtins.max(c if c >= 0 else c + n, 0), n)
                    for c in cuts] + [n]
    return [_slice_axis(x, axis, a, builtins.max(a, b))
            for a, b in zip(bounds, bounds[1:])]


def _scan(combine, identity, name):
    def fn(x, axis=None, dtype=None):
        # Hillis-Steele: log2(n) steps, each combining with the values k
        # places before (identity before the start).
        x = _weak_array(x)
        if dtype is not None:  # NumPy's: x cast to dtype first
            x = astype(x, dtype)
        if axis is None:
            x, axis = ravel(x), 0
        axis = _axis_list(x, axis)[0]
        n = _static_size(x, axis, name)
        if _is_bool(x) or (not isinstance(x, Value) and
                           np.asarray(x).dtype == np.bool_):
            x = astype(x, np.int32)
        k = 1
        while k < n:
            widths = [(0, 0)] * len(_shape(x))
            widths[axis] = (k, 0)
            x = combine(x, pad(_slice_axis(x, axis, 0, n - k), widths,
                               identity))
            k *= 2
        return x
    fn.__name__ = name
    fn.__doc__ = (f"The running {name[3:]} along `axis` (of the flattened "
                  "array if None).")
    return fn


cumsum = _scan(add, 0.0, "cumsum")
cumprod = _scan(multiply, 1.0, "cumprod")


def any(x, axis=None, keepdims=False):
    """Whether any element along `axis` is nonzero (all axes if None;
    False over none)."""
    return greater(sum(astype(_as_bool(_weak_array(x)), np.int32), axis,
                       keepdims), 0)


def all(x, axis=None, keepdims=False):
    """Whether every element along `axis` is nonzero (all axes if None;
    True over none)."""
    return equal(sum(astype(logical_not(_weak_array(x)), np.int32), axis,
                     keepdims), 0)


def isnan(x):
    x = _weak_array(x)
    return not_equal(x, x)  # unordered: true only for NaN


def isinf(x):
    return equal(abs(_weak_array(x)), np.inf)


def isfinite(x):
    return less(abs(_weak_array(x)), np.inf)  # ordered: false for NaN


def _norm(x, ord=None, axis=None, keepdims=False):
    """Vector norms (ord None/2, 1, inf, -inf, p) over `axis`, and the
    Frobenius norm of a matrix (ord None or 'fro' over two axes)."""
    x = _weak_array(x)
    axes = _axis_list(x, axis)
    if ord in (None, "fro", 2) and (ord != 2 or len(axes) == 1) and \
            (ord != "fro" or len(axes) == 2):
        return sqrt(sum(multiply(x, x), tuple(axes), keepdims))
    if len(axes) != 1:
        raise ValueError(f"norm: ord={ord!r} over {len(axes)} axes is not "
                         "supported (vector norms, and 'fro' of matrices)")
    if ord == np.inf:
        return max(abs(x), tuple(axes), keepdims)
    if ord == -np.inf:
        return min(abs(x), tuple(axes), keepdims)
    if ord == 1:
        return sum(abs(x), tuple(axes), keepdims)
    if isinstance(ord, (int, float)) and ord > 0:
        return power(sum(power(abs(x), float(ord)), tuple(axes), keepdims),
                     1.0 / ord)
    raise ValueError(f"norm: ord={ord!r} is not supported")


class _Linalg:
    """tracec.numpy.linalg."""
    norm = staticmethod(_norm)


linalg = _Linalg()


def einsum(subscripts, *operands):
    """Einstein summation (np.einsum) without repeated indices in one
    operand: each pair of operands becomes one batched matmul between
    transposes and reshapes; indices of one operand only are summed
    first. Explicit ('ij,jk->ik') and implicit ('ij,jk') forms, '...'
    not supported."""
    if "..." in subscripts:
        raise ValueError("einsum: '...' is not supported")
    subscripts = subscripts.replace(" ", "")
    if "->" in subscripts:
        inputs, output = subscripts.split("->")
    else:
        inputs = subscripts
        letters = inputs.replace(",", "")
        output = "".join(sorted(c for c in set(letters)
                                if letters.count(c) == 1))
    inputs = inputs.split(",")
    if len(inputs) != len(operands):
        raise ValueError(f"einsum: {len(inputs)} operand subscripts for "
                         f"{len(operands)} operands")
    operands = [_weak_array(o) for o in operands]
    for spec, o in zip(inputs, operands):
        if len(set(spec)) != len(spec):
            raise ValueError(f"einsum: repeated index in {spec!r} (a "
                             "diagonal) is not supported")
        if len(spec) != len(_shape(o)):
            raise ValueError(f"einsum: {spec!r} names {len(spec)} dims of "
                             f"an operand with {len(_shape(o))}")
    # Sum away indices that appear nowhere else, then contract left to
    # right, keeping the indices later operands or the output need.
    for i, spec in enumerate(inputs):
        others = output + "".join(s for j, s in enumerate(inputs) if j != i)
        lonely = [a for a, c in enumerate(spec) if c not in others]
        if lonely:
            operands[i] = sum(operands[i], tuple(lonely))
            inputs[i] = "".join(c for c in spec if c in others)
    result, spec = operands[0], inputs[0]
    for k in range(1, len(operands)):
        needed = output + "".join(inputs[k + 1:])
        result, spec = _contract(result, spec, operands[k], inputs[k],
                                 needed)
    if sorted(spec) != sorted(output):
        raise ValueError(f"einsum: output {output!r} names indices not in "
                         "the operands")
    if spec != output:
        result = transpose(result, [spec.index(c) for c in output])
    return result


def _contract(a, sa, b, sb, needed):
    """a (indices sa) times b (sb), summed over the shared indices that
    `needed` does not name: (batch, free a, free b) indices."""
    batch = [c for c in sa if c in sb and c in needed]
    summed = [c for c in sa if c in sb and c not in needed]
    free_a = [c for c in sa if c not in sb]
    free_b = [c for c in sb if c not in sa]
    size = {}
    for spec, x in ((sa, a), (sb, b)):
        for c, d in zip(spec, _shape(x)):
            if d is None:
                raise ValueError("einsum needs static sizes")
            if size.setdefault(c, d) != d:
                raise ValueError(f"einsum: index {c!r} has sizes "
                                 f"{size[c]} and {d}")

    def count(cs):
        return int(np.prod([size[c] for c in cs]))

    a = transpose(a, [sa.index(c) for c in batch + free_a + summed]) \
        if batch + free_a + summed != list(sa) else a
    b = transpose(b, [sb.index(c) for c in batch + summed + free_b]) \
        if batch + summed + free_b != list(sb) else b
    a = reshape(a, (count(batch), count(free_a), count(summed)))
    b = reshape(b, (count(batch), count(summed), count(free_b)))
    product = matmul(a, b)
    spec = batch + free_a + free_b
    return reshape(product, tuple(size[c] for c in spec)), "".join(spec)


# ---------------------------------------------------------------------------
# Elementwise functions and array builders composed of the ops above
# ---------------------------------------------------------------------------

_LOG2, _LOG10 = float(np.log(2.0)), float(np.log(10.0))


def positive(x):
    return _weak_array(x)


def reciprocal(x):
    return divide(1.0, _weak_array(x))


def ceil(x):
    return negative(floor(negative(_weak_array(x))))


def trunc(x):
    x = _weak_array(x)
    return where(less(x, 0), ceil(x), floor(x))


fix = trunc


def exp2(x):
    return exp(multiply(_weak_array(x), _LOG2))


def expm1(x):
    """exp(x) - 1, without losing small x's digits: x(1 + x/2 + x^2/6) where
    |x| is under 1e-5 (the series' next term is below float64's epsilon
    there)."""
    x = _weak_array(x)
    small = multiply(x, add(1.0, multiply(x, add(0.5, divide(x, 6.0)))))
    return where(less(abs(x), 1e-5), small, subtract(exp(x), 1.0))


def log2(x):
    return divide(log(_weak_array(x)), _LOG2)


def log10(x):
    return divide(log(_weak_array(x)), _LOG10)


def logaddexp(x, y):
    """log(exp(x) + exp(y)) without overflow."""
    x, y = _binary_operands(x, y)
    big = maximum(x, y)
    # x == y: x + log(2) (NumPy's), also for infinities of one sign (whose
    # difference is NaN).
    return where(equal(x, y), add(x, float(np.log(2.0))),
                 add(big, log1p(exp(negative(abs(subtract(x, y)))))))


def sinh(x):
    x = _weak_array(x)
    return multiply(subtract(exp(x), exp(negative(x))), 0.5)


def cosh(x):
    x = _weak_array(x)
    return multiply(add(exp(x), exp(negative(x))), 0.5)


def tan(x):
    x = _weak_array(x)
    return divide(sin(x), cos(x))


def cbrt(x):
    x = _weak_array(x)
    return multiply(sign(x), power(abs(x), 1.0 / 3.0))


def hypot(x, y):
    x, y = _binary_operands(x, y)
    return sqrt(add(square(x), square(y)))


def heaviside(x, h0):
    x, h0 = _binary_operands(x, h0)
    return where(less(x, 0), 0.0, where(greater(x, 0), 1.0, h0))


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """NaN as `nan`, +-inf as the dtype's largest finite values (or the
    given ones)."""
    x = _weak_array(x)
    dtype = _dtype_of(x)
    if dtype in ("i1", "i32", "i64") or np.dtype(
            _core.numpy_dtype(dtype) if isinstance(dtype, str)
            else dtype).kind in "biu":
        return x
    finfo = np.finfo(_core.numpy_dtype(dtype) if isinstance(dtype, str)
                     else dtype)
    x = where(isnan(x), nan, x)
    x = where(equal(x, np.inf), finfo.max if posinf is None else posinf, x)
    return where(equal(x, -np.inf), finfo.min if neginf is None else neginf,
                 x)


def isclose(a, b, rtol=1e-5, atol=1e-8, equal_nan=False):
    a, b = _binary_operands(a, b)
    # Compared as floats (NumPy's: integers and bools too).
    dtype = result_type(a, b, 1.0)
    a, b = astype(a, dtype), astype(b, dtype)
    close = less_equal(abs(subtract(a, b)), add(atol, multiply(rtol, abs(b))))
    # An infinity is close only to itself (NumPy's).
    close = where(logical_and(isfinite(a), isfinite(b)), close, equal(a, b))
    if equal_nan:
        close = logical_or(close, logical_and(isnan(a), isnan(b)))
    return close


def allclose(a, b, rtol=1e-5, atol=1e-8, equal_nan=False):
    return all(isclose(a, b, rtol, atol, equal_nan))


def array_equal(a, b):
    if _shape(a) != _shape(b):
        return np.asarray(False)
    return all(equal(a, b))


def count_nonzero(x, axis=None, keepdims=False):
    return sum(astype(_as_bool(_weak_array(x)), np.int32), axis, keepdims)


def ptp(x, axis=None, keepdims=False):
    return subtract(max(x, axis, keepdims), min(x, axis, keepdims))


def average(x, axis=None, weights=None):
    if weights is None:
        return mean(x, axis)
    weights = broadcast_to(weights, _shape(x)) if _ndim(weights) == \
        _ndim(x) or axis is None else reshape(
            weights, tuple(-1 if a == _axis_list(x, axis)[0] else 1
                           for a in range(_ndim(x))))
    return divide(sum(multiply(x, weights), axis),
                  sum(broadcast_to(weights, _shape(x)), axis))


def _nan_as(identity, reduction):
    def fn(x, axis=None, keepdims=False):
        x = _weak_array(x)
        if not _is_float(x):
            return reduction(x, axis, keepdims)  # no NaN: keep the dtype
        return reduction(where(isnan(x), identity, x), axis, keepdims)
    fn.__name__ = "nan" + reduction.__name__
    fn.__doc__ = f"{reduction.__name__}, NaNs ignored."
    return fn


nansum = _with_dtype(_nan_as(0.0, sum), "nansum")
nanprod = _with_dtype(_nan_as(1.0, prod), "nanprod")
nanmax = _nan_as(-np.inf, max)
nanmin = _nan_as(np.inf, min)


def _is_float(x):
    return _core.dtype_name(_dtype_of(x)) in _core.FLOAT_DTYPES


def _nanmean(x, axis=None, keepdims=False):
    x = _weak_array(x)
    if not _is_float(x):  # no NaN: mean's dtype
        return mean(x, axis, keepdims)
    return divide(nansum(x, axis, keepdims),
                  count_nonzero(logical_not(isnan(x)), axis, keepdims))


nanmean = _with_dtype(_nanmean, "nanmean")


def diff(x, n=1, axis=-1):
    x = _weak_array(x)
    axis = _axis_list(x, axis)[0]
    for _ in range(n):
        size = _static_size(x, axis, "diff")
        x = subtract(_slice_axis(x, axis, 1, size),
                     _slice_axis(x, axis, 0, size - 1))
    return x


def swapaxes(x, axis1, axis2):
    x = _weak_array(x)
    perm = list(range(_ndim(x)))
    a, b = _axis_list(x, axis1)[0], _axis_list(x, axis2)[0]
    perm[a], perm[b] = perm[b], perm[a]
    return transpose(x, perm)


def moveaxis(x, source, destination):
    x = _weak_array(x)
    sources = _axis_list(x, source)
    ndim = _ndim(x)
    destinations = [d % ndim for d in _axes(destination)]
    if len(sources) != len(destinations):
        raise ValueError("moveaxis: source and destination must have the "
                         "same number of axes")
    rest = [a for a in range(ndim) if a not in sources]
    perm = [None] * ndim
    for s_, d in zip(sources, destinations):
        perm[d] = s_
    it = iter(rest)
    perm = [p if p is not None else next(it) for p in perm]
    return transpose(x, perm)


def atleast_1d(x):
    x = _weak_array(x)
    return reshape(x, (1,)) if _ndim(x) == 0 else x


def atleast_2d(x):
    x = atleast_1d(x)
    return expand_dims(x, 0) if _ndim(x) == 1 else x


def atleast_3d(x):
    x = _weak_array(x)
    if _ndim(x) == 0:
        return reshape(x, (1, 1, 1))
    if _ndim(x) == 1:
        return reshape(x, (1, -1, 1))
    return expand_dims(x, -1) if _ndim(x) == 2 else x


def hstack(arrays):
    arrays = [atleast_1d(a) for a in arrays]
    return concatenate(arrays, 0 if _ndim(arrays[0]) == 1 else 1)


def vstack(arrays):
    return concatenate([atleast_2d(a) for a in arrays], 0)


row_stack = vstack


def dstack(arrays):
    return concatenate([atleast_3d(a) for a in arrays], 2)


def column_stack(arrays):
    return concatenate([reshape(a, (-1, 1)) if _ndim(a) == 1 else a
                        for a in arrays], 1)


def outer(a, b):
    return multiply(reshape(a, (-1, 1)), reshape(b, (1, -1)))


def inner(a, b):
    if _ndim(a) == 0 or _ndim(b) == 0:
        return multiply(a, b)  # a Python number stays weak
    a, b = _weak_array(a), _weak_array(b)
    return tensordot(a, b, ([-1], [-1]))


def vdot(a, b):
    return sum(multiply(ravel(a), ravel(b)))


def tensordot(a, b, axes=2):
    """Sums products over `axes` (an int: a's last and b's first; or two
    lists), as one matmul between transposes and reshapes (einsum's)."""
    a, b = _weak_array(a), _weak_array(b)
    na, nb = _ndim(a), _ndim(b)
    if isinstance(axes, (int, np.integer)):
        axes = int(axes)
        if axes < 0 or axes > builtins.min(na, nb):
            raise ValueError(f"tensordot: {axes} axes exceed the operands' "
                             f"ranks {na} and {nb}")
        axes_a, axes_b = list(range(na - axes, na)), list(range(axes))
    else:
        if isinstance(axes, str) or not isinstance(axes, (tuple, list)) \
                or len(axes) != 2:
            raise TypeError("tensordot: axes must be an int or a pair of "
                            f"ints or of sequences of ints, got {axes!r}")
        axes_a, axes_b = ([axes[0]] if isinstance(axes[0], (int, np.integer))
                          else list(axes[0]),
                          [axes[1]] if isinstance(axes[1], (int, np.integer))
                          else list(axes[1]))
        if not builtins.all(isinstance(x, (int, np.integer))
                   for x in axes_a + axes_b):
            raise TypeError("tensordot: axes must be an int or a pair of "
                            f"ints or of sequences of ints, got {axes!r}")
        if len(axes_a) != len(axes_b):
            raise ValueError("tensordot: the two lists of axes differ in "
                             f"length: {len(axes_a)} and {len(axes_b)}")
        for x, n in [(x, na) for x in axes_a] + [(x, nb) for x in axes_b]:
            if not -n <= x < n:
                raise ValueError(f"tensordot: axis {x} is out of bounds "
                                 f"for an operand of rank {n}")
    axes_a = [x % na for x in axes_a]
    axes_b = [x % nb for x in axes_b]
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    sa = list(letters[:na])
    sb = list(letters[na:na + nb])
    for i, j in zip(axes_a, axes_b):
        sb[j] = sa[i]
    out = [c for c in sa if c not in [sa[i] for i in axes_a]] + \
        [c for k, c in enumerate(sb) if k not in axes_b]
    return einsum(f"{''.join(sa)},{''.join(sb)}->{''.join(out)}", a, b)


def full_like(x, fill_value, dtype=None):
    return full(_shape(x), fill_value,
                dtype if dtype is not None else _dtype_of(x))


def empty(shape, dtype=np.float32):
    """zeros: tracec has no uninitialized arrays."""
    return zeros(shape, dtype)


def empty_like(x, dtype=None):
    return full_like(x, 0, dtype)


def eye(n, m=None, k=0, dtype=np.float32):
    m = n if m is None else m
    rows = reshape(arange(n), (n, 1))
    cols = reshape(arange(m), (1, m))
    return astype(equal(add(rows, k), cols), dtype)


def identity(n, dtype=np.float32):
    return eye(n, dtype=dtype)


def tri(n, M=None, k=0, dtype=np.float32):
    m = n if M is None else M
    return astype(greater_equal(add(reshape(arange(n), (n, 1)), k),
                                reshape(arange(m), (1, m))), dtype)


def tril(x, k=0):
    x = _weak_array(x)
    n, m = _shape(x)[-2:]
    return where(tri(n, m, k, np.bool_), x, zeros_like(x))


def triu(x, k=0):
    x = _weak_array(x)
    n, m = _shape(x)[-2:]
    return where(tri(n, m, k - 1, np.bool_), zeros_like(x), x)


def diagonal(x, offset=0):
    """The k-th diagonal of a matrix (a gather of its flat positions)."""
    x = _weak_array(x)
    n, m = _shape(x)
    rows = np.arange(builtins.max(0, -offset), n)
    rows = rows[rows + offset < m]
    return take(ravel(x), rows * m + rows + offset, axis=0)


def diag(v, k=0):
    """The k-th diagonal of a matrix, or a matrix with vector v on it."""
    v = _weak_array(v)
    if _ndim(v) == 2:
        return diagonal(v, k)
    if _ndim(v) != 1:
        raise ValueError("diag takes a 1-D or 2-D array")
    length = _static_size(v, 0, "diag")
    n = length + builtins.abs(k)
    rows = np.arange(length) + builtins.max(0, -k)
    cols = np.arange(length) + builtins.max(0, k)
    flat = scatter_add(zeros((n * n,), _dtype_of(v)), rows * n + cols, v)
    return reshape(flat, (n, n))


def trace(x, offset=0):
    return sum(diagonal(x, offset))


def linspace(start, stop, num=50, endpoint=True, dtype=None):
    """num evenly spaced numbers from start to stop (float32 unless dtype
    says otherwise)."""
    num = int(num)
    if num < 0:
        raise ValueError(f"linspace: num must be non-negative, got {num}")
    divisor = (num - 1) if endpoint else num
    step = (stop - start) / divisor if divisor > 0 else 0.0
    values = add(multiply(arange(num, dtype=np.float64), step), start)
    if endpoint and num > 1:
        values = where(equal(arange(num), num - 1), float(stop), values)
    return astype(values, dtype if dtype is not None else np.float32)


def meshgrid(*xs, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError("meshgrid: indexing must be 'xy' or 'ij'")
    xs = [ravel(x) for x in xs]
    shape = [_static_size(x, 0, "meshgrid") for x in xs]
    if indexing == "xy" and len(xs) > 1:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, x in enumerate(xs):
        axis = i
        if indexing == "xy" and len(xs) > 1 and i < 2:
            axis = 1 - i
        view = [1] * len(xs)
        view[axis] = -1
        out.append(broadcast_to(reshape(x, view), shape))
    return out


def select(condlist, choicelist, default=0):
    """The first choice whose condition holds, elementwise (np.select)."""
    if len(condlist) != len(choicelist):
        raise ValueError("select: condlist and choicelist differ in length")
    result = default
    for c, v in reversed(list(zip(condlist, choicelist))):
        result = where(c, v, result)
    return result


def fliplr(x):
    return flip(x, 1)


def flipud(x):
    return flip(x, 0)


def rot90(x, k=1, axes=(0, 1)):
    x = _weak_array(x)
    k %= 4
    a, b = axes
    for _ in range(k):
        x = swapaxes(flip(x, b), a, b)
    return x


def shape(x):
    return _shape(x)


def ndim(x):
    return _ndim(x)


def size(x, axis=None):
    return _size(x, axis)


def result_type(*arrays_and_dtypes):
    names = []
    for a in arrays_and_dtypes:
        if isinstance(a, Value):
            names.append(a.dtype)
        elif isinstance(a, (np.ndarray, np.generic)):
            names.append(_core.dtype_name(a.dtype))
        elif isinstance(a, bool):
            names.append("i1")
        elif isinstance(a, int):
            names.append("i32")
        elif isinstance(a, float):
            names.append("f32")
        else:
            names.append(_core.dtype_name(a))
    result = names[0]
    for n in names[1:]:
        result = _C.promote_types(result, n)
    return "bf16" if result == "bf16" else _core.numpy_dtype(result)


alltrue, sometrue = all, any
product, cumproduct = prod, cumprod
fabs = abs


def array(x, dtype=None):
    return asarray(x, dtype)


def deg2rad(x):
    return multiply(_weak_array(x), float(np.pi / 180))


def rad2deg(x):
    return multiply(_weak_array(x), float(180 / np.pi))


radians, degrees = deg2rad, rad2deg


def isposinf(x):
    return equal(_weak_array(x), np.inf)


def isneginf(x):
    return equal(_weak_array(x), -np.inf)


def logaddexp2(x, y):
    return divide(logaddexp(multiply(x, _LOG2), multiply(y, _LOG2)), _LOG2)


def float_power(x, y):
    """x ** y in float64 (NumPy's float_power)."""
    return power(astype(x, np.float64), astype(y, np.float64))


def fmax(x, y):
    """The maximum, a NaN losing to a number (NumPy's fmax)."""
    x, y = _binary_operands(x, y)
    return where(isnan(x), y, where(isnan(y), x, maximum(x, y)))


def fmin(x, y):
    x, y = _binary_operands(x, y)
    return where(isnan(x), y, where(isnan(y), x, minimum(x, y)))


def sinc(x):
    """sin(pi x) / (pi x), 1 at 0."""
    x = _weak_array(x)
    safe = where(equal(x, 0), 1.0, multiply(x, float(np.pi)))
    return where(equal(x, 0), 1.0, divide(sin(safe), safe))


def round(x, decimals=0):  # noqa: A001 (NumPy's name)
    """Rounded to `decimals` places, halves to even (NumPy's round)."""
    x = _weak_array(x)
    if not _is_float(x) and decimals >= 0:
        return x  # integers are rounded already (NumPy keeps their dtype)
    scale = 10.0 ** decimals
    y = multiply(x, scale) if decimals else x
    low = floor(y)
    fraction = subtract(y, low)
    even = equal(remainder(low, 2.0), 0.0)
    up = logical_or(greater(fraction, 0.5),
                    logical_and(equal(fraction, 0.5), logical_not(even)))
    rounded = where(up, add(low, 1.0), low)
    return divide(rounded, scale) if decimals else rounded


around = round


def rint(x):
    """Rounded to the nearest integer, halves to even; integers become
    floats (NumPy's rint; tracec's default float, float32)."""
    x = _weak_array(x)
    return round(x) if _is_float(x) else astype(x, np.float32)


def array_split(x, sections, axis=0):
    """x cut into `sections` nearly equal parts (the first ones one
    longer), or at indices."""
    x = _weak_array(x)
    if not isinstance(sections, (int, np.integer)):
        return split(x, sections, axis)
    axis = _axis_list(x, axis)[0]
    n = _static_size(x, axis, "array_split")
    size, extra = builtins.divmod(n, int(sections))
    cuts, at = [], 0
    for k in range(int(sections) - 1):
        at += size + (1 if k < extra else 0)
        cuts.append(at)
    return split(x, cuts, axis)


def hsplit(x, sections):
    return split(x, sections, 1 if _ndim(x) > 1 else 0)


def vsplit(x, sections):
    return split(x, sections, 0)


def dsplit(x, sections):
    return split(x, sections, 2)


def broadcast_arrays(*arrays):
    shape = np.broadcast_shapes(*[_shape(a) for a in arrays])
    return [broadcast_to(a, shape) for a in arrays]


def ediff1d(x, to_end=None, to_begin=None):
    """The differences of the flattened x, `to_begin` before and `to_end`
    after them (flattened, in x's dtype)."""
    x = _weak_array(x)
    parts = [diff(ravel(x))]
    if to_begin is not None:
        parts.insert(0, astype(ravel(to_begin), _dtype_of(x)))
    if to_end is not None:
        parts.append(astype(ravel(to_end), _dtype_of(x)))
    return concatenate(parts) if len(parts) > 1 else parts[0]


def kron(a, b):
    """The Kronecker product of two arrays."""
    a, b = _weak_array(a), _weak_array(b)
    # The lower-rank operand gets leading dims of 1 (NumPy's).
    rank = builtins.max(_ndim(a), _ndim(b))
    a = reshape(a, (1,) * (rank - _ndim(a)) + _shape(a))
    b = reshape(b, (1,) * (rank - _ndim(b)) + _shape(b))
    sa, sb = _shape(a), _shape(b)
    interleaved_a = [d for n in sa for d in (n, 1)]
    interleaved_b = [d for n in sb for d in (1, n)]
    product = multiply(reshape(a, interleaved_a), reshape(b, interleaved_b))
    return reshape(product, tuple(x * y for x, y in zip(sa, sb)))


def cross(a, b, axis=-1):
    """The cross product of 3-vectors along `axis`."""
    a, b = broadcast_arrays(_weak_array(a), _weak_array(b))
    axis = _axis_list(a, axis)[0]
    if _shape(a)[axis] != 3:
        raise ValueError("cross: tracec takes 3-vectors")
    x = [_slice_axis(a, axis, i, i + 1) for i in range(3)]
    y = [_slice_axis(b, axis, i, i + 1) for i in range(3)]
    return concatenate([subtract(multiply(x[1], y[2]), multiply(x[2], y[1])),
                        subtract(multiply(x[2], y[0]), multiply(x[0], y[2])),
                        subtract(multiply(x[0], y[1]), multiply(x[1], y[0]))],
                       axis)


def nanvar(x, axis=None, keepdims=False):
    x = _weak_array(x)
    if not _is_float(x):  # no NaN: var's dtype
        return var(x, axis, keepdims)
    centered = subtract(x, nanmean(x, axis, keepdims=True))
    return nanmean(multiply(centered, centered), axis, keepdims)


def nanstd(x, axis=None, keepdims=False):
    return sqrt(nanvar(x, axis, keepdims))


def nancumsum(x, axis=None):
    x = _weak_array(x)
    return cumsum(where(isnan(x), 0.0, x), axis)


def nancumprod(x, axis=None):
    x = _weak_array(x)
    return cumprod(where(isnan(x), 1.0, x), axis)


def rollaxis(x, axis, start=0):
    x = _weak_array(x)
    ndim = _ndim(x)
    axis = _axis_list(x, axis)[0]
    start = start + ndim if start < 0 else start
    if start > axis:
        start -= 1
    return moveaxis(x, axis, start)


def take_along_axis(x, indices, axis):
    """x's elements at `indices` along `axis`, the other axes matched
    (np.take_along_axis): a gather of flat positions, computed from the
    indices (wrapped where negative) and the other axes' positions."""
    x = _weak_array(x)
    if axis is None:  # of the flattened array (NumPy's)
        x, axis = ravel(x), 0
    axis = _axis_list(x, axis)[0]
    shape = _shape(x)
    if None in shape:
        raise ValueError("take_along_axis needs a static shape")
    if isinstance(indices, Value):
        idx = where(less(indices, 0), add(indices, shape[axis]), indices)
    else:
        idx = _concrete_indices(indices, shape[axis], axis)
    out_shape = np.broadcast_shapes(
        tuple(d if i != axis else _shape(idx)[axis]
              for i, d in enumerate(shape)), _shape(idx))
    # x broadcast against the indices along the other axes (NumPy's).
    wide = tuple(d if i == axis else out_shape[i] for i, d in enumerate(shape))
    if wide != shape:
        x, shape = broadcast_to(x, wide), wide
    strides = np.cumprod((1,) + shape[::-1])[:-1][::-1]
    flat = multiply(astype(broadcast_to(idx, out_shape), np.int64),
                    int(strides[axis]))
    for i, d in enumerate(out_shape):
        if i != axis:
            view = [1] * len(out_shape)
            view[i] = d
            flat = add(flat, np.arange(d, dtype=np.int64).reshape(view)
                       * int(strides[i]))
    return reshape(take(ravel(x), ravel(flat), axis=0), out_shape)


def _sort(x, axis, descending):
    return _C.sort([x], axis, descending)[0]


def _argsort(x, axis, descending, index_dtype):
    shape = _shape(x)
    if None in shape:
        raise ValueError("argsort needs a static shape")
    iota = _C.iota(list(shape), index_dtype, axis % len(shape))
    return _C.sort([x, iota], axis, descending)[1]


def _sort_operand(a, axis, what):
    a = _weak_array(a)
    if axis is None:
        return ravel(a), 0
    if _ndim(a) == 0:
        raise ValueError(f"{what} of a scalar needs axis=None")
    return a, _axis_list(a, axis)[0]


def sort(a, axis=-1, kind=None, order=None, *, stable=True, descending=False):
    """np.sort (stable, NaN last; axis=None sorts the flattened array);
    `descending` as jax.numpy's. Gradients go back to where each element
    came from."""
    if order is not None:
        raise NotImplementedError("sort: `order` (structured arrays) is not "
                                  "supported")
    a, axis = _sort_operand(a, axis, "sort")
    return apply(_sort, (a,), axis, bool(descending), name="sort")


def msort(a):
    """np.msort: sort along the first axis (np.sort(a, axis=0))."""
    return sort(a, axis=0)


def argsort(a, axis=-1, kind=None, order=None, *, stable=True,
            descending=False):
    """np.argsort: the (stable) indices that sort `a` along `axis`, int64 as
    NumPy's."""
    if order is not None:
        raise NotImplementedError("argsort: `order` (structured arrays) is "
                                  "not supported")
    a, axis = _sort_operand(a, axis, "argsort")
    return apply(_argsort, (a,), axis, bool(descending), "i64",
                 name="argsort")


_QUANTILE_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")


def quantile(a, q, axis=None, out=None, overwrite_input=False,
             method="linear", keepdims=False, *, interpolation=None):
    """np.quantile between the sorted values by NumPy's `method` (linear,
    lower, higher, nearest or midpoint; `interpolation=` its older name);
    `q` a Python number or a sequence of them."""
    if out is not None:
        raise NotImplementedError("quantile: `out` is not supported")
    if interpolation is not None:
        method = interpolation
    if method not in _QUANTILE_METHODS:
        raise ValueError(f"quantile: method must be one of "
                         f"{_QUANTILE_METHODS}, got {method!r}")
    a = _weak_array(a)
    qs = np.asarray(q, np.float64)
    if np.any((qs < 0) | (qs > 1)):
        raise ValueError(f"quantiles must be in [0, 1], got {q}")
    if axis is None:
        data, axis_ = ravel(a), 0
    else:
        data, axis_ = a, _axis_list(a, axis)[0]
    n = _shape(data)[axis_]
    if n is None:
        raise ValueError("quantile needs a static size along its axis")
    if n == 0:
        raise ValueError("quantile of an empty axis")
    ordered = sort(data, axis=axis_)
    results = []
    for qv in qs.reshape(-1):
        position = qv * (n - 1)
        below = int(np.floor(position))
        above = builtins.min(below + 1, n - 1)
        fraction = float(position - below)  # a weak float (as JAX's)
        if method == "lower":
            fraction = 0.0
        elif method == "higher":
            below, fraction = (above, 0.0) if fraction > 0 else (below, 0.0)
        elif method == "nearest":
            # NumPy rounds the position half to even.
            below, fraction = int(np.around(position)), 0.0
        elif method == "midpoint" and fraction > 0:
            fraction = 0.5
        low = take(ordered, below, axis=axis_)
        if method in ("linear", "midpoint"):
            # Inexact as NumPy's (integers: tracec's default float); * 1.0
            # keeps infinities and -0.0 where no interpolation is needed.
            value = multiply(low, 1.0) if fraction == 0 else add(
                low, multiply(subtract(take(ordered, above, axis=axis_),
                                       low), fraction))
        else:
            value = low
        if keepdims:
            value = expand_dims(value, axis_) if axis is not None else \
                reshape(value, (1,) * _ndim(a))
        results.append(value)
    if qs.ndim == 0:
        return results[0]
    return reshape(stack(results), qs.shape + _shape(results[0]))


def percentile(a, q, axis=None, out=None, overwrite_input=False,
               method="linear", keepdims=False, *, interpolation=None):
    """np.percentile: quantile at q / 100."""
    return quantile(a, np.asarray(q, np.float64) / 100.0, axis, out,
                    overwrite_input, method, keepdims,
                    interpolation=interpolation)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """np.median: the mean of the middle sorted values."""
    return quantile(a, 0.5, axis, out, overwrite_input, keepdims=keepdims)


def searchsorted(a, v, side="left"):
    """np.searchsorted of a sorted 1-D `a`: the count of elements below each
    of `v` (at most `v` with side="right"), int64."""
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right', got {side!r}")
    a, v = _weak_array(a), _weak_array(v)
    if _ndim(a) != 1:
        raise ValueError("searchsorted needs a 1-D sorted array")
    below = (less if side == "left" else less_equal)(
        a, expand_dims(v, -1))
    return sum(astype(below, np.int64), axis=-1)


def trapz(y, x=None, dx=1.0, axis=-1):
    y = _weak_array(y)
    axis = _axis_list(y, axis)[0]
    n = _static_size(y, axis, "trapz")
    pairs = add(_slice_axis(y, axis, 1, n), _slice_axis(y, axis, 0, n - 1))
    widths = dx if x is None else diff(x, axis=-1 if _ndim(x) == 1 else axis)
    if x is not None and _ndim(x) == 1 and _ndim(y) > 1:
        view = [1] * _ndim(y)
        view[axis] = -1
        widths = reshape(widths, view)
    return multiply(sum(multiply(pairs, widths), axis), 0.5)


def polyval(p, x):
    """p[0] x^(n-1) + ... + p[n-1], by Horner's rule."""
    p = _weak_array(p)
    n = _static_size(p, 0, "polyval")
    result = zeros_like(x) if isinstance(x, Value) else \
        np.zeros_like(np.asarray(x, np.result_type(x, 0.0)))
    for i in range(n):
        result = add(multiply(result, x), p[i])
    return result


def vander(x, N=None, increasing=False):
    x = _weak_array(x)
    n = _static_size(x, 0, "vander") if N is None else int(N)
    powers = np.arange(n) if increasing else np.arange(n - 1, -1, -1)
    return power(reshape(x, (-1, 1)), reshape(astype(powers, _dtype_of(x)),
                                              (1, n)))


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None):
    return astype(power(base, linspace(start, stop, num, endpoint,
                                       np.float64)),
                  dtype if dtype is not None else np.float32)


def geomspace(start, stop, num=50, endpoint=True, dtype=None):
    if start == 0 or stop == 0 or (start < 0) != (stop < 0):
        raise ValueError("geomspace: start and stop must be nonzero and of "
                         "one sign")
    sign_ = -1.0 if start < 0 else 1.0
    values = logspace(np.log10(builtins.abs(start)),
                      np.log10(builtins.abs(stop)), num, endpoint,
                      dtype=np.float64)
    values = multiply(values, sign_)
    if num > 0:  # the ends exactly, as NumPy's
        values = where(equal(arange(num), 0), float(start), values)
        if endpoint:
            values = where(equal(arange(num), num - 1), float(stop), values)
    return astype(values, dtype if dtype is not None else np.float32)


def tril_indices(n, k=0, m=None):
    return np.tril_indices(n, k, m)  # static: NumPy's own


def triu_indices(n, k=0, m=None):
    return np.triu_indices(n, k, m)


def diag_indices(n, ndim=2):
    return np.diag_indices(n, ndim)


def indices(dimensions, dtype=np.int32):
    return np.indices(dimensions, dtype)


def diagflat(v, k=0):
    return diag(ravel(v), k)


# ---------------------------------------------------------------------------
# x.at[index].set(v) / .add(v) / ... : JAX's functional index updates
# ---------------------------------------------------------------------------


class _IndexUpdates:
    """x.at: x.at[index] gives the updates of x at index (JAX's)."""

    def __init__(self, x):
        self._x = x

    def __getitem__(self, index):
        return _IndexUpdate(self._x, index)


class _IndexUpdate:
    """The functional updates of x at one index: new arrays, x unchanged.
    A static index (ints, slices, None, ..., integer arrays: what x[index]
    takes) is resolved to the flat positions it names, with NumPy, so
    repeated positions are known: `set` keeps the last value for each (as
    NumPy's assignment), `add` adds them all (as np.add.at), `multiply`
    multiplies them all. A traced index is a scalar along the first axis
    (every update), or an integer array along it (`add` and `get`)."""

    def __init__(self, x, index):
        self._x, self._index = x, index

    def get(self):
        positions = self._static_positions()
        if positions is None:
            return _getitem(self._x, self._index)
        return reshape(take(ravel(self._x), positions.ravel(), axis=0),
                       positions.shape)

    def _static_positions(self):
        """The flat positions a static index names (NumPy resolves it), or
        None for a traced index."""
        index = self._index
        if builtins.any(isinstance(i, Value) for i in (
                index if isinstance(index, tuple) else (index,))):
            return None
        shape = _shape(self._x)
        if None in shape:
            raise ValueError(f"x.at[...] needs a static shape, got {shape}")
        return np.arange(int(np.prod(shape)), dtype=np.int64).reshape(
            shape)[index]

    def set(self, values):
        return self._update(values, "set")

    def add(self, values):
        return self._update(values, "add")

    def subtract(self, values):
        return self._update(negative(values), "add")

    def multiply(self, values):
        return self._update(values, "multiply")

    def divide(self, values):
        return self._update(divide(1.0, values), "multiply")

    def min(self, values):
        return self._update(values, "min")

    def max(self, values):
        return self._update(values, "max")

    def _update(self, values, how):
        x, index = self._x, self._index
        positions = self._static_positions()
        if positions is None:
            return _traced_update(x, index, values, how)
        shape = _shape(x)
        values = broadcast_to(values, positions.shape)
        flat_positions = positions.ravel()
        if not flat_positions.size:
            return x
        flat_values = ravel(values)
        flat = ravel(x)
        if how == "add":
            return reshape(scatter_add(flat, flat_positions,
                                       astype(flat_values, _dtype_of(x))),
                           shape)
        # The last occurrence of each position (NumPy's assignment order).
        reversed_positions = flat_positions[::-1]
        unique, first = np.unique(reversed_positions, return_index=True)
        last = len(flat_positions) - 1 - first
        if how == "multiply" and len(unique) != len(flat_positions):
            factors = _product_by_position(flat_values, flat_positions,
                                           unique)
        else:
            factors = take(flat_values, last, axis=0)
        mask = np.zeros(int(np.prod(shape)), bool)
        mask[unique] = True
        factors = astype(factors, _dtype_of(x))
        current = take(flat, unique, axis=0)
        combined = {"set": lambda: factors,
                    "multiply": lambda: multiply(current, factors),
                    "min": lambda: minimum(current, factors),
                    "max": lambda: maximum(current, factors)}[how]()
        spread = scatter_add(zeros_like(flat), unique, combined)
        return reshape(where(mask, spread, flat), shape)


def _product_by_position(values, positions, unique):
    """For each unique position, the product of the values at it."""
    product = None
    slots = {int(p): [] for p in unique}
    for k, p in enumerate(positions):
        slots[int(p)].append(k)
    depth = builtins.max(len(v) for v in slots.values())
    for d in range(depth):
        # The d-th value of each position, 1 where it has fewer.
        picks = np.array([slots[int(p)][d] if d < len(slots[int(p)]) else -1
                          for p in unique])
        taken = take(values, np.maximum(picks, 0), axis=0)
        taken = where(picks >= 0, taken, 1.0)
        product = taken if product is None else multiply(product, taken)
    return product


def _dtype_of(x):
    return x.dtype if isinstance(x, Value) else np.asarray(x).dtype


def _traced_update(x, index, values, how):
    if isinstance(index, tuple):
        if len(index) != 1:
            raise TypeError("x.at[...] with a traced index takes it alone "
                            "(along the first axis)")
        index = index[0]
    if index.ndim == 0:
        # One row, chosen at run time: a mask along the first axis.
        n = _shape(x)[0]
        rows = arange(n) if n is not None else None
        if rows is None:
            raise ValueError("x.at[i] with a traced i needs a static first "
                             "dim")
        wrapped = where(less(index, 0), add(index, n), index)
        selected = reshape(equal(rows, astype(wrapped, np.int32)),
                           (n,) + (1,) * (len(_shape(x)) - 1))
        current = x
        values = astype(values, _dtype_of(x))
        new = {"set": lambda: values,
               "add": lambda: add(current, values),
               "multiply": lambda: multiply(current, values),
               "min": lambda: minimum(current, values),
               "max": lambda: maximum(current, values)}[how]()
        return where(selected, broadcast_to(new, _shape(x)), x)
    if how != "add":
        raise TypeError(f"x.at[indices].{how} with a traced array of "
                        "indices: repeated indices would need an order; "
                        "use .add, or a static (NumPy) index")
    rows = _shape(index) + _shape(x)[1:]
    return scatter_add(x, index, astype(broadcast_to(values, rows),
                                        _dtype_of(x)))


# ---------------------------------------------------------------------------
# Sources
# ---------------------------------------------------------------------------


def _full(shape, value, dtype):
    return _C.full(list(shape), value, dtype)


def _full_shape(shape):
    """A shape as NumPy takes it: an integer or a sequence of integers (a
    float is a TypeError, a negative size a ValueError)."""
    try:
        if isinstance(shape, Value):
            raise TypeError
        dims = (shape,) if np.ndim(shape) == 0 else tuple(shape)
        dims = tuple(operator.index(d) for d in dims)
    except TypeError:
        raise TypeError(f"a shape must be integers known while tracing, "
                        f"got {shape!r}") from None
    if builtins.any(d < 0 for d in dims):
        raise ValueError(f"negative dimensions are not allowed: {dims}")
    return dims


def full(shape, fill_value, dtype=np.float32):
    # an int, a 0-d integer array or a sequence of them (NumPy's)
    shape = _full_shape(shape)
    return apply(_full, (), tuple(shape), float(fill_value),
                 _core.dtype_name(dtype), name="full")


def zeros(shape, dtype=np.float32):
    return full(shape, 0.0, dtype)


def ones(shape, dtype=np.float32):
    return full(shape, 1.0, dtype)


def _array_operand(x):
    """A Python number as NumPy's array of it (as np.zeros_like sees it)."""
    return np.asarray(x) if isinstance(x, _core._SCALARS) else x


def zeros_like(x):
    return apply(_C.zeros_like, (_array_operand(x),), name="zeros_like")


def ones_like(x):
    return apply(_C.ones_like, (_array_operand(x),), name="ones_like")


def _iota(shape, dtype, axis):
    return _C.iota(list(shape), dtype, axis)


def arange(start, stop=None, step=None, dtype=None):
    """np.arange: start, start + step, ... below stop (above it for a
    negative step). Its arguments are Python numbers (the length must be
    known when tracing). The dtype, unless given, is int32 if all are
    integers, else float32 (JAX's defaults; NumPy's are int64 and
    float64)."""
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    for name, v in (("start", start), ("stop", stop), ("step", step)):
        if isinstance(v, Value) or not isinstance(
                v, (int, float, np.integer, np.floating)):
            raise TypeError(f"arange's {name} must be a Python number (the "
                            f"result's length is fixed when tracing), got "
                            f"{_describe(v)}")
    start, stop, step = (v.item() if isinstance(v, np.generic) else v
                         for v in (start, stop, step))
    if step == 0:
        raise ValueError("arange's step cannot be zero")
    requested = dtype
    if dtype is None:
        integral = builtins.all(isinstance(v, (int, np.integer))
                                for v in (start, stop, step))
        dtype = np.int32 if integral else np.float32
    n = builtins.max(0, int(np.ceil((stop - start) / step)))
    values = apply(_iota, (), (n,), _core.dtype_name(dtype), 0, name="iota")
    if step != 1:
        values = multiply(values, step)
    if start != 0:
        values = add(values, start)
    if requested is not None:
        values = astype(values, dtype)
    return values


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
    cls.__floordiv__ = floor_divide
    cls.__rfloordiv__ = _reflect(floor_divide)
    cls.__mod__, cls.__rmod__ = remainder, _reflect(remainder)
    cls.__divmod__, cls.__rdivmod__ = divmod, _reflect(divmod)
    cls.__and__, cls.__rand__ = _bitwise(logical_and), _bitwise(logical_and)
    cls.__or__, cls.__ror__ = _bitwise(logical_or), _bitwise(logical_or)
    cls.__xor__, cls.__rxor__ = _bitwise(logical_xor), _bitwise(logical_xor)
    cls.__invert__ = _invert
    cls.__pow__, cls.__rpow__ = power, _reflect(power)
    cls.__matmul__, cls.__rmatmul__ = matmul, _reflect(matmul)
    cls.__lt__, cls.__le__ = less, less_equal
    cls.__gt__, cls.__ge__ = greater, greater_equal
    # Elementwise, as NumPy's and JAX's (identity made `x == 0` False and
    # took the wrong branch silently); hashing stays by identity.
    cls.__eq__, cls.__ne__ = _comparison(equal), _comparison(not_equal)
    cls.__neg__, cls.__pos__ = negative, positive
    cls.__abs__ = abs
    cls.__getitem__ = _getitem
    cls.T = property(lambda self: transpose(self))
    cls.at = property(_IndexUpdates)
    cls.reshape = lambda self, *shape: reshape(
        self, shape[0] if len(shape) == 1 else shape)
    cls.astype = astype
    cls.sum = lambda self, axis=None, keepdims=False: sum(self, axis, keepdims)
    cls.mean = lambda self, axis=None, keepdims=False: mean(self, axis, keepdims)
    cls.ravel = lambda self: ravel(self)
    cls.flatten = lambda self: ravel(self)
    cls.trace = lambda self, offset=0: trace(self, offset)
    cls.__repr__ = lambda self: f"<tracec.Value {self.type_string()}>"
    cls.__bool__ = _no_bool
    cls.__len__ = lambda self: self.shape[0]
    cls.__iter__ = _iter
    cls.__hash__ = object.__hash__


def _comparison(fn):
    """== or != with an array or a number: elementwise; with anything else
    (None, a string) NotImplemented, so Python compares identities (JAX's
    `x == None` is False too)."""
    def operator(x, y):
        if not isinstance(y, (Value, np.ndarray, np.generic, bool, int,
                              float, _core.VariableBase)) and \
                not _core.is_foreign_array(y):
            return NotImplemented
        return fn(x, y)
    return operator


def _bitwise(logical):
    """&, | and ^ on booleans (logical_and/or/xor; commutative, so one
    function serves both sides); integers have no bitwise ops in tracec."""
    def operator(x, y):
        for v in (x, y):
            if not _is_bool(v) and not (
                    isinstance(v, np.ndarray) and v.dtype == np.bool_):
                raise TypeError(
                    f"&, | and ^ are defined on booleans here; got "
                    f"{_describe(v)} (tracec has no bitwise ops on integers)")
        return logical(x, y)
    return operator


def _invert(x):
    if isinstance(x, Value) and x.dtype in ("i32", "i64"):
        # Two's complement: ~x is -x - 1 (NumPy's bitwise not).
        return subtract(negative(x), 1)
    if not _is_bool(x):
        raise TypeError(f"~ is defined on booleans and integers here; got "
                        f"{_describe(x)}")
    return logical_not(x)


def _describe(v):
    if isinstance(v, Value):
        return f"a {v.type_string()}"
    return f"a {type(v).__name__}"


def _no_bool(self):
    raise TypeError(
        f"the truth value of a symbolic {self.type_string()} is not known while "
        "tracing: use tracec.cond / tracec.numpy.where instead of `if`, or "
        "pass the value as a non-array (static) argument")


def _iter(self):
    # As JAX: the rows of a static first axis, one slice each (`k1, k2 =
    # split(key)`); a loop over a traced length is autograph's or fori_loop's.
    shape = self.shape
    if not shape:
        raise TypeError("iteration over a 0-d array")
    if shape[0] is None:
        raise TypeError("iterating over a `?` first axis is not supported "
                        "while tracing; use tracec.fori_loop, or autograph")
    return (self[i] for i in range(shape[0]))


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


def _recorded_ufuncs():
    """{(NumPy ufunc name, method): function} for what tracec records."""
    binary = {"add": add, "subtract": subtract, "multiply": multiply,
              "true_divide": divide, "divide": divide, "power": power,
              "maximum": maximum, "minimum": minimum, "matmul": matmul,
              "floor_divide": floor_divide, "remainder": remainder,
              "fmod": fmod, "divmod": divmod, "arctan2": arctan2}
    unary = {"negative": negative, "positive": _identity, "absolute": abs,
             "exp": exp, "log": log, "log1p": log1p, "sqrt": sqrt,
             "tanh": tanh, "sin": sin, "cos": cos, "square": square,
             "sign": sign, "floor": floor, "arcsin": arcsin,
             "arccos": arccos, "arctan": arctan, "arcsinh": arcsinh,
             "arccosh": arccosh, "arctanh": arctanh}
    reductions = {"add": sum, "maximum": max, "minimum": min,
                  "multiply": prod}
    return {**{(name, "__call__"): fn for name, fn in binary.items()},
            **{(name, "__call__"): fn for name, fn in unary.items()},
            **{(name, "reduce"): _reduce(fn) for name, fn in reductions.items()}}


def _recorded_functions():
    """{NumPy function: function} for what tracec records."""
    return {
        np.sum: sum, np.mean: mean, np.max: max, np.amax: max, np.min: min,
        np.amin: min, np.prod: prod, np.var: var, np.std: std,
        np.reshape: reshape, np.transpose: transpose, np.ravel: ravel,
        np.squeeze: squeeze, np.expand_dims: expand_dims,
        np.concatenate: concatenate, np.stack: stack, np.where: _taped_where,
        np.clip: clip, np.dot: _taped_dot, np.matmul: matmul,
        np.argmax: argmax, np.argmin: argmin, np.take: take, np.flip: flip,
        np.roll: roll, np.tile: tile, np.repeat: repeat, np.split: split,
        np.cumsum: cumsum, np.cumprod: cumprod, np.einsum: einsum,
        np.linalg.norm: _norm}


def _install_taped_operators(cls):
    cls.recorded_ufuncs = _recorded_ufuncs()
    cls.recorded_functions = _recorded_functions()
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


# ---------------------------------------------------------------------------
# NumPy's functions on tracer Values: np.sin(x), np.sum(x, axis=0) and
# `ndarray + x` record tracec ops (NEP 13 and NEP 18 dispatch).
# ---------------------------------------------------------------------------


def _symbolic_ufuncs():
    comparisons = {"equal": equal, "not_equal": not_equal, "less": less,
                   "less_equal": less_equal, "greater": greater,
                   "greater_equal": greater_equal,
                   "logical_and": logical_and, "logical_or": logical_or,
                   "logical_xor": logical_xor}
    return {**_recorded_ufuncs(),
            **{(name, "__call__"): fn for name, fn in comparisons.items()},
            ("logical_not", "__call__"): logical_not,
            ("isnan", "__call__"): isnan, ("isinf", "__call__"): isinf,
            ("isfinite", "__call__"): isfinite}


def _symbolic_where(condition, *xy):
    if len(xy) != 2:
        raise TypeError("np.where(condition) on a symbolic value: its "
                        "result's shape depends on the data; use "
                        "np.where(condition, x, y)")
    return where(condition, *xy)


def _symbolic_dot(a, b):
    if _ndim(a) > 2 or _ndim(b) > 2:
        raise TypeError("np.dot of arrays of more than 2 dims on a symbolic "
                        "value (its sum-product over the last and "
                        "second-to-last axes); use matmul")
    return matmul(a, b)


def _install_numpy_dispatch(cls):
    ufuncs = _symbolic_ufuncs()
    functions = {**_recorded_functions(), np.where: _symbolic_where,
                 np.dot: _symbolic_dot, np.any: any, np.all: all,
                 np.shape: _shape, np.ndim: _ndim, np.size: _size,
                 np.zeros_like: zeros_like, np.ones_like: ones_like,
                 np.broadcast_to: broadcast_to}

    def array_ufunc(self, ufunc, method, *inputs, out=None, **kwargs):
        record = ufuncs.get((ufunc.__name__, method))
        taken = _core._recorded_arguments(kwargs)
        if record is None or taken is None or out is not None:
            call = ufunc.__name__ + ("" if method == "__call__"
                                     else "." + method)
            raise TypeError(
                f"np.{call} on a symbolic value of a traced function: tracec "
                "has no op for it" + ("" if out is None else " (with out=)")
                + "; use tracec.numpy's functions")
        return record(*inputs, **taken)

    def array_function(self, func, types, args, kwargs):
        record = functions.get(func)
        if record is None:
            raise TypeError(
                f"np.{func.__name__} on a symbolic value of a traced "
                "function: tracec has no op for it; use tracec.numpy's "
                "functions")
        return record(*args, **kwargs)

    cls.__array_ufunc__ = array_ufunc
    cls.__array_function__ = array_function


_install_numpy_dispatch(Value)

