"""tracec.cond, tracec.while_loop, tracec.fori_loop (jax.lax's): inside a
traced function the branches and bodies are traced once into scf.if,
scf.while and scf.for; eagerly they run as Python control flow."""
from __future__ import annotations

import numpy as np

from . import _core
from . import _tracec as _C
from ._core import Value, apply


def _symbolic():
    return _C.is_tracing()


def _as_list(result):
    single = isinstance(result, (Value, np.ndarray, float, int))
    values = [result] if single else list(result)
    return [_core.to_value(v) for v in values], single


def _region(fn, singles):
    def body(values):
        from .tape import _suspended_tapes
        with _suspended_tapes():
            out, single = _as_list(fn(*values))
        singles.append(single)
        return out
    return body


class _Implicit:
    """A control-flow kernel whose regions also use `num` values of the
    enclosing function (closed over, not passed): on a tape they are
    operands, so gradients reach them; a replay substitutes them."""

    def __init__(self, kernel, originals, num_operands):
        self.kernel = kernel
        self.originals = originals
        self.num_operands = num_operands
        self.__name__ = kernel.__name__

    def __call__(self, *args):
        values = args[:self.num_operands]
        implicit = args[self.num_operands:self.num_operands + len(self.originals)]
        static = args[self.num_operands + len(self.originals):]
        saved = dict(_core._substitutions)
        for original, new in zip(self.originals, implicit):
            _core._substitutions[id(original)] = new
        try:
            return self.kernel(*values, *static)
        finally:
            _core._substitutions.clear()
            _core._substitutions.update(saved)


def _apply_region_op(kernel, operands, *static, name):
    """apply() for an op with traced regions, recording on active tapes the
    tape-tracked values its regions close over as extra operands."""
    tapes = _core._tapes[:]
    if not tapes:
        return apply(kernel, operands, *static, name=name)
    seen = {}
    _core._observers.append(seen)
    try:
        with _suspend_recording():
            result = apply(kernel, operands, *static, name=name)
    finally:
        _core._observers.remove(seen)
    ids = {id(o) for o in operands}
    implicit = [v for k, v in seen.items() if k not in ids and any(
        k in t._tracked for t in tapes)]
    recorded = _Implicit(kernel, implicit, len(operands)) if implicit else kernel
    values = tuple(_core.to_value(o) if not isinstance(o, (int, float, bool))
                   else o for o in operands)
    for tape in tapes:
        tape._record(recorded, values + tuple(implicit), static, result)
    return result


class _suspend_recording:
    def __enter__(self):
        self.saved = _core._tapes[:]
        _core._tapes.clear()

    def __exit__(self, *exc):
        _core._tapes[:] = self.saved


def _cond_kernel(pred, *operands_and_fns):
    *operands, true_fn, false_fn = operands_and_fns
    singles = []
    results = _C.cond(pred, _region(true_fn, singles),
                      _region(false_fn, singles), list(operands))
    return results[0] if singles[0] else results


def cond(pred, true_fn, false_fn, *operands):
    """true_fn(*operands) if pred else false_fn(*operands); both branches
    return the same types (scf.if)."""
    if not _symbolic() and not isinstance(pred, Value):
        return true_fn(*operands) if bool(np.asarray(pred)) else \
            false_fn(*operands)
    return _apply_region_op(_cond_kernel, (pred, *operands), true_fn, false_fn,
                            name="cond")


def _while_kernel(*init_and_fns):
    *init, cond_fn, body_fn = init_and_fns
    singles = []
    results = _C.while_loop(_region(cond_fn, []), _region(body_fn, singles),
                            list(init))
    return results[0] if len(init) == 1 and singles[0] else results


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
    result = _apply_region_op(_while_kernel, tuple(init), cf, bf,
                              name="while_loop")
    return result if single or isinstance(result, tuple) else tuple(result)


def _fori_kernel(*init_and_static):
    *init, lower, upper, body_fn = init_and_static
    singles = []
    results = _C.fori_loop(lower, upper, _region(body_fn, singles), list(init))
    return results[0] if len(init) == 1 and singles[0] else results


def fori_loop(lower, upper, body_fun, init_val):
    """for i in range(lower, upper): val = body_fun(i, val) (scf.for; `i` is
    an int64 scalar)."""
    single = not isinstance(init_val, (tuple, list))
    init = [init_val] if single else list(init_val)
    if not _symbolic() and not any(isinstance(v, Value) for v in init):
        val = init_val
        for i in range(int(lower), int(upper)):
            val = body_fun(np.asarray(i, np.int64), val)
        return val
    bf = (lambda i, v: body_fun(i, v)) if single else \
        (lambda i, *v: body_fun(i, v))
    result = _apply_region_op(_fori_kernel, tuple(init), int(lower),
                              int(upper), bf, name="fori_loop")
    return result if single or isinstance(result, tuple) else tuple(result)
