"""How an op runs: recorded by the C++ tracer, or eagerly.

Every op of the package goes through `apply(kernel, operands, *static)`.
`kernel` builds the op on tracer Values (calling tracec._tracec, the C++
tracer: the one implementation of op building). Inside a traced function the
kernel runs on the operands as Values (arrays become captured inputs,
variables are read). Outside one (eager mode) the kernel is traced once per
signature into a one-op function, compiled, cached, and called on the
arrays. Active gradient tapes record each op (see tape.py).

This is the package's bottom layer: it imports no other module of it.
What it needs of higher layers it knows by interface: variables
derive from `VariableBase`, and tapes are objects on the `_tapes` stack
with `_record`/`_record_read` methods (tape.Tape).
"""
from __future__ import annotations

import contextlib
import os
import sys
import threading

import numpy as np

from . import _tracec as _C
from . import dlpack

Value = _C.Value

# NumPy dtype <-> tracec dtype name.
_TO_NAME = {
    np.dtype(np.float16): "f16",
    np.dtype(np.float32): "f32",
    np.dtype(np.float64): "f64",
    np.dtype(np.bool_): "i1",
    np.dtype(np.int32): "i32",
    np.dtype(np.int64): "i64",
}
_FROM_NAME = {name: dtype for dtype, name in _TO_NAME.items()}
_SCALARS = (int, float, bool)
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))

# The optimization level of eager one-op functions: light, so a first eager
# call stays cheap; traced functions use -O3.
EAGER_OPT_LEVEL = 1


# NumPy has no bf16: traced code names it "bf16" (tracec.numpy.bfloat16),
# and its arrays cross as float32 (rounded to the nearest bf16 going in,
# exact coming out).
BF16_NAMES = ("bf16", "bfloat16")


def dtype_name(dtype) -> str:
    """The tracec name ("f32") of a NumPy dtype, or a TypeError."""
    if isinstance(dtype, str) and dtype in _FROM_NAME:
        return dtype
    if isinstance(dtype, str) and dtype in BF16_NAMES:
        return "bf16"
    try:
        dtype = np.dtype(dtype)
        # ">f4" holds float32 values in the other byte order: the arguments
        # are converted when passed (NumpyTensor.cpp).
        return _TO_NAME[dtype if dtype.isnative else dtype.newbyteorder("=")]
    except (KeyError, TypeError):
        raise TypeError(f"dtype {dtype!r} is not supported by tracec "
                        "(float16, bfloat16, float32, float64, bool, int32, "
                        "int64)") from None


def numpy_dtype(name: str) -> np.dtype:
    """The NumPy dtype arrays of tracec dtype `name` cross as (float32 for
    bf16)."""
    if name == "bf16":
        return np.dtype(np.float32)
    return _FROM_NAME[name]


def is_tracing() -> bool:
    """Whether ops are recorded into a function being traced (not in an
    init_scope, where they run eagerly)."""
    return not _init_scopes and _C.is_tracing()


# Per trace being recorded (function.py), the Variables it creates: the
# function keeps them alive.
_created_variables: list = []

# How many init_scopes are open: ops there run eagerly, during the trace.
_init_scopes = 0


@contextlib.contextmanager
def init_scope():
    """TensorFlow's `init_scope`: the block runs eagerly even while a
    function is being traced (its ops are computed now, on arrays, and are
    not part of the function; no tape records them). Variables' initial
    values are computed there, once, when the trace creates the variable.

    >>> @tracec.function
    ... def f():
    ...     with tracec.init_scope():
    ...         w0 = tracec.numpy.ones(3) * 2  # an array, now
    ...     return tracec.Variable(w0).read_value()
    """
    global _trace_depth, _init_scopes
    saved = _trace_depth
    _trace_depth, _init_scopes = 0, _init_scopes + 1
    try:
        with suspended_tapes():
            yield
    finally:
        _trace_depth, _init_scopes = saved, _init_scopes - 1


# How many traces this process is recording (any thread): a Python-level
# stand-in for _C.is_tracing() on the fast paths, where a call into the
# module costs as much as the rest of the check. Nonzero sends callers to
# their slow paths, which ask _C.is_tracing().
_trace_depth = 0


# One trace at a time in the process. Two threads tracing at once (the
# first calls of a function from a thread pool) deadlock in the C++ tracer:
# one waits there for the tracer, holding the GIL, while the other's body
# waits for the GIL. Waiting here releases the GIL. Reentrant: a trace may
# compile eager kernels (init_scope).
_trace_lock = threading.RLock()


