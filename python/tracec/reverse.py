"""Reverse mode: how grad, value_and_grad and vjp (api.py) are traced.

Each builds a symbolic function that records trace.grad or trace.vjp of
the user's function at Values; function.call_symbolic compiles it per
signature (or, inside a trace, records it in place). The trace-autodiff
pass does the differentiation. `has_aux` functions return (output, aux):
aux leaves the gradient op as extra results, not differentiated.

Arguments are pytrees (_tree: nested lists, tuples, dicts, ...): the
gradient with respect to one has its structure, a gradient per leaf.
"""
from __future__ import annotations

import numpy as np

from . import _core
from . import _tracec as _C
from ._core import Value
from ._tree import leaves_with_paths, tree_flatten, tree_leaves, tree_map
from .function import Function, call_symbolic

_SCALARS = (int, float, bool)
_ARRAYS = (Value, np.ndarray, np.generic)


def _normalize_argnums(argnums):
    return (argnums,) if isinstance(argnums, int) else tuple(argnums)


def _check_argnums(nums, args, f):
    """The argnums as indices >= 0, or a TypeError if one is out of range."""
    for i in nums:
        if i >= len(args) or i < -len(args):
            raise TypeError(f"argnums {i} is out of range: {_name_of(f)} "
                            f"was given {len(args)} arguments")
    return tuple(i % len(args) for i in nums)


def _as_array(x):
    # A Python float is float32 (as in JAX); a NumPy scalar (np.float64 is
    # a subclass of float) keeps its dtype, as a rank-0 array.
    if isinstance(x, np.generic):
        return np.asarray(x)
    if isinstance(x, float):
        return np.asarray(x, np.float32)
    return x


def prepare(args, argnums):
    """The arguments, with the numbers among the leaves of the
    differentiated ones as arrays (also for grad's callers: backprop.py)."""
    return tuple(tree_map(_as_array, a) if i in argnums else a
                 for i, a in enumerate(args))


class _FlatArguments:
    """The leaves of a call's arguments, which of them are arrays (the
    operands of the gradient op), and each argument's leaves."""

    def __init__(self, args):
        self.structures, self.starts, self.leaves = [], [], []
        for a in args:
            leaves, structure = tree_flatten(a)
            self.starts.append(len(self.leaves))
            self.structures.append(structure)
            self.leaves += leaves
        self.positions = [k for k, x in enumerate(self.leaves)
                          if isinstance(x, _ARRAYS)]
        self._operand = {k: j for j, k in enumerate(self.positions)}

    def leaf_range(self, i):
        start = self.starts[i]
        return range(start, start + self.structures[i].num_leaves)

    def args_at(self, values):
        """The arguments with Values at the array leaves."""
        leaves = list(self.leaves)
        for k, v in zip(self.positions, values):
            leaves[k] = v
        return [s.unflatten(leaves[self.starts[i]:
                                   self.starts[i] + s.num_leaves])
                for i, s in enumerate(self.structures)]

    def differentiated(self, nums, f):
        """The operand index of each leaf of the arguments `nums`, checked
        to be floating-point arrays (JAX's rule)."""
        wrt = []
        for i in nums:
            for k in self.leaf_range(i):
                x = self.leaves[k]
                if not (isinstance(x, _ARRAYS) and _core.is_floating(x)):
                    raise self._not_differentiable(i, k, x, f)
                wrt.append(self._operand[k])
        return wrt

    def _not_differentiable(self, i, k, x, f):
        r = self.leaf_range(i)
        arg = self.structures[i].unflatten(self.leaves[r.start:r.stop])
        path = leaves_with_paths(arg)[k - r.start][0]
        what = (f"has dtype {_dtype_of(x)}: only floating-point arrays "
                "have gradients" if isinstance(x, _ARRAYS)
                else "is not an array")
        return TypeError(f"argument {i}{path} of {_name_of(f)} is "
                         f"differentiated (argnums) but {what}")

    def pack(self, nums, grads):
        """The gradients (in `differentiated` order) in the structures of
        the arguments `nums`."""
        out, it = [], iter(grads)
        for i in nums:
            s = self.structures[i]
            out.append(s.unflatten([next(it) for _ in range(s.num_leaves)]))
        return out


def _dtype_of(x):
    if isinstance(x, Value):
        return _core.numpy_dtype(x.dtype).name
    return np.asarray(x).dtype.name


def _name_of(f):
    return getattr(f, "__name__", type(f).__name__)


def _split_aux(result, f):
    """(output, aux) of a has_aux function's result, with a clear error for
    anything but a pair whose aux holds arrays."""
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        what = (f"a {type(result).__name__} of length {len(result)}"
                if isinstance(result, (tuple, list))
                else f"a {type(result).__name__}")
        raise TypeError(f"{_name_of(f)} was differentiated with has_aux=True, "
                        "so it must return a pair (output, aux), but it "
                        f"returned {what}")
    output, aux = result

    for path, x in leaves_with_paths(aux, "aux"):
        if not (isinstance(x, _ARRAYS) or type(x) in _SCALARS
                or _core._is_variable(x)):
            raise TypeError(f"the auxiliary output of {_name_of(f)} "
                            f"(has_aux=True) must hold arrays, but {path} "
                            f"is a {type(x).__name__}")
    return output, aux


