"""The function transforms of tracec's public API, as thin, documented
wrappers (as jax/_src/api.py is): how each is traced lives in reverse.py
(grad, value_and_grad, vjp), forward.py (jvp, jacfwd, jacrev, hvp),
batching.py (vmap) and symbolic_gradients.py (TensorFlow 1's gradients and hessians).

Nothing differentiates or batches in Python: every transform records
trace.grad, trace.vjp, trace.jvp or trace.vmap ops that the compiler's
trace-autodiff and trace-vmap passes rewrite. Eagerly, a transformed function is traced and compiled once
per signature; inside a tracec.function, it records its op in place.

>>> import numpy as np, tracec, tracec.numpy as tnp
>>> y, t = tracec.jvp(tnp.sin, (np.float32(0.0),), (np.float32(2.0),))
>>> float(t)
2.0
"""
from __future__ import annotations

from . import backprop as _backprop
from . import batching as _batching
from . import forward as _forward
from . import reverse as _reverse
from . import symbolic_gradients as _symbolic_gradients
from . import _core
from ._tree import tree_flatten
from .signatures import TensorSpec

__all__ = ["grad", "value_and_grad", "vjp", "jvp", "jacfwd", "jacrev",
           "hessian", "hvp", "gradients", "hessians", "implicit_grad",
           "implicit_value_and_grad", "gradients_function", "vmap",
           "val_and_grad_function", "make_vjp", "linearize", "eval_shape"]


# ---------------------------------------------------------------------------
# Reverse mode (JAX's)
# ---------------------------------------------------------------------------


def value_and_grad(f, argnums=0, has_aux=False):
    """value_and_grad(f)(*args) -> (f(*args), gradient(s)) (jax.value_and_grad):
    f returns a scalar; one gradient per argnum (a tuple if argnums is).
    An argument may be a pytree (nested lists, tuples, dicts, namedtuples,
    registered classes) of floating-point arrays: its gradient has its
    structure.

    With has_aux=True, f returns a pair (loss, aux): aux (arrays, or nested
    lists/tuples/dicts of them) is returned alongside and not
    differentiated, and the result is ((loss, aux), gradient(s)). f runs
    once.

    >>> def loss(w):
    ...     y = w * w
    ...     return tnp.sum(y), y
    >>> (l, y), g = tracec.value_and_grad(loss, has_aux=True)(
    ...     np.array([1., 2.], np.float32))
    >>> g
    array([2., 4.], dtype=float32)
    """
    return _reverse.transform(f, argnums, with_value=True, has_aux=has_aux)


def grad(f, argnums=0, has_aux=False):
    """grad(f)(*args): the gradient of f's scalar result (jax.grad), with
    respect to argument `argnums` (a tuple of gradients for a tuple). The
    arguments may be pytrees: a params dict gets a dict of gradients.

    With has_aux=True, f returns (loss, aux) and grad returns
    (gradient(s), aux); aux is not differentiated.

    >>> tracec.grad(lambda x: tnp.sum(x * x))(np.array([1., 2.], np.float32))
    array([2., 4.], dtype=float32)
    >>> tracec.grad(lambda p, x: tnp.sum(p["w"] * x + p["b"]))(
    ...     {"w": np.float32(2.0), "b": np.float32(1.0)}, np.float32(3.0))
    {'b': array(1., dtype=float32), 'w': array(3., dtype=float32)}
    """
    return _reverse.transform(f, argnums, with_value=False, has_aux=has_aux)


def vjp(f, *primals, has_aux=False):
    """(f(*primals), vjp_fn) with vjp_fn(cotangent) -> the cotangents of the
    primals, a tuple (jax.vjp). Primals, f's output and the cotangent (of
    the output's structure) may be pytrees; integer outputs take no
    cotangent (any value), integer primals get None.

    With has_aux=True, f returns (output, aux) and vjp returns
    (output, vjp_fn, aux); aux is not differentiated.

    >>> y, vjp_fn = tracec.vjp(lambda x: x * x, np.array([1., 2.], np.float32))
    >>> vjp_fn(np.ones(2, np.float32))
    (array([2., 4.], dtype=float32),)
    """
    return _reverse.vjp(f, primals, has_aux=has_aux)


# ---------------------------------------------------------------------------
# Forward mode and Jacobians (JAX's)
# ---------------------------------------------------------------------------


def jvp(f, primals, tangents):
    """(f(*primals), the tangent of f's output along `tangents`) (jax.jvp):
    the Jacobian-vector product, by forward mode (trace.jvp). `primals` and
    `tangents` are tuples, one tangent per primal, of its structure and
    shapes (converted to its dtype); primals, tangents and f's output may
    be nested structures (pytrees) of floating-point arrays.

    >>> x = np.array([1., 2.], np.float32)
    >>> y, t = tracec.jvp(lambda x: x * x, (x,), (np.ones(2, np.float32),))
    >>> t
    array([2., 4.], dtype=float32)
    """
    return _forward.jvp(f, primals, tangents)