def trace(name, specs, body):
    """_C.trace, counted in _trace_depth."""
    global _trace_depth
    with _trace_lock:
        _trace_depth += 1
        try:
            return _C.trace(name, specs, body)
        finally:
            _trace_depth -= 1


def call_site():
    """The user's Python (file, line) that called into the package, or
    None."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
    if frame is not None:
        return frame.f_code.co_filename, frame.f_lineno
    return None


def _set_location():
    """Carries the user's Python file:line into the op's MLIR location."""
    site = call_site()
    if site is not None:
        _C.set_location(*site)


# ---------------------------------------------------------------------------
# Operands
# ---------------------------------------------------------------------------


class VariableBase:
    """What this layer knows of tracec.Variable (variables.py, a higher
    layer), so that operands can be variables: inside a trace
    `read_value()` reads one (trace.var.read), eagerly `_eager_read()`
    returns its array (both record the read on the active tapes)."""

    __slots__ = ()

    def read_value(self):
        raise NotImplementedError

    def _eager_read(self):
        raise NotImplementedError


def _is_variable(x) -> bool:
    return isinstance(x, VariableBase)


_NATIVE_TYPES = frozenset({np.ndarray, Value, int, float, bool, str})


def is_foreign_array(x) -> bool:
    """Whether x is another library's array (a torch tensor, a CuPy or JAX
    array): it has __array__ or __dlpack__ and is not one of NumPy's or
    tracec's own (a Variable has __array__, but is state)."""
    kind = type(x)
    if kind in _NATIVE_TYPES:
        return False
    return (hasattr(kind, "__array__") or hasattr(kind, "__dlpack__")) and \
        not isinstance(x, (np.ndarray, np.generic, Value, VariableBase))


def from_foreign(x) -> np.ndarray:
    """Another library's array as a NumPy array, sharing its memory where
    the library allows (a torch CPU tensor does; one that requires grad
    must be detached first, as torch says); a GPU tensor through DLPack
    (tracec.from_dlpack)."""
    kind = type(x)
    if hasattr(kind, "__dlpack_device__") and \
            x.__dlpack_device__()[0] != dlpack.CPU:
        return dlpack.from_dlpack(x)
    if hasattr(kind, "__array__"):
        return np.asarray(x)
    return np.from_dlpack(x)


def to_value(x, what="an operand"):
    """x as a tracer Value, inside a trace: arrays are captured inputs,
    variables are read (trace.var.read), Python numbers become f32/i32/i1
    constants (prefer scalar operands of apply, which take the other
    operand's dtype). Noted as a use of the bodies being traced, if any
    (collecting_body_uses)."""
    if _body_uses:
        value = _as_value(x, what)
        _body_uses[-1][id(x)] = (value, x)
        return value
    if isinstance(x, Value):
        return x
    return _as_value(x, what)


def _as_value(x, what):
    if isinstance(x, Value):
        return x
    if _is_variable(x):
        return x.read_value()
    if isinstance(x, np.generic):  # np.float64(1) is a float: not weak
        return _C.constant(np.asarray(x))
    if isinstance(x, bool):
        return _C.constant(np.asarray(x))
    if isinstance(x, int):
        return _C.constant(np.asarray(x, np.int32))
    if isinstance(x, float):
        return _C.constant(np.asarray(x, np.float32))
    if is_foreign_array(x):
        x = from_foreign(x)
    if isinstance(x, np.ndarray):
        return _captured(x)
    if isinstance(x, np.generic):
        return _C.constant(np.asarray(x))
    if isinstance(x, (list, tuple)):
        return _C.constant(np.asarray(x))
    raise TypeError(f"{what} is a {type(x).__name__}, not an array, a "
                    "tracec value or a number")


def to_array(x, what="an operand"):
    """x as a NumPy array, eagerly."""
    if isinstance(x, np.ndarray):
        return x
    if _is_variable(x):
        return x._eager_read()
    if isinstance(x, Value):
        raise TypeError(f"{what} is a symbolic value of a traced function, "
                        "used outside it")
    array = from_foreign(x) if is_foreign_array(x) else np.asarray(x)
    if array.dtype == object:
        raise TypeError(f"{what} is a {type(x).__name__}, not an array or "
                        "a number")
    return array


def _is_tensor(x) -> bool:
    return not isinstance(x, _SCALARS)


FLOAT_DTYPES = ("f16", "bf16", "f32", "f64")


def is_floating(x) -> bool:
    """Whether x (a Value, an array or a number) has a floating-point
    dtype: the values that carry gradients."""
    if isinstance(x, Value):
        return x.dtype in FLOAT_DTYPES
    return np.asarray(x).dtype.kind == "f"


