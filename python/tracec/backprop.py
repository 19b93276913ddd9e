"""The seeds' function-level gradients (TensorFlow's backprop.py):
gradients_function, val_and_grad_function, make_vjp, implicit_grad and
implicit_value_and_grad, as api.py exposes them.

Unlike JAX's grad, the function may return any structure of arrays: the
gradients are those of the sum of its floating-point outputs, or, given
`dy` (one cotangent per output, in its structure), the vector-Jacobian
product. As TensorFlow's, these are a gradient tape around the function:
here a tape (tape.Tape, GradientTape's) inside one traced function
(compiled once per signature by function.call_symbolic), so integer
parameters and those the outputs do not depend on get None, as
tracec.gradients gives.
"""
from __future__ import annotations

import inspect

import numpy as np

from . import _core
from ._core import Value
from ._tree import tree_leaves, tree_map
from .function import Function, call_symbolic
from .reverse import prepare
from .tape import Tape
from .variables import Variable


def _name_of(f):
    return getattr(f, "__name__", type(f).__name__)


def _parameter_positions(f, params, args):
    """The indices of the arguments to differentiate (TensorFlow's params:
    None for all, indices, or parameter names)."""
    if params is None:
        return tuple(range(len(args)))
    params = tuple(params)
    if all(isinstance(p, str) for p in params):
        names = list(inspect.signature(f).parameters)
        missing = [p for p in params if p not in names]
        if missing:
            raise ValueError(f"{_name_of(f)} has no parameters named "
                             f"{', '.join(map(repr, missing))}")
        return tuple(names.index(p) for p in params)
    if not all(isinstance(p, int) for p in params):
        raise ValueError("params must be all strings or all integers; got "
                         f"{params!r}")
    for p in params:
        if not -len(args) <= p < len(args):
            raise ValueError(f"params {p} is out of range: {_name_of(f)} "
                             f"was given {len(args)} arguments")
    return tuple(p % len(args) for p in params)


def _returns_none(f):
    # TensorFlow's error.
    return ValueError("Cannot differentiate a function that returns None; "
                      f"did you forget to return a value from {_name_of(f)}?")


def _watchable(x):
    return isinstance(x, (Value, np.ndarray, Variable))


def _as_cotangent(x):
    """A Python number of dy as an array (not a static argument)."""
    if isinstance(x, (int, float)) and not isinstance(x, np.generic):
        return np.asarray(x, np.float32)
    return x


def _unique_variables(args, positions):
    """The arguments, where a Variable passed again at a differentiated
    position is its value instead (TensorFlow's
    _ensure_unique_tensor_objects): each argument is a source of its own,
    so f(v, v) gets one partial derivative per argument."""
    seen = set()
    args = list(args)
    for i in positions:
        if isinstance(args[i], Variable):
            if id(args[i]) in seen:
                args[i] = args[i].numpy()
            seen.add(id(args[i]))
    return tuple(args)


def _distinct_sources(args, params):
    """The arguments, where a value passed again at a differentiated
    position (f(x, x)) is a copy that no gradient flows back from: each
    parameter is a source of its own and gets its own partial derivative
    (TensorFlow's _ensure_unique_tensor_objects copies them before the
    tape watches, so the tape does not see one computed from the other)."""
    seen = set()
    args = list(args)
    for i in params:
        def unique(x):
            if isinstance(x, (np.ndarray, np.generic)) and \
                    x.dtype.kind == "f":
                # A float array (a number, prepared) inside an enclosing
                # trace is a value of it, which the tape can watch.
                x = _core.to_value(x)
            if not isinstance(x, Value):
                return x
            if id(x) in seen:
                return _core.stop_gradient(x)
            seen.add(id(x))
            return x
        args[i] = tree_map(unique, args[i])
    return args


def _value_and_gradients(f):
    """symbolic(args, dy, params) -> (f(*args), [gradient of each param]):
    one tape around f, whose gradient is tracec.gradients'."""
    def symbolic(args, dy, params):
        args = _distinct_sources(args, params)
        with Tape() as tape:
            for i in params:
                tape.watch([x for x in tree_leaves(args[i])
                            if _watchable(x)])
            result = f(*args)
        if result is None:
            raise _returns_none(f)
        grads = tape.gradient(result, [args[i] for i in params],
                              output_gradients=dy)
        return result, grads
    symbolic.__name__ = "value_and_gradients_" + \
        _name_of(f).replace("<lambda>", "lambda")
    return symbolic


def _check_no_keywords(kwargs):
    if kwargs:
        # TensorFlow's error.
        raise ValueError("Functions to be differentiated cannot receive "
                         f"keyword arguments (got {', '.join(kwargs)}).")


def val_and_grad_function(f, params=None):
    """See api.val_and_grad_function."""
    symbolic = _value_and_gradients(f)

    def decorated(*args, dy=None, **kwargs):
        _check_no_keywords(kwargs)
        positions = _parameter_positions(f, params, args)
        args = _unique_variables(prepare(args, positions), positions)
        value, grads = call_symbolic(
            symbolic, (args, tree_map(_as_cotangent, dy), positions))
        return value, list(grads)
    return decorated


def gradients_function(f, params=None):
    """See api.gradients_function."""
    value_and_gradients = val_and_grad_function(f, params)

    def decorated(*args, dy=None, **kwargs):
        return value_and_gradients(*args, dy=dy, **kwargs)[1]
    return decorated


def make_vjp(f, params=None, persistent=True):
    """See api.make_vjp."""
    del persistent  # vjp may always be called again
    forward = Function(f)
    symbolic = _value_and_gradients(f)

    def decorated(*args, **kwargs):
        _check_no_keywords(kwargs)
        positions = _parameter_positions(f, params, args)
        args = _unique_variables(prepare(args, positions), positions)
        result = forward(*args)
        if result is None:
            raise _returns_none(f)

        def vjp(dy=None):
            return list(call_symbolic(
                symbolic, (args, tree_map(_as_cotangent, dy), positions))[1])
        return result, vjp
    return decorated


def implicit_value_and_grad(f):
    """See api.implicit_value_and_grad."""
    def decorated(*args):
        with Tape() as tape:
            value = f(*args)
        if value is None:
            raise _returns_none(f)
        variables = tape.watched_variables()
        if not variables:
            raise ValueError(f"{_name_of(f)} reads no trainable "
                             "tracec.Variable: nothing to differentiate")
        grads = tape.gradient(value, variables)
        return value, list(zip(grads, variables))
    return decorated


def implicit_grad(f):
    """See api.implicit_grad."""
    value_and_grad = implicit_value_and_grad(f)
    return lambda *args: value_and_grad(*args)[1]