def linearize(f, *primals):
    """(f(*primals), f_jvp) with f_jvp(*tangents) the tangent of f's
    output along them (jax.linearize). Each f_jvp call runs the compiled
    jvp, which computes the primal again (JAX keeps its linearized
    program instead)."""
    primals = tuple(primals)
    out, _ = _forward.jvp(f, primals, primals)

    def f_jvp(*tangents):
        return _forward.jvp(f, primals, tangents)[1]
    return out, f_jvp


# ---------------------------------------------------------------------------
# Batching (JAX's vmap)
# ---------------------------------------------------------------------------


def vmap(f, in_axes=0, out_axes=0):
    """f mapped over a dim of its arguments (jax.vmap): vmap(f)(xs) is f(x)
    for each x along xs's mapped dim, stacked along the outputs' out_axes,
    computed by one batched function (the compiler's trace-vmap pass), not
    a loop. in_axes: an int (negative from the end) or None (not mapped)
    for every argument, or one entry per positional argument (an int, None
    or a pytree prefix of it); out_axes likewise for the outputs (None is
    not supported). Keyword arguments are mapped along their leading dim.
    Composes with grad, jvp, jit and itself: vmap(grad(loss), in_axes=(None,
    0))(w, xs) gives one gradient per example.

    >>> xs = np.arange(6, dtype=np.float32).reshape(3, 2)
    >>> tracec.vmap(lambda x, w: tnp.sum(x * w), in_axes=(0, None))(
    ...     xs, np.float32(2.0))
    array([ 2., 10., 18.], dtype=float32)
    """
    return _batching.vmap(f, in_axes, out_axes)


def eval_shape(f, *args, **kwargs):
    """The shapes and dtypes of f's outputs (tracec.TensorSpecs, in the
    outputs' structure) for arguments that are arrays, TensorSpecs or
    anything with `shape` and `dtype` (jax.eval_shape): f is traced, not
    compiled or run."""
    leaves, structure = tree_flatten((args, kwargs))
    positions = [i for i, a in enumerate(leaves)
                 if hasattr(a, "shape") and hasattr(a, "dtype")]
    specs = [(_core.dtype_name(leaves[i].dtype),
              [None if d is None else int(d) for d in leaves[i].shape])
             for i in positions]
    found = {}

    def body(values):
        filled = list(leaves)
        for i, v in zip(positions, values):
            filled[i] = v
        args_, kwargs_ = structure.unflatten(filled)
        out_leaves, found["structure"] = tree_flatten(f(*args_, **kwargs_))
        out_values = [_core.to_value(o, "an output") for o in out_leaves]
        found["specs"] = [TensorSpec(
            tuple(v.shape), "bf16" if v.dtype == "bf16" else
            _core.numpy_dtype(v.dtype)) for v in out_values]
        return out_values
    _core.trace("eval_shape", specs, body)
    return found["structure"].unflatten(found["specs"])


def jacfwd(f, argnums=0):
    """The Jacobian of f (one array output) by forward mode (jax.jacfwd): the
    jvp at every basis tangent, as vmap of jvp (one batched forward sweep).
    The result has shape out.shape + in.shape (a tuple of them if argnums is
    a tuple).

    >>> tracec.jacfwd(lambda x: x * x)(np.array([1., 2.], np.float32))
    array([[2., 0.],
           [0., 4.]], dtype=float32)
    """
    return _forward.jacobian(f, argnums, forward=True)


def jacrev(f, argnums=0):
    """The Jacobian of f (one array output) by reverse mode (jax.jacrev): the
    vjp at every basis cotangent, as vmap of vjp (one batched backward
    sweep); shape out.shape + in.shape.

    >>> tracec.jacrev(lambda x: x * x)(np.array([1., 2.], np.float32))
    array([[2., 0.],
           [0., 4.]], dtype=float32)
    """
    return _forward.jacobian(f, argnums, forward=False)


def hessian(f, argnums=0):
    """The Hessian of f's scalar output with respect to one argument
    (jax.hessian): jacfwd of the gradient, forward-over-reverse; shape
    in.shape + in.shape.

    >>> tracec.hessian(lambda x: tnp.sum(x * x * x))(
    ...     np.array([1., 2.], np.float32))
    array([[ 6.,  0.],
           [ 0., 12.]], dtype=float32)
    """
    if not isinstance(argnums, int):
        raise TypeError("hessian takes one argnum (an int)")
    return jacfwd(grad(f, argnums), argnums)


def hvp(f, primals, tangents):
    """The Hessian-vector product H v of f's scalar output at `primals`
    along `tangents` (tuples, one tangent per primal; returns one product
    per primal), computed forward-over-reverse: the jvp (trace.jvp) of the
    gradient (trace.grad), so the compiler differentiates the backward
    sweep forward instead of sweeping it backward again.

    >>> x = np.array([1., 2.], np.float32)
    >>> tracec.hvp(lambda x: tnp.sum(x * x * x), (x,), (np.ones(2, np.float32),))
    (array([ 6., 12.], dtype=float32),)
    """
    return _forward.hvp(f, primals, tangents)


# ---------------------------------------------------------------------------
# TensorFlow 1's symbolic gradients, inside a tracec.function
# ---------------------------------------------------------------------------