# ---------------------------------------------------------------------------
# apply
# ---------------------------------------------------------------------------

# Ops with effects that a caller cannot hoist (prints, random draws)
# recorded so far, and how many callees with hoisted variable reads are
# being traced (tracec.function._call_hoisting_reads).
_effects = 0
_hoisting = 0

# Tapes suspended while control-flow bodies are traced (their reads of
# variables cannot be recorded there; see Tape._unrecorded_reads).
_suspended_tapes: list = []

_eager_cache: dict = {}
_tapes: list = []  # active tapes (tape.Tape), innermost last

# While custom_gradient functions are traced, innermost last: objects whose
# `read(variable)` gives the Value a variable is read as there
# (custom_gradients._VariableInputs).
_variable_scopes: list = []


# For each op whose Python bodies are being traced (branches and loop
# bodies, callees, custom gradients, transformed functions), innermost
# last: what its bodies turned into Values, {id(x): (value, x)}. The ones
# defined outside the op are inputs of it (regions use them from above,
# callees capture them), so tapes record the op as using them.
_body_uses: list = []


@contextlib.contextmanager
def collecting_body_uses():
    """Collects, in the dict it yields, what the bodies traced in this
    block use (an enclosing op's bodies use it all too)."""
    uses = {}
    _body_uses.append(uses)
    try:
        yield uses
    finally:
        _body_uses.pop()
        if _body_uses:
            _body_uses[-1].update(uses)


@contextlib.contextmanager
def trial_body():
    """The block traces a body that is then dropped (autograph's trial
    iteration, _C.output_specs): no tape records it, and neither an
    enclosing op nor the function keeps the values it makes."""
    _body_uses.append({})
    try:
        with suspended_tapes():
            yield
    finally:
        _body_uses.pop()


# The functions being traced (tracec.function's, callees), innermost
# last: ({id(array): (array, Value)}, len(_body_uses) at the function's
# top level). An array used at its top level is captured once, so that
# all its uses and a gradient with respect to it (tracec.gradients, tapes)
# are one value. (A Value made in a body belongs to the body: it is not
# kept.)
_function_captures: list = []


@contextlib.contextmanager
def function_scope(captures=None):
    """The block traces a function's body; `captures`: arrays whose
    Values (of the caller) it uses, {id(array): (array, Value)}. Yields
    {id(array): array} of the other arrays the body closes over (captured
    inputs or constants), which a tape replaying the function may have to
    give their Values (concrete_function.record_call)."""
    closed_over = {}
    _function_captures.append((dict(captures or {}), len(_body_uses),
                               closed_over))
    try:
        yield closed_over
    finally:
        _function_captures.pop()


def _captured(array):
    """An array as a Value: a captured input (a constant if rank 0)."""
    if not _function_captures:
        return _C.capture(array) if array.ndim else _C.constant(array)
    captures, top_level, closed_over = _function_captures[-1]
    entry = captures.get(id(array))
    if entry is not None:
        return entry[1]
    closed_over[id(array)] = array
    value = _C.capture(array) if array.ndim else _C.constant(array)
    if len(_body_uses) == top_level:
        captures[id(array)] = (array, value)
    return value


def captures_of(arrays):
    """The Values of `arrays` in the function being traced, for a callee
    (function_scope's `captures`)."""
    return {id(a): (a, to_value(a)) for a in arrays}


@contextlib.contextmanager
def suspended_tapes():
    """No tape records in this block (bodies of control flow, custom
    gradients and replays traced inside a recorded op); the suspended
    tapes note the variables read meanwhile (Variable.read_value)."""
    saved = _tapes[:]
    _tapes.clear()
    depth = len(_suspended_tapes)
    _suspended_tapes.extend(saved)
    try:
        yield
    finally:
        del _suspended_tapes[depth:]
        _tapes[:] = saved


def record_on_tapes(operands, results, originals=None, uses=None):
    """Records, on the active tapes, symbolic results that the tracer built
    without apply (gradient ops, calls), so tapes see through them; `uses`:
    what the op's bodies used (collecting_body_uses)."""
    results = [r for r in results if isinstance(r, Value)]
    for tape in _tapes:
        tape._record(None, tuple(operands), (), results,
                     originals=None if originals is None else tuple(originals),
                     uses=uses)


