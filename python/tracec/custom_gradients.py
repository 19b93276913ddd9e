"""tracec.custom_gradient (tf.custom_gradient) and tracec.checkpoint
(jax.checkpoint): functions that trace-autodiff differentiates in a way the
user chose. Inside a traced function each call records a func.call of a
private function with the attribute trace.custom_vjp or trace.checkpoint;
eagerly, they run like any op (and GradientTape sees through them)."""
from __future__ import annotations

import contextlib
import functools
import inspect
import re

from . import _core
from . import _tracec as _C
from ._core import apply
from ._tree import tree_flatten

_POLICIES = ("nothing", "contractions", "everything")


def _symbol(f, suffix):
    """f's name with `suffix`: a valid symbol that is never a libm function
    (a private function named `exp` would be what exp's lowering calls)."""
    name = re.sub(r"\W", "_", getattr(f, "__name__", ""))
    if not name or not (name[0].isalpha() or name[0] == "_"):
        return suffix
    return f"{name}_{suffix}"


def _name(f):
    return getattr(f, "__name__", "the function")


def _outputs(result, what):
    single = not isinstance(result, (tuple, list))
    values = [result] if single else list(result)
    return [_core.to_value(v, what) for v in values], single


class _ReadsVariables(Exception):
    """f read trainable variables that are not inputs of its call yet."""

    def __init__(self, depth, variables):
        super().__init__(f"custom_gradient reads {len(variables)} more "
                         "variables")
        self.depth = depth  # which custom_gradient call's scope raised it
        self.variables = variables


class _VariableInputs:
    """While a custom_gradient function (and its grad_fn) is traced: the
    Values its variables are read as, which are inputs of the call, so
    that the gradients of the trainable ones are grad_fn's variable
    gradients (TensorFlow's semantics). A variable that is not an input
    yet raises _ReadsVariables: the call is traced again with it as an
    input. (Read as resources, the C++ custom_gradient's forward function
    would lack the control token the call gets: a compile error.)"""

    def __init__(self, variables, values):
        self.values = {id(v): value for v, value in zip(variables, values)}
        self.depth = len(_core._variable_scopes)
        self.read_by_f = set()  # ids of the trainable variables f read
        self.in_f = False

    def read(self, variable):
        value = self.values.get(id(variable))
        if value is None:
            raise _ReadsVariables(self.depth, [variable])
        if self.in_f and variable.trainable:
            self.read_by_f.add(id(variable))
        return value

    def assign(self, variable):
        pass  # assigned in the custom_gradient call, as traced

    @contextlib.contextmanager
    def active(self, in_f):
        _core._variable_scopes.append(self)
        self.in_f = in_f
        try:
            yield
        finally:
            _core._variable_scopes.pop()


# While a grad_fn is traced: the _VariableInputs of its custom_gradient
# call, innermost last.
_grad_fns: list = []


@contextlib.contextmanager
def _tracing_grad_fn(scope):
    _grad_fns.append(scope)
    try:
        yield
    finally:
        _grad_fns.pop()


def grad_fn_sources(xs):
    """The sources of tracec.gradients(ys, xs) inside a grad_fn: xs, with
    a variable f reads as the Value f (and grad_fn) read it as, an input of
    the forward function. The gradients of f's own values differentiate
    f's ops there (the C++ gradients() slices the function the ys come
    from), as TensorFlow's gradients in a grad_fn do."""
    if not _grad_fns:
        return xs
    values = _grad_fns[-1].values
    return [values.get(id(x), x) for x in xs]


def _takes_variables(grad_fn) -> bool:
    """Whether grad_fn accepts `variables=` (TensorFlow's test)."""
    try:
        parameters = inspect.signature(grad_fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "variables" and p.kind != p.POSITIONAL_ONLY or
               p.kind == p.VAR_KEYWORD for p in parameters)


