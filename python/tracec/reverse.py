"""Reverse mode: how grad, value_and_grad and vjp (api.py) are traced.

Each builds a symbolic function that records trace.grad or trace.vjp of
the user's function at Values; function.call_symbolic compiles it per
signature (or, inside a trace, records it in place). The trace-autodiff
pass does the differentiation. `has_aux` functions return (output, aux):
aux leaves the gradient op as extra results, not differentiated.
"""
from __future__ import annotations

import numpy as np

from . import _core
from . import _tracec as _C
from ._core import Value
from ._tree import flatten, pack
from .function import Function, call_symbolic

_SCALARS = (int, float, bool)


def _normalize_argnums(argnums):
    return (argnums,) if isinstance(argnums, int) else tuple(argnums)


def _prepare(args, argnums):
    args = list(args)
    for i in argnums:
        # A Python float is float32 (as in JAX); a NumPy float64 scalar
        # (a subclass of float) keeps its dtype.
        if isinstance(args[i], float) and not isinstance(args[i], np.generic):
            args[i] = np.asarray(args[i], np.float32)
    return args


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

    def check(x, path):
        if isinstance(x, (tuple, list)):
            for i, item in enumerate(x):
                check(item, f"{path}[{i}]")
        elif isinstance(x, dict):
            for k, item in x.items():
                check(item, f"{path}[{k!r}]")
        elif not (x is None or isinstance(x, (Value, np.ndarray, np.generic))
                  or type(x) in _SCALARS or _core._is_variable(x)):
            raise TypeError(f"the auxiliary output of {_name_of(f)} "
                            f"(has_aux=True) must hold arrays, but {path} "
                            f"is a {type(x).__name__}")
    check(aux, "aux")
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
    nums = _normalize_argnums(argnums)
    single = isinstance(argnums, int)

    def symbolic(*args):
        positions = [i for i, a in enumerate(args)
                     if isinstance(a, (Value, np.ndarray, np.generic))]
        for i in nums:
            if i >= len(args) or i < -len(args):
                raise TypeError(f"argnums {i} is out of range: "
                                f"{_name_of(f)} was given {len(args)} "
                                "arguments")
            if i not in positions:
                raise TypeError(f"argument {i} of {_name_of(f)} "
                                "is differentiated (argnums) but is not an "
                                "array")
        aux_info = {}

        def callee(values):
            call_args = list(args)
            for i, v in zip(positions, values):
                call_args[i] = v
            result = f(*call_args)
            if not has_aux:
                return [_core.to_value(_single_output(result, f))]
            output, aux = _split_aux(result, f)
            leaves = []
            aux_info["template"] = flatten(aux, leaves)
            aux_values, dtypes = [], []
            for leaf in leaves:
                v = _core.to_value(leaf)
                dtypes.append(v.dtype)
                if v.dtype in _AUX_CARRIER:
                    v = _C.cast(v, _AUX_CARRIER[v.dtype])
                aux_values.append(v)
            aux_info["dtypes"] = dtypes
            return [_core.to_value(_single_output(output, f))] + aux_values

        values = [_core.to_value(args[i]) for i in positions]
        results = _C.grad(callee, values, [positions.index(i) for i in nums],
                          [], True, with_value, has_aux)
        aux = None
        if has_aux:
            n = len(aux_info["dtypes"])
            if with_value:
                aux_values, grads = results[1:1 + n], results[1 + n:]
            else:
                grads, aux_values = results[:len(nums)], results[len(nums):]
            aux_values = [_C.cast(v, d) if v.dtype != d else v
                          for v, d in zip(aux_values, aux_info["dtypes"])]
            aux = pack(aux_info["template"], aux_values)
        else:
            grads = results[1:] if with_value else results
        g = grads[0] if single else tuple(grads)
        if with_value:
            return ((results[0], aux) if has_aux else results[0]), g
        return (g, aux) if has_aux else g

    symbolic.__name__ = ("value_and_grad_" if with_value else "grad_") + \
        _name_of(f).replace("<lambda>", "lambda")

    def wrapper(*args):
        return call_symbolic(symbolic, _prepare(args, nums))
    wrapper.__wrapped__ = f
    return wrapper


def vjp(f, primals, has_aux=False):
    """(f(*primals), vjp_fn[, aux]): f runs compiled; vjp_fn's symbolic body
    records trace.vjp of f at the primals."""

    def forward(*args):
        result = f(*args)
        if has_aux:
            return _split_aux(result, f)
        return _single_output(result, f)
    forward.__name__ = _name_of(f).replace("<lambda>", "lambda")
    outputs = Function(forward)(*primals)

    def vjp_symbolic(*args):
        ps, ct = args[:-1], args[-1]

        def callee(values):
            result = f(*values)
            output = _split_aux(result, f)[0] if has_aux else result
            return [_core.to_value(_single_output(output, f))]
        return tuple(_C.vjp(callee, [_core.to_value(p) for p in ps],
                            [_core.to_value(ct)], list(range(len(ps))), [],
                            True)[1:])

    def vjp_fn(cotangent):
        return call_symbolic(vjp_symbolic, (*primals, cotangent))
    if has_aux:
        return outputs[0], vjp_fn, outputs[1]
    return outputs, vjp_fn