def apply(kernel, operands, *static, name=None):
    """Runs `kernel(*operands_as_values, *static)`, recorded or eager.

    Operands that are Python numbers stay numbers (the kernel makes them
    constants of the other operand's dtype); `static` are attributes (axes,
    shapes), part of an eager op's cache key."""
    if not _trace_depth or not _C.is_tracing():
        result = _eager(kernel, operands, static, name)
        if result is not _SYMBOLIC:
            return result
    _set_location()
    values = tuple(to_value(o) if _is_tensor(o) else o for o in operands)
    uses = None
    if getattr(kernel, "traces_bodies", False):
        with collecting_body_uses() as uses:
            result = kernel(*values, *static)
    else:
        result = kernel(*values, *static)
    for tape in _tapes:
        tape._record(kernel, values, static, result, originals=operands,
                     uses=uses)
    return result


_SYMBOLIC = object()  # _eager's answer when an operand is a tracer Value


def _eager(kernel, operands, static, name):
    values, key, arrays = [], [], []
    for o in operands:
        t = type(o)
        if t is not np.ndarray:
            if t in _SCALARS:
                values.append(o)
                key.append((t, o))
                continue
            if t is Value:
                return _SYMBOLIC
            o = to_array(o)
        values.append(o)
        arrays.append(o)
        key.append((o.shape, o.dtype))
    key = (kernel, static, tuple(key))
    entry = _eager_cache.get(key)
    if entry is None:
        entry = _trace_eager(kernel, values, static, name)
        _eager_cache[key] = entry
    function, single = entry
    outputs = function(*arrays)
    result = outputs[0] if single else tuple(outputs)
    if _tapes:
        result = taped(result)
        values = tuple(values)
        for tape in _tapes:
            tape._record(kernel, values, static, result)
    return result


def taped(result):
    """An eager result (an array, or a tuple or list of them) as
    TapedArrays while tapes record."""
    if not _tapes:
        return result
    if isinstance(result, np.ndarray):
        return result if type(result) is TapedArray else \
            result.view(TapedArray)
    return type(result)(taped(r) for r in result)


def _trace_eager(kernel, values, static, name):
    positions = [i for i, v in enumerate(values) if isinstance(v, np.ndarray)]
    specs = [(dtype_name(values[i].dtype), list(values[i].shape))
             for i in positions]
    single = []

    def body(symbolic):
        operands = list(values)
        for i, s in zip(positions, symbolic):
            operands[i] = s
        result = kernel(*operands, *static)
        single.append(isinstance(result, Value))
        return [result] if isinstance(result, Value) else list(result)

    # "eager_": a function named as the op ("exp", "tanh") would be the
    # symbol that its f64 lowering calls in libm, and call itself.
    function = trace("eager_" + (name or getattr(kernel, "__name__", "op")),
                     specs, body)
    function.compile(EAGER_OPT_LEVEL)
    return function, single[0]


def _stop_gradient(x):
    return op("stop_gradient", x)


def stop_gradient(x):
    """x, with no gradient flowing through it (trace.stop_gradient)."""
    return apply(_stop_gradient, (x,), name="stop_gradient")


def number_as_array(x):
    """A Python number alone as an array: float32, int32 (int64 beyond its
    range) or bool, the dtypes it takes beside an array (JAX's weak
    typing; NumPy would give float64 and int64). A NumPy scalar (np.float64
    is a float too) keeps its dtype. Anything else as it is."""
    if isinstance(x, np.generic):
        return np.asarray(x)
    if isinstance(x, bool):
        return np.asarray(x)
    if isinstance(x, int):
        fits = np.iinfo(np.int32).min <= x <= np.iinfo(np.int32).max
        return np.asarray(x, np.int32 if fits else np.int64)
    if isinstance(x, float):
        return np.asarray(x, np.float32)
    return x


class WeakScalar(np.ndarray):
    """A Python number among a jit-ed function's arguments, as the rank-0
    array it is passed as. It is traced weakly typed (JAX's weak_type):
    like the number itself it takes the dtype of the arrays it meets, so
    `f(f16_array, 2.0)` computes in float16."""


def traced_number(x):
    """number_as_array for an argument jit traces: a Python int or float
    as a WeakScalar (a bool, a NumPy scalar or an array keeps its type)."""
    array = number_as_array(x)
    if isinstance(x, (int, float)) and not isinstance(x, (bool, np.generic)):
        return array.view(WeakScalar)
    return array


def scalar_operand(x, like):
    """A Python number meeting a Value: a constant of the Value's dtype
    (JAX's weak typing)."""
    return _C.scalar_like(float(x), isinstance(x, (bool, int)), like)


def op(name, *operands, **attributes):
    """Records trace.<name> on Values (its result type inferred by the op,
    its operands promoted as the op's traits ask): op("exp", x),
    op("reduce_sum", x, axes=[0], keepdims=True). Attributes are bools (a
    unit attribute), ints, floats, strs or lists of ints."""
    return _C.op("trace." + name, list(operands), attributes)