def _custom_gradient_kernel(*args_and_static):
    *args, f, variables = args_and_static
    num_inputs = len(args) - len(variables)
    info = {}

    def body(values):
        scope = _VariableInputs(variables, values[num_inputs:])
        with _core.suspended_tapes(), scope.active(in_f=True):
            result = f(*values[:num_inputs])
        y, grad_fn = _split_result(result, f)
        outputs, info["single"] = _outputs(y, "an output of the function")
        read = [v for v in variables if id(v) in scope.read_by_f]
        if read and not _takes_variables(grad_fn):
            raise TypeError(
                f"custom_gradient: {_name(f)} reads the variables "
                f"{', '.join(repr(v.name) for v in read)}, so its grad_fn "
                "must accept a keyword argument 'variables' (and return "
                "(input gradients, variable gradients))")

        def backward(dys):
            with _core.suspended_tapes(), scope.active(in_f=False), \
                    _tracing_grad_fn(scope):
                if read:
                    grads, variable_grads = _split_gradients(
                        grad_fn(*dys, variables=read), read, f)
                else:
                    grads, variable_grads = grad_fn(*dys), []
            grads = _as_list(grads)
            if len(grads) != num_inputs:
                raise ValueError(
                    f"custom_gradient: grad_fn of {_name(f)} returned "
                    f"{len(grads)} gradients for {num_inputs} inputs (one "
                    "per input, None for no gradient)")
            by_id = {id(v): g for v, g in zip(read, variable_grads)}
            grads += [by_id.get(id(v)) for v in variables]
            return [None if g is None else _core.to_value(g, "a gradient")
                    for g in grads]
        return outputs, backward

    values = [_core.to_value(a, "an argument") for a in args]
    results = _C.custom_gradient(body, values, _symbol(f, "custom_gradient"))
    return results[0] if info["single"] else tuple(results)


def _split_result(result, f):
    """(y, grad_fn) of what f returned, checked."""
    if not (isinstance(result, tuple) and len(result) == 2 and
            callable(result[1])):
        raise TypeError(
            f"custom_gradient: {_name(f)} must return (y, grad_fn) with "
            f"grad_fn a function of the cotangents of y, got "
            f"{type(result).__name__}")
    return result


def _as_list(grads):
    return list(grads) if isinstance(grads, (tuple, list)) else [grads]


def _split_gradients(result, read, f):
    """(input gradients, variable gradients) of a grad_fn given variables,
    checked (TensorFlow's errors)."""
    if not (isinstance(result, (tuple, list)) and len(result) == 2):
        raise TypeError(f"custom_gradient: grad_fn of {_name(f)} was given "
                        "variables, so it must return (input gradients, "
                        "variable gradients)")
    grads, variable_grads = result
    variable_grads = _as_list(variable_grads)
    if len(variable_grads) != len(read):
        raise ValueError(f"custom_gradient: grad_fn of {_name(f)} must "
                         "return a gradient for each variable: it returned "
                         f"{len(variable_grads)} for {len(read)}")
    return grads, variable_grads


_custom_gradient_kernel.traces_bodies = True


def custom_gradient(f):
    """Decorator: f with a gradient of its own (tf.custom_gradient).

    f(*x) returns (y, grad_fn); grad_fn(*dy), given the cotangents of y
    (one per floating-point output), returns those of x (one per input,
    None for none). grad_fn may use values f computed: they are saved for
    it by the forward pass. Higher derivatives differentiate grad_fn.

    If f reads trainable tracec.Variables (not passed as inputs), grad_fn
    is called as grad_fn(*dy, variables=[those variables]) and returns
    (input gradients, [a gradient per variable]), as in TensorFlow: the
    variables' values are inputs of the call, so tapes and
    implicit_grad give them grad_fn's gradients.

    >>> import numpy as np, tracec
    >>> @tracec.custom_gradient
    ... def log1pexp(x):
    ...     e = tracec.numpy.exp(x)
    ...     return tracec.numpy.log1p(e), lambda dy: dy * (1 - 1 / (1 + e))
    >>> tracec.grad(lambda x: tracec.numpy.sum(log1pexp(x)))(
    ...     np.array([0.0, 100.0], np.float32))
    array([0.5, 1. ], dtype=float32)
    """
    # The variables f was seen to read (found by a trace that stops at
    # the read): inputs of every later call.
    variables = []

    @functools.wraps(f)
    def wrapper(*args):
        if not _C.is_tracing() and not _core._tapes:
            # Eagerly with no tape, nothing differentiates the call: f runs
            # as it is and grad_fn is not called (TensorFlow's).
            return _split_result(f(*args), f)[0]
        depth = len(_core._variable_scopes)
        while True:
            inputs = tuple(v for v in variables
                           if not any(v is a for a in args))
            try:
                return apply(_custom_gradient_kernel, tuple(args) + inputs,
                             f, inputs, name="custom_gradient")
            except _ReadsVariables as error:
                if error.depth != depth:
                    raise  # an enclosing custom_gradient's
                variables.extend(error.variables)
    return wrapper


