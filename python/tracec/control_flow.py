"""tracec.cond, tracec.while_loop, tracec.fori_loop (jax.lax's): inside a
traced function the branches and bodies are traced once into scf.if,
scf.while and scf.for; eagerly they run as Python control flow."""
from __future__ import annotations

import numpy as np

from . import _core
from . import _tracec as _C
from ._core import Value, apply
from .hoisted_reads import trace_op


def _symbolic():
    return _core.is_tracing()


def _as_list(result):
    single = isinstance(result, (Value, np.ndarray, float, int))
    values = [result] if single else list(result)
    return [_core.to_value(v) for v in values], single


def _region(fn, singles):
    site = _core.call_site()

    def body(values):
        with _core.suspended_tapes():
            out, single = _as_list(fn(*values))
        singles.append(single)
        if site is not None:
            _C.set_location(*site)  # the op's, built after its bodies
        return out
    return body


def _cond_kernel(pred, *operands_and_fns):
    *operands, true_fn, false_fn = operands_and_fns
    singles = []
    results = trace_op(lambda: _C.cond(pred, _region(true_fn, singles),
                                       _region(false_fn, singles),
                                       list(operands)))
    return results[0] if singles[-1] else results


_cond_kernel.traces_bodies = True


def cond(pred, true_fn, false_fn, *operands):
    """true_fn(*operands) if pred else false_fn(*operands); both branches
    return the same types (scf.if)."""
    if not _symbolic() and not isinstance(pred, Value):
        return true_fn(*operands) if bool(np.asarray(pred)) else \
            false_fn(*operands)
    return apply(_cond_kernel, (pred, *operands), true_fn, false_fn,
                 name="cond")


def _while_kernel(*init_and_fns):
    *init, cond_fn, body_fn = init_and_fns
    singles = []
    results = trace_op(lambda: _C.while_loop(
        _region(cond_fn, []), _region(body_fn, singles), list(init)))
    return results[0] if len(init) == 1 and singles[-1] else results


_while_kernel.traces_bodies = True


def while_loop(cond_fun, body_fun, init_val):
    """while cond_fun(val): val = body_fun(val) (scf.while). `init_val` is
    an array or a tuple of arrays; the loop keeps their types."""
    single = not isinstance(init_val, (tuple, list))
    init = [init_val] if single else list(init_val)
    if not _symbolic() and not any(isinstance(v, Value) for v in init):
        val = init_val
        while bool(np.asarray(cond_fun(val))):
            val = body_fun(val)
        return val
    cf = (lambda v: cond_fun(v)) if single else (lambda *v: cond_fun(v))
    bf = (lambda v: body_fun(v)) if single else (lambda *v: body_fun(v))
    result = apply(_while_kernel, tuple(init), cf, bf, name="while_loop")
    return result if single or isinstance(result, tuple) else tuple(result)


def _fori_kernel(*init_and_static):
    *init, lower, upper, body_fn = init_and_static
    singles = []
    results = trace_op(lambda: _C.fori_loop(
        lower, upper, _region(body_fn, singles), list(init)))
    return results[0] if len(init) == 1 and singles[-1] else results


_fori_kernel.traces_bodies = True


def _bound_value(bound):
    if isinstance(bound, Value):
        return bound
    return _C.constant(np.asarray(bound, np.int64))


def _fori_values_kernel(lower, upper, *init_and_fn):
    *init, body_fn = init_and_fn
    singles = []
    results = trace_op(lambda: _C.fori_loop(
        _bound_value(lower), _bound_value(upper), _region(body_fn, singles),
        list(init)))
    return results[0] if len(init) == 1 and singles[-1] else results


_fori_values_kernel.traces_bodies = True


def _static_bound(bound, what):
    """A bound known while tracing (a number or an array), as an int."""
    array = np.asarray(bound)
    if array.ndim != 0 or array.dtype.kind not in "iub":
        raise TypeError(f"fori_loop's {what} bound must be an integer scalar "
                        f"(or a rank-0 integer tracec value), got "
                        f"{type(bound).__name__} of shape {array.shape} and "
                        f"dtype {array.dtype}")
    return int(array)