def binary_kernel(op):
    """A kernel for a binary op whose operands may be Python numbers."""
    def kernel(x, y):
        if not isinstance(x, Value):
            x = scalar_operand(x, y)
        elif not isinstance(y, Value):
            y = scalar_operand(y, x)
        return op(x, y)
    kernel.__name__ = op.__name__
    return kernel


# ---------------------------------------------------------------------------
# Eager values under tapes
# ---------------------------------------------------------------------------


def _plain(x):
    return x.view(np.ndarray) if isinstance(x, TapedArray) else x


def _plain_arguments(args):
    """args with TapedArrays (also in lists and tuples) as NumPy's."""
    return tuple([_plain(a) for a in x] if isinstance(x, (list, tuple))
                 else _plain(x) for x in args)


def _not_recorded(what):
    return TypeError(
        f"{what} on an array that a GradientTape records: tracec has no op "
        "for it, so the tape cannot record it (its result would carry no "
        "gradient). Use tracec.numpy's functions, or leave the tape: "
        "np.asarray(x), or tape.stop_recording()")


def not_recorded_numpy(fn, args, what, kwargs=None):
    """fn(*args, **kwargs), NumPy's operation that no op records, on plain
    arrays; while tapes record, an error if it takes a floating-point
    TapedArray and makes a floating-point result, through which no
    gradient would flow."""
    result = fn(*_plain_arguments(args), **(kwargs or {}))
    if not _tapes:
        return result
    inputs = [y for x in args
              for y in (x if isinstance(x, (list, tuple)) else [x])]
    results = result if isinstance(result, tuple) else (result,)
    if any(isinstance(x, TapedArray) and x.dtype.kind == "f"
           for x in inputs) and any(
               isinstance(r, (np.ndarray, np.generic)) and r.dtype.kind == "f"
               for r in results):
        raise _not_recorded(what)
    return result


def _recorded_arguments(kwargs):
    """The keyword arguments of a ufunc call that a recorded op takes (axis
    and keepdims of a reduction), or None if others ask for more."""
    taken = {}
    for k, v in kwargs.items():
        if k in ("casting", "subok", "order") or \
                (k == "where" and v is True) or (k == "dtype" and v is None):
            continue
        if k not in ("axis", "keepdims"):
            return None
        taken[k] = v
    return taken


class TapedArray(np.ndarray):
    """An eager value computed while a GradientTape records (a view of
    NumPy's array): as with TensorFlow's eager tensors, while a tape is
    active its Python operators and NumPy's ufuncs and functions on it run
    as tracec ops, which the tapes record (`loss += w * w`, `np.exp(y)`,
    `y[0]`, `y.sum()`). A NumPy operation tracec has no op for is an error
    if its result is floating-point (no gradient would flow through it).
    With no tape active, it is NumPy's array. tracec.numpy fills in the
    ops (recorded_ufuncs, recorded_functions) and methods."""

    # {(ufunc name, method): fn(*inputs, **kwargs)}
    recorded_ufuncs: dict = {}
    # {NumPy function: tracec.numpy function}
    recorded_functions: dict = {}

    def __array_ufunc__(self, ufunc, method, *inputs, out=None, **kwargs):
        if _tapes:
            record = self.recorded_ufuncs.get((ufunc.__name__, method))
            taken = _recorded_arguments(kwargs)
            if record is not None and taken is not None:
                # A new value, also for an in-place operator: `loss += x`
                # rebinds loss, as with a tensor.
                return record(*inputs, **taken)
        if out is not None:
            kwargs["out"] = tuple(_plain(o) for o in out)
        result = not_recorded_numpy(getattr(ufunc, method), inputs,
                                    f"NumPy's {ufunc.__name__}", kwargs)
        if out is not None:
            return out[0] if len(out) == 1 else out
        return result

    def __array_function__(self, func, types, args, kwargs):
        if not _tapes:
            return super().__array_function__(func, types, args, kwargs)
        record = self.recorded_functions.get(func)
        if record is not None:
            return record(*args, **kwargs)
        return not_recorded_numpy(func, args, f"np.{func.__name__}", kwargs)

    def __array_finalize__(self, obj):
        # A new array NumPy made from one a tape records (x.copy(), x.dot):
        # the tape would not know it.
        if _tapes and isinstance(obj, TapedArray):
            raise _not_recorded("An ndarray method")

    def __repr__(self):
        return repr(self.view(np.ndarray))

    def __str__(self):
        return str(self.view(np.ndarray))

    def __reduce__(self):
        return self.view(np.ndarray).__reduce__()