def gradients(ys, xs, grad_ys=None, name="gradients", gate_gradients=False,
              aggregation_method=None, stop_gradients=None,
              unconnected_gradients="none"):
    """Symbolic gradients inside a tracec.function (tf.gradients): a list
    with, for each x of `xs` (a tensor or a list of them), the sum of
    d ys / d x, given `grad_ys` cotangents; `stop_gradients` are held
    constant; unconnected xs give None or zeros ("zero").
    `aggregation_method` (tracec.AggregationMethod), `name` and
    `gate_gradients` are accepted and change nothing.

    >>> @tracec.function
    ... def g(x):
    ...     return tracec.gradients(tnp.sum(x * x), x)[0]
    >>> g(np.array([1., 2.], np.float32))
    array([2., 4.], dtype=float32)
    """
    del name, gate_gradients
    return _symbolic_gradients.gradients(
        ys, xs, grad_ys=grad_ys, stop_gradients=stop_gradients,
        unconnected_gradients=unconnected_gradients,
        aggregation_method=aggregation_method)


def hessians(ys, xs, gate_gradients=False, aggregation_method=None,
             name="hessians"):
    """d^2 ys / d xs^2 (tf.hessians) inside a tracec.function: a list with,
    for each x of `xs` (a tensor or a list of them), the Hessian of sum(ys)
    with respect to it, of shape x.shape + x.shape (None for an x that ys
    do not depend on). `gate_gradients`, `aggregation_method` and `name`
    change nothing.

    Forward-over-reverse (JAX's jacfwd(grad(f))): the recorded ops from xs
    to ys become a function whose gradient (a trace.vjp) is differentiated
    in forward mode (trace.jvp), one jvp per element of x. Each is one
    forward sweep through the primal and backward code together, where
    reverse-over-reverse runs a second backward sweep per element.

    >>> @tracec.function
    ... def h(x):
    ...     return tracec.hessians(tnp.sum(x * x * x), x)[0]
    >>> h(np.array([1., 2.], np.float32))
    array([[ 6.,  0.],
           [ 0., 12.]], dtype=float32)
    """
    del gate_gradients, name
    return _symbolic_gradients.hessians(
        ys, xs, aggregation_method=aggregation_method)


# ---------------------------------------------------------------------------
# The seeds' implicit gradients (tfe.implicit_*) and gradients_function
# ---------------------------------------------------------------------------


def implicit_value_and_grad(f):
    """implicit_value_and_grad(f)(*args) -> (f(*args), [(gradient, variable)])
    with respect to every trainable variable f reads (tfe's
    implicit_value_and_gradients): f runs under a tape.

    >>> v = tracec.Variable(3.0)
    >>> value, [(g, var)] = tracec.implicit_value_and_grad(
    ...     lambda: v * v)()
    >>> g
    array(6., dtype=float32)
    """
    return _backprop.implicit_value_and_grad(f)


def implicit_grad(f):
    """implicit_grad(f)(*args) -> [(gradient, variable)]
    (tfe.implicit_gradients): implicit_value_and_grad without the value."""
    return _backprop.implicit_grad(f)


def gradients_function(f, params=None):
    """gradients_function(f)(*args, dy=None) -> a list with the gradient
    of f with respect to each argument, or to those of `params` (indices
    or parameter names) (TensorFlow's backprop.gradients_function).

    f may return any nested structure of arrays (not only a scalar, unlike
    tracec.grad): the gradient is that of the sum of its floating-point
    outputs, or, with `dy` (cotangents in the structure of f's output),
    the vector-Jacobian product. An argument may be a pytree (its
    gradient has its structure); integer arguments and arguments f's
    outputs do not depend on get None.

    >>> tracec.gradients_function(lambda x, y: x * y)(
    ...     np.float32(2.0), np.float32(3.0))
    [array(3., dtype=float32), array(2., dtype=float32)]
    >>> tracec.gradients_function(lambda x: (x + 2, x * x))(
    ...     np.array([0., 1., 2.], np.float32))
    [array([1., 3., 5.], dtype=float32)]
    """
    return _backprop.gradients_function(f, params)


def val_and_grad_function(f, params=None):
    """val_and_grad_function(f)(*args, dy=None) -> (f(*args), gradients):
    gradients_function with f's value, from one run of f (TensorFlow's
    backprop.val_and_grad_function).

    >>> value, [dx] = tracec.val_and_grad_function(lambda x: x * x)(
    ...     np.float32(3.0), dy=np.float32(2.0))
    >>> dx
    array(12., dtype=float32)
    """
    return _backprop.val_and_grad_function(f, params)


def make_vjp(f, params=None, persistent=True):
    """make_vjp(f)(*args) -> (f(*args), vjp) with vjp(dy=None) -> the list
    of gradients of gradients_function (TensorFlow's backprop.make_vjp).
    vjp may be called any number of times (`persistent` is accepted).

    >>> result, vjp = tracec.make_vjp(lambda x: x * x)(np.float32(3.0))
    >>> vjp(np.float32(2.0))
    [array(12., dtype=float32)]
    """
    return _backprop.make_vjp(f, params, persistent)