def fori_loop(lower, upper, body_fun, init_val):
    """for i in range(lower, upper): val = body_fun(i, val) (scf.for; `i` is
    an int64 scalar). Inside a traced function the bounds may be traced
    values too (rank-0 int32/int64: the trip count is computed when the
    function runs)."""
    single = not isinstance(init_val, (tuple, list))
    init = [init_val] if single else list(init_val)
    dynamic = isinstance(lower, Value) or isinstance(upper, Value)
    if not _symbolic() and not dynamic and \
            not any(isinstance(v, Value) for v in init):
        val = init_val
        for i in range(_static_bound(lower, "lower"),
                       _static_bound(upper, "upper")):
            val = body_fun(np.asarray(i, np.int64), val)
        return val
    bf = (lambda i, v: body_fun(i, v)) if single else \
        (lambda i, *v: body_fun(i, v))
    if dynamic:
        result = apply(_fori_values_kernel, (lower, upper, *init), bf,
                       name="fori_loop")
    else:
        result = apply(_fori_kernel, tuple(init),
                       _static_bound(lower, "lower"),
                       _static_bound(upper, "upper"), bf, name="fori_loop")
    return result if single or isinstance(result, tuple) else tuple(result)


def scan(f, init, xs=None, length=None, reverse=False):
    """jax.lax.scan: `carry, y = f(carry, x)` for each x of `xs` along
    its first axis (in reverse order with `reverse`), returning the final
    carry and the ys stacked. `init`, `xs` and the ys may be nested
    structures of arrays; with `xs` None, f gets None `length` times.
    Compiled as one fori_loop: the first step runs before it (it gives the
    ys' shapes), the others in the loop, each writing its y at its
    position (scatter_add into zeros), so gradients flow to init and xs."""
    from . import numpy as tnp
    from ._tree import tree_flatten, tree_leaves, tree_map
    x_leaves, x_structure = tree_flatten(xs)
    sizes = {tnp._shape(a)[0] if tnp._ndim(a) else None for a in x_leaves}
    if None in sizes:
        raise ValueError("scan: every array of xs needs a leading axis to "
                         "scan over")
    if length is not None:
        sizes.add(int(length))
    if len(sizes) != 1:
        raise ValueError(f"scan: xs' leading sizes and length differ: "
                         f"{sorted(sizes, key=str)}" if sizes else
                         "scan needs xs or a length")
    n = sizes.pop()
    if n == 0:
        raise ValueError("scan over zero steps: the ys' shapes would not be "
                         "known (trace at least one step)")

    def x_at(i):
        return x_structure.unflatten(
            [tnp.take(a, i, axis=0) for a in x_leaves])

    def position(step):
        return (n - 1 - step) if reverse else step

    def call(carry, i):
        result = f(carry, x_at(i))
        if not isinstance(result, (tuple, list)) or len(result) != 2:
            raise TypeError("scan: f must return a pair (carry, y)")
        new_carry, y = result
        if tree_flatten(new_carry)[1] != carry_structure:
            raise TypeError("scan: f's carry comes back with another "
                            "structure than init's")
        return new_carry, y

    if _symbolic():
        # Traced from the start, as JAX traces them: the first step computes
        # with tracec's ops and dtypes, as the loop's steps do.
        init = tree_map(_traced_leaf, init)
    carry_structure = tree_flatten(init)[1]
    first = position(0)
    carry, y0 = call(init, np.asarray(first, np.int32))
    y_leaves, y_structure = tree_flatten(y0)
    ys = [tnp.scatter_add(tnp.zeros((n,) + tnp._shape(y), _dtype(y)),
                          np.asarray([first], np.int32),
                          tnp.expand_dims(y, 0)) for y in y_leaves]
    carry_leaves = tree_leaves(carry)
    k = len(carry_leaves)

    def body(step, values):
        i = position(step)
        new_carry, y = call(carry_structure.unflatten(list(values[:k])), i)
        index = tnp.reshape(i, (1,))
        written = [tnp.scatter_add(buffer, index, tnp.expand_dims(v, 0))
                   for buffer, v in zip(values[k:], tree_leaves(y))]
        return tuple(tree_leaves(new_carry)) + tuple(written)

    if n > 1:
        out = fori_loop(1, n, body, tuple(carry_leaves) + tuple(ys))
        carry_leaves, ys = list(out[:k]), list(out[k:])
    return carry_structure.unflatten(carry_leaves), \
        y_structure.unflatten(ys)


def _traced_leaf(x):
    if isinstance(x, (np.ndarray, np.generic, float, int)):
        return _core.to_value(_core.number_as_array(x))
    return x


def _dtype(x):
    return x.dtype if isinstance(x, Value) else np.asarray(x).dtype
