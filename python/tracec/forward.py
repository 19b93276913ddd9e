"""Forward mode and Jacobians: how jvp, jacfwd, jacrev and hvp (api.py) are
traced.

Each builds a symbolic function that records trace ops (`trace.jvp`,
`trace.vjp`, `trace.grad`) at Values; function.call_symbolic compiles it
per signature (or, inside a trace, records it in place), and the
compiler's `trace-autodiff` pass differentiates: `jvp` generates one
`__jvp_f` (one forward sweep carrying primal and tangent values together),
`hvp` is the jvp of a gradient, so it costs one forward and one backward
sweep with tangents (about 4 passes of f, against 6 or more
reverse-over-reverse).
"""
from __future__ import annotations

import numpy as np

from . import _core
from . import _tracec as _C
from . import numpy as tnp
from ._core import Value
from .batching import vmap as _vmap
from ._tree import tree_flatten
from .function import call_symbolic


def _name_of(f):
    return getattr(f, "__name__", type(f).__name__).replace("<lambda>",
                                                           "lambda")


def _as_array(x):
    if isinstance(x, (Value, np.ndarray)):
        return x
    return np.asarray(x, np.float32 if isinstance(x, float) else None)


def _outputs(result, f):
    """f's result as a list of arrays, and whether it was one array."""
    if isinstance(result, (tuple, list)):
        return list(result), False
    if isinstance(result, dict):
        raise TypeError(f"{_name_of(f)} must return an array or a tuple of "
                        "arrays to be differentiated, not a dict")
    return [result], True


def _check_float(x, what):
    dtype = x.dtype if isinstance(x, np.ndarray) else None
    if isinstance(x, Value):
        dtype = x.dtype
    if str(dtype) not in ("f16", "bf16", "f32", "f64", "float16", "float32",
                          "float64"):
        raise TypeError(f"{what} has dtype {dtype}: only floating-point "
                        "arrays have tangents")


def _jvp_values(f, primals, tangents, argnums):
    """The trace.jvp of f at Values: (outputs, output tangents, single)."""
    (outs, touts), single = _jvps_values(f, primals, [tangents], argnums)
    return outs[0], touts[0], single


def _jvps_values(f, primals, tangent_sets, argnums):
    """trace.jvps of f at Values, one per tangent set, all of one traced
    function: ((outputs per set, output tangents per set), single)."""
    info = {}

    def callee(values):
        outs, info["single"] = _outputs(f(*values), f)
        info["outputs"] = [_core.to_value(o) for o in outs]
        for k, o in enumerate(info["outputs"]):
            _check_float(o, f"output {k} of {_name_of(f)}")
        return info["outputs"]
    results = _C.jvps(callee, [_core.to_value(p) for p in primals],
                      [[_core.to_value(t) for t in ts] for ts in tangent_sets],
                      list(argnums))
    # The outputs, then one tangent per float output.
    n = len(info["outputs"])
    return ([r[:n] for r in results], [r[n:] for r in results]), \
        info["single"]


def jvp(f, primals, tangents):
    """(f(*primals), its tangent along `tangents`) (api.jvp), checked."""
    if not isinstance(primals, (tuple, list)) or \
            not isinstance(tangents, (tuple, list)):
        raise TypeError("jvp takes primals and tangents as tuples "
                        "(tracec.jvp(f, (x,), (v,)))")
    if len(primals) != len(tangents):
        raise TypeError(f"jvp got {len(primals)} primals but "
                        f"{len(tangents)} tangents: one tangent per primal")
    # Primals, tangents and f's output may be nested structures (pytrees).
    primals, structure = tree_flatten(tuple(primals))
    tangents, tangent_structure = tree_flatten(tuple(tangents))
    if tangent_structure != structure:
        raise TypeError(f"jvp got tangents of structure {tangent_structure} "
                        f"for primals of structure {structure}")
    primals = [_as_array(p) for p in primals]
    tangents = [_as_array(t) for t in tangents]
    for i, (p, t) in enumerate(zip(primals, tangents)):
        _check_float(p, f"primal {i} of {_name_of(f)}")
        if tuple(np.shape(p)) != tuple(np.shape(t)):
            raise ValueError(f"tangent {i} has shape {tuple(np.shape(t))} but "
                             f"primal {i} has shape {tuple(np.shape(p))}")
    n = len(primals)
    out = {}

    def flat(*leaves):
        leaves, out["structure"] = tree_flatten(
            f(*structure.unflatten(list(leaves))))
        return tuple(leaves)
    flat.__name__ = _name_of(f)

    def symbolic(*args):
        outs, touts, _ = _jvp_values(flat, args[:n], args[n:], range(n))
        return tuple(outs), tuple(touts)
    symbolic.__name__ = "jvp_" + _name_of(f)
    outs, touts = call_symbolic(symbolic, (*primals, *tangents))
    return (out["structure"].unflatten(list(outs)),
            out["structure"].unflatten(list(touts)))