def _single_output(result, f):
    if isinstance(result, (tuple, list, dict)):
        raise TypeError(f"{_name_of(f)} must return one scalar array to be "
                        f"differentiated, but it returned a "
                        f"{type(result).__name__} (if it returns "
                        "(output, aux), pass has_aux=True)")
    return result


# Auxiliary results leave the vjp that computes them as float tensors: the
# others travel as a float type that holds them exactly (int64: up to 2**53).
_AUX_CARRIER = {"i1": "f32", "i32": "f64", "i64": "f64"}


def transform(f, argnums, with_value, has_aux=False):
    """grad(f) or value_and_grad(f) (with_value): a function of f's
    arguments whose symbolic body records trace.grad of f at them."""
    single = isinstance(argnums, int)

    def symbolic(*args_and_kwargs):
        # The keyword arguments come last, as a dict: passed to f, not
        # differentiated (JAX's).
        *args, kwargs = args_and_kwargs
        args = tuple(args)
        nums = _check_argnums(_normalize_argnums(argnums), args, f)
        flat = _FlatArguments((*args, kwargs))
        wrt = flat.differentiated(nums, f)
        aux_info = {}

        def callee(values):
            *positional, keywords = flat.args_at(values)
            result = f(*positional, **keywords)
            if not has_aux:
                return [_core.to_value(_single_output(result, f))]
            output, aux = _split_aux(result, f)
            leaves, aux_info["structure"] = tree_flatten(aux)
            aux_values, dtypes = [], []
            for leaf in leaves:
                v = _core.to_value(leaf)
                dtypes.append(v.dtype)
                if v.dtype in _AUX_CARRIER:
                    v = _C.cast(v, _AUX_CARRIER[v.dtype])
                aux_values.append(v)
            aux_info["dtypes"] = dtypes
            return [_core.to_value(_single_output(output, f))] + aux_values

        values = [_core.to_value(flat.leaves[k]) for k in flat.positions]
        results = _C.grad(callee, values, wrt, [], True, with_value, has_aux)
        aux = None
        if has_aux:
            n = len(aux_info["dtypes"])
            if with_value:
                aux_values, grads = results[1:1 + n], results[1 + n:]
            else:
                grads, aux_values = results[:len(wrt)], results[len(wrt):]
            aux_values = [_C.cast(v, d) if v.dtype != d else v
                          for v, d in zip(aux_values, aux_info["dtypes"])]
            aux = aux_info["structure"].unflatten(aux_values)
        else:
            grads = results[1:] if with_value else results
        grads = flat.pack(nums, grads)
        g = grads[0] if single else tuple(grads)
        if with_value:
            return ((results[0], aux) if has_aux else results[0]), g
        return (g, aux) if has_aux else g

    symbolic.__name__ = ("value_and_grad_" if with_value else "grad_") + \
        _name_of(f).replace("<lambda>", "lambda")

    def wrapper(*args, **kwargs):
        nums = _check_argnums(_normalize_argnums(argnums), args, f)
        return call_symbolic(symbolic, prepare(args, nums) + (kwargs,))
    wrapper.__wrapped__ = f
    return wrapper


def vjp(f, primals, has_aux=False):
    """(f(*primals), vjp_fn[, aux]): f runs compiled; vjp_fn's symbolic body
    records trace.vjp of f at the primals. Primals, outputs and cotangents
    are pytrees; the cotangents of integer outputs are ignored, and
    integer or static leaves of the primals get None."""
    primals = prepare(primals, range(len(primals)))

    def forward(*args):
        result = f(*args)
        if has_aux:
            return _split_aux(result, f)
        return result
    forward.__name__ = _name_of(f).replace("<lambda>", "lambda")
    outputs = Function(forward)(*primals)
    output = outputs[0] if has_aux else outputs
    output_leaves, output_structure = tree_flatten(output)
    # Static: which outputs are differentiated (floating-point).
    float_outputs = tuple(_core.is_floating(o) for o in output_leaves)

    def vjp_symbolic(primals, cotangents, float_outputs):
        flat = _FlatArguments(primals)
        wrt = [j for j, k in enumerate(flat.positions)
               if _core.is_floating(flat.leaves[k])]

        def callee(values):
            result = f(*flat.args_at(values))
            result = _split_aux(result, f)[0] if has_aux else result
            return [_core.to_value(o) for o, is_float in
                    zip(tree_leaves(result), float_outputs) if is_float]
        results = _C.vjp(callee, [_core.to_value(flat.leaves[k])
                                  for k in flat.positions],
                         [_core.to_value(c) for c in cotangents], wrt, [],
                         True)
        grads = [None] * len(flat.leaves)
        for j, g in zip(wrt, results[len(cotangents):]):
            grads[flat.positions[j]] = g
        return tuple(flat.pack(range(len(primals)), grads))

    def vjp_fn(cotangent):
        leaves, structure = tree_flatten(cotangent)
        if structure != output_structure:
            # jax.vjp's error (a TypeError).
            raise TypeError(f"the structure of the cotangent, {structure}, "
                            "does not match that of the output of "
                            f"{_name_of(f)}, {output_structure}")
        # A number is an array (converted to its output's dtype), not a
        # static argument traced per value.
        cotangents = [np.asarray(c) if type(c) in _SCALARS else c
                      for c, is_float in zip(leaves, float_outputs)
                      if is_float]
        return call_symbolic(vjp_symbolic,
                             (tuple(primals), cotangents, float_outputs))
    if has_aux:
        return output, vjp_fn, outputs[1]
    return output, vjp_fn