def _checkpoint_kernel(*args_and_static):
    *args, f, policy = args_and_static
    info = {}

    def body(values):
        with _core.suspended_tapes():
            outputs, info["single"] = _outputs(f(*values),
                                               "an output of the function")
        return outputs

    values = [_core.to_value(a, "an argument") for a in args]
    results = _C.checkpoint(body, values, policy, _symbol(f, "checkpoint"))
    return results[0] if info["single"] else tuple(results)


_checkpoint_kernel.traces_bodies = True


def checkpoint(f, policy: str = "nothing"):
    """f, whose intermediates the backward pass recomputes instead of
    saving them (jax.checkpoint / jax.remat). `policy` says what is saved:
    "nothing" (only f's inputs), "contractions" (also the results of
    matmuls and convolutions) or "everything" (no recomputation). The
    gradients are the same, bit for bit.

    >>> import numpy as np, tracec
    >>> layer = tracec.checkpoint(lambda x, w: tracec.numpy.tanh(x @ w))
    >>> x, w = np.ones((2, 3), np.float32), np.ones((3, 3), np.float32)
    >>> tracec.grad(lambda w: tracec.numpy.sum(layer(x, w)))(w).shape
    (3, 3)
    """
    if policy not in _POLICIES:
        raise ValueError(f"checkpoint: policy must be one of "
                         f"{', '.join(_POLICIES)}, got {policy!r}")

    @functools.wraps(f)
    def wrapper(*args):
        return apply(_checkpoint_kernel, tuple(args), f, policy,
                     name="checkpoint")
    return wrapper


def split_nondiff(args, nondiff_argnums):
    """(the positions of the arguments at `nondiff_argnums` (JAX's), those
    arguments, the others) of a call, checked."""
    for i in nondiff_argnums:
        if not -len(args) <= i < len(args):
            raise ValueError(f"nondiff_argnums {i} is out of range for a "
                             f"call with {len(args)} arguments")
    fixed = {i % len(args) for i in nondiff_argnums}
    return (fixed, tuple(args[i] for i in sorted(fixed)),
            tuple(a for i, a in enumerate(args) if i not in fixed))


class RuleFunction:
    """What custom_vjp and custom_jvp share: the function, its
    nondiff_argnums, its wrappers by call structure, and whether one of
    its rules runs (then a call of the function is its primal, as JAX's
    rules call it)."""

    def __init__(self, fun, nondiff_argnums=()):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self._wrappers = {}
        self._in_rule = 0

    @contextlib.contextmanager
    def _rule(self):
        self._in_rule += 1
        try:
            yield
        finally:
            self._in_rule -= 1


