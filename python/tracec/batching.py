"""vmap (JAX's batching transform): how it is traced.

vmap(f) is a function whose symbolic body traces f at one example (the
mapped dims removed) and records a trace.vmap op of it; the compiler's
trace-vmap pass generates the batched function from the ops' batching
rules. Nothing is batched in Python. Eagerly, the vmapped function is
traced and compiled once per signature; inside a trace (tracec.function,
grad, another vmap) it records its op in place, so vmap composes with the
other transforms: vmap(grad(f)) gives per-example gradients.

in_axes and out_axes are JAX's: an int (the mapped dim, negative from the
end) or None (not mapped) for everything, or a tuple with one entry per
positional argument, each an int, None or a pytree prefix of the argument.
Keyword arguments are mapped along their leading dim (as in JAX).
"""
from __future__ import annotations

import numpy as np

from . import _core
from . import _tracec as _C
from . import numpy as _tnp
from ._core import Value
from ._tree import tree_flatten, tree_leaves
from .function import call_symbolic

_ARRAYS = (Value, np.ndarray, np.generic)


def _name_of(f):
    return getattr(f, "__name__", type(f).__name__)


def _check_axes(spec, what):
    """A TypeError unless `spec` is an int, None, or tuples, lists and
    dicts of them (JAX's rule)."""
    if isinstance(spec, (list, tuple)):
        for entry in spec:
            _check_axes(entry, what)
    elif isinstance(spec, dict):
        for entry in spec.values():
            _check_axes(entry, what)
    elif isinstance(spec, bool) or not (spec is None or isinstance(spec, int)):
        raise TypeError(f"vmap {what} must be an int, None, or (nested) "
                        "tuples, lists and dicts of them, but got "
                        f"{type(spec).__name__} {spec!r}")


def _axes_of_leaves(prefix, tree, what):
    """One axis (int or None) per leaf of `tree`, from `prefix`, an int,
    None or a pytree prefix of `tree`."""
    if prefix is None or isinstance(prefix, int):
        return [prefix] * len(tree_leaves(tree))
    if isinstance(prefix, (list, tuple)) and isinstance(tree, (list, tuple)) \
            and len(prefix) == len(tree):
        return [a for p, t in zip(prefix, tree)
                for a in _axes_of_leaves(p, t, what)]
    if isinstance(prefix, dict) and isinstance(tree, dict) \
            and set(prefix) == set(tree):
        return [a for k in sorted(tree)
                for a in _axes_of_leaves(prefix[k], tree[k], what)]
    raise ValueError(f"vmap {what} {prefix!r} does not match the structure "
                     f"it applies to ({type(tree).__name__} "
                     f"{tree_flatten(tree)[1]!r}): give an int, None, or "
                     "a prefix of that structure")


def _ndim(x):
    return len(x.shape) if isinstance(x, Value) else np.ndim(x)


def _normalized(axis, leaf, k):
    """The op's in_axes entry of array leaf `k`: the dim, or -1 (None)."""
    if axis is None:
        return -1
    ndim = _ndim(leaf)
    if not -ndim <= axis < ndim:
        raise ValueError(
            f"vmap was requested to map leaf {k} of the arguments along "
            f"axis {axis}, which implies that its rank should be at least "
            f"{axis + 1 if axis >= 0 else -axis}, but it is only {ndim}")
    return axis % ndim


def vmap(f, in_axes=0, out_axes=0):
    """f mapped over dims of its arguments (jax.vmap): vmap(f)(xs) stacks
    f(x) for each x along xs's leading dim, computed by one batched
    function, not a loop.

    >>> import numpy as np, tracec, tracec.numpy as tnp
    >>> xs = np.arange(6, dtype=np.float32).reshape(3, 2)
    >>> tracec.vmap(lambda x: tnp.dot(x, x))(xs)
    array([ 1., 13., 41.], dtype=float32)
    """
    if not callable(f):
        raise TypeError(f"vmap requires a callable, got {f!r}")
    _check_axes(in_axes, "in_axes")
    _check_axes(out_axes, "out_axes")

    def symbolic(*args_and_kwargs):
        *args, kwargs = args_and_kwargs
        if isinstance(in_axes, (list, tuple)):
            if len(in_axes) != len(args):
                raise ValueError(
                    f"vmap in_axes must be an int, None, or a tuple of "
                    f"entries corresponding to the positional arguments "
                    f"passed to the function, but got len(in_axes)="
                    f"{len(in_axes)}, len(args)={len(args)}")
            axes = _axes_of_leaves(list(in_axes), list(args), "in_axes")
        else:
            axes = _axes_of_leaves(in_axes, list(args), "in_axes")
        axes += [0] * len(tree_leaves(kwargs))
        leaves, structure = tree_flatten((list(args), kwargs))
        operands, operand_axes, positions = [], [], []
        for k, (leaf, axis) in enumerate(zip(leaves, axes)):
            if isinstance(leaf, _ARRAYS):
                operands.append(_core.to_value(leaf))
                operand_axes.append(_normalized(axis, leaf, k))
                positions.append(k)
            elif axis is not None:
                _normalized(axis, leaf, k)  # raises: a Python scalar is 0-D
        sizes = {x.shape[a] for x, a in zip(operands, operand_axes)
                 if a >= 0}
        if not sizes:
            raise ValueError("vmap must have at least one non-None value "
                             "in in_axes")
        if len(sizes) > 1:
            detail = ", ".join(
                f"argument {k} of shape {tuple(x.shape)} along axis {a}"
                for k, x, a in zip(positions, operands, operand_axes)
                if a >= 0)
            raise ValueError("vmap got inconsistent sizes for array axes "
                             f"to be mapped: {detail}")
        out = {}

        def callee(values):
            example = list(leaves)
            for k, v in zip(positions, values):
                example[k] = v
            positional, keywords = structure.unflatten(example)
            result = f(*positional, **keywords)
            result_leaves, out["structure"] = tree_flatten(result)
            for leaf in result_leaves:
                if not isinstance(leaf, _ARRAYS + (int, float, bool)):
                    raise TypeError(
                        f"vmap: {_name_of(f)} must return arrays (or "
                        f"nested lists, tuples, dicts of them), but "
                        f"returned a {type(leaf).__name__}")
            return [_core.to_value(leaf) for leaf in result_leaves]

        results = _C.vmap(callee, operands, operand_axes, [0])
        result = out["structure"].unflatten(results)
        moves = _axes_of_leaves(out_axes, result, "out_axes")
        moved = []
        for r, axis in zip(results, moves):
            if axis is None:
                raise ValueError("vmap out_axes=None is not supported: "
                                 "tracec returns every output batched")
            if not -len(r.shape) <= axis < len(r.shape):
                raise ValueError(f"vmap out_axes {axis} is out of range for "
                                 f"an output of rank {len(r.shape)}")
            moved.append(_tnp.moveaxis(r, 0, axis) if axis % len(r.shape)
                         else r)
        return out["structure"].unflatten(moved)

    symbolic.__name__ = "vmap_" + _name_of(f).replace("<lambda>", "lambda")

    def wrapper(*args, **kwargs):
        return call_symbolic(symbolic, tuple(args) + (kwargs,))
    wrapper.__wrapped__ = f
    return wrapper