def _normalize_argnums(argnums):
    return (argnums,) if isinstance(argnums, int) else tuple(argnums)


def jacobian(f, argnums, forward):
    """jacfwd(f) (forward) or jacrev(f), as a function of f's arguments."""
    nums = _normalize_argnums(argnums)
    single = isinstance(argnums, int)

    def symbolic(*args):
        args = list(args)
        values = [_core.to_value(a) for a in args]
        for i in nums:
            if i >= len(args):
                raise TypeError(f"argnums {i} is out of range: {_name_of(f)} "
                                f"was given {len(args)} arguments")
            _check_float(values[i], f"argument {i} of {_name_of(f)}")
        jacobians = []
        for i in nums:
            x = values[i]
            in_shape = tuple(x.shape)
            n_in = int(np.prod(in_shape))
            if forward:
                # The columns J e_k: the jvp at every basis tangent e_k at
                # once, vmap of jvp (one batched forward sweep).
                def column(t):
                    (_, touts), _ = _jvps_values(f, values, [[t]], [i])
                    if len(touts[0]) != 1:
                        raise TypeError(f"jacfwd needs {_name_of(f)} to "
                                        "return one array")
                    return touts[0][0]
                basis = np.eye(n_in, dtype=_np_dtype(x.dtype)).reshape(
                    (n_in,) + in_shape)
                columns = _vmap(column)(basis)
                out_shape = tuple(columns.shape[1:])
                jac = tnp.transpose(tnp.reshape(
                    columns, (n_in, int(np.prod(out_shape)))))
            else:
                # The rows e_j^T J: the vjp at every basis cotangent at
                # once, vmap of vjp (one batched backward sweep).
                def callee(vals):
                    outs, _ = _outputs(f(*vals), f)
                    if len(outs) != 1:
                        raise TypeError(f"jacrev needs {_name_of(f)} to "
                                        "return one array")
                    return [_core.to_value(outs[0])]
                # f's output shape (the ops traced for it are dead code).
                out = callee(values)[0]
                out_shape = tuple(out.shape)
                n_out = int(np.prod(out_shape))

                def row(ct):
                    return _C.vjp(callee, values, [ct], [i], [], True)[1]
                basis = np.eye(n_out, dtype=_np_dtype(out.dtype)).reshape(
                    (n_out,) + out_shape)
                jac = _vmap(row)(basis)
            jacobians.append(tnp.reshape(jac, out_shape + in_shape))
        return jacobians[0] if single else tuple(jacobians)
    symbolic.__name__ = ("jacfwd_" if forward else "jacrev_") + _name_of(f)

    def wrapper(*args):
        return call_symbolic(symbolic, tuple(_as_array(a) for a in args))
    wrapper.__wrapped__ = f
    return wrapper


def _np_dtype(dtype):
    return {"f16": np.float16, "f32": np.float32, "f64": np.float64,
            "bf16": np.float32}.get(str(dtype), np.float32)


def hvp(f, primals, tangents):
    """The Hessian-vector products of f's scalar output (api.hvp), one per
    primal: the jvp of trace.grad."""
    if len(primals) != len(tangents):
        raise TypeError(f"hvp got {len(primals)} primals but "
                        f"{len(tangents)} tangents: one tangent per primal")
    primals = [_as_array(p) for p in primals]
    tangents = [_as_array(t) for t in tangents]
    n = len(primals)

    def gradient(*values):
        def loss(vals):
            outs, _ = _outputs(f(*vals), f)
            if len(outs) != 1:
                raise TypeError(f"hvp needs {_name_of(f)} to return one "
                                "scalar")
            return [_core.to_value(outs[0])]
        return tuple(_C.grad(loss, [_core.to_value(v) for v in values],
                             list(range(n)), [], True, False, False))

    def symbolic(*args):
        outs, touts, _ = _jvp_values(gradient, args[:n], args[n:], range(n))
        return tuple(touts)
    symbolic.__name__ = "hvp_" + _name_of(f)
    return call_symbolic(symbolic, (*primals, *tangents))