class custom_vjp(RuleFunction):
    """jax.custom_vjp: a function whose reverse-mode derivative is given
    by a rule, `f.defvjp(fwd, bwd)`: `fwd(*args)` returns `(output,
    residuals)`, `bwd(*nondiff_args, residuals, output_cotangent)` a tuple
    with a cotangent per differentiable argument (of its structure; None
    for zero). Arguments and outputs may be nested structures of arrays;
    those at `nondiff_argnums` are passed to fwd and bwd as they are (and
    are part of the cache key: hashable). Built on custom_gradient, so it
    composes with grad, vjp, jit and higher orders (the rule is
    differentiated); forward mode (jvp) of it is an error, as in JAX.

    >>> @tracec.custom_vjp
    ... def clip_gradient(x):
    ...     return x
    >>> clip_gradient.defvjp(lambda x: (x, None),
    ...                      lambda _, g: (tnp.clip(g, -1.0, 1.0),))
    """

    def __init__(self, fun, nondiff_argnums=()):
        super().__init__(fun, nondiff_argnums)
        self.fwd = self.bwd = None

    def defvjp(self, fwd, bwd):
        self.fwd, self.bwd = fwd, bwd
        return self

    def __call__(self, *args):
        if self._in_rule:
            return self.fun(*args)
        if self.fwd is None:
            raise TypeError(f"no VJP defined for the custom_vjp function "
                            f"{_name(self.fun)}: call defvjp(fwd, bwd) first")
        fixed, nondiff, diff = split_nondiff(args, self.nondiff_argnums)
        leaves, structure = tree_flatten(diff)
        key = (structure, len(args), nondiff)
        try:
            wrapper = self._wrappers.get(key)
        except TypeError:  # unhashable nondiff arguments: not cached
            key, wrapper = None, None
        if wrapper is None:
            wrapper = self._wrapper(structure, len(args), fixed, nondiff,
                                    [tree_flatten(a)[1] for a in diff])
            if key is not None:
                self._wrappers[key] = wrapper
        return wrapper(*leaves)

    def _wrapper(self, structure, n, fixed, nondiff, arg_structures):
        out = {}

        def arguments(leaves):
            diff = iter(structure.unflatten(list(leaves)))
            fixed_values = iter(nondiff)
            return [next(fixed_values) if i in fixed else next(diff)
                    for i in range(n)]

        def inner(*leaves):
            with self._rule():
                output, residuals = _fwd_result(
                    self.fwd(*arguments(leaves)), self.fun)
            out_leaves, out["structure"] = tree_flatten(output)

            def grad_fn(*dys):
                cotangent = out["structure"].unflatten(list(dys))
                with self._rule():
                    cts = self.bwd(*nondiff, residuals, cotangent)
                return _cotangent_leaves(cts, arg_structures, self.fun)
            return (out_leaves[0] if len(out_leaves) == 1
                    else tuple(out_leaves)), grad_fn
        inner.__name__ = getattr(self.fun, "__name__", "custom_vjp")
        differentiable = custom_gradient(inner)

        def call(*leaves):
            result = differentiable(*leaves)
            values = [result] if not isinstance(result, tuple) else \
                list(result)
            return out["structure"].unflatten(values)
        return call


def _fwd_result(result, fun):
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        raise TypeError(f"custom_vjp: the fwd rule of {_name(fun)} must "
                        "return a pair (output, residuals)")
    return result


def _cotangent_leaves(cts, arg_structures, fun):
    if not isinstance(cts, (tuple, list)) or len(cts) != len(arg_structures):
        raise TypeError(
            f"custom_vjp: the bwd rule of {_name(fun)} must return a tuple "
            f"of {len(arg_structures)} cotangent(s), one per differentiable "
            f"argument, got {type(cts).__name__}"
            + (f" of {len(cts)}" if isinstance(cts, (tuple, list)) else ""))
    leaves = []
    for i, (ct, structure) in enumerate(zip(cts, arg_structures)):
        if ct is None:
            leaves += [None] * structure.num_leaves
            continue
        ct_leaves, ct_structure = tree_flatten(ct)
        if ct_structure != structure:
            raise TypeError(f"custom_vjp: the bwd rule of {_name(fun)} "
                            f"returned a cotangent {i} of another structure "
                            "than its argument")
        leaves += ct_leaves
    return leaves
