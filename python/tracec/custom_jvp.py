"""tracec.custom_jvp (jax.custom_jvp): a function whose derivative is
given by a forward-mode rule. Forward mode (jvp) calls the rule
(trace.custom_jvp on the function a call records); reverse mode runs the
function and transposes the rule (the vjp of its tangent outputs, which
are linear in the tangents, at zero tangents), through custom_gradient,
so grad, vjp, jit, vmap and higher orders all see the rule."""
from __future__ import annotations

import inspect

from . import _core
from . import _tracec as _C
from ._core import Value
from ._tree import tree_flatten, tree_map
from .custom_gradients import (RuleFunction, _name, custom_gradient,
                               split_nondiff)


def _is_float(value):
    return isinstance(value, Value) and str(value.dtype) in (
        "f16", "bf16", "f32", "f64")


def _positional(fun, args, kwargs):
    """The arguments of a call of fun, keywords and defaults included, as
    positional ones (JAX's resolve_kwargs): the rule gets them all."""
    bound = inspect.signature(fun).bind(*args, **kwargs)
    bound.apply_defaults()
    if bound.kwargs:
        raise TypeError(f"custom_jvp: the keyword arguments "
                        f"{sorted(bound.kwargs)} of {_name(fun)} have no "
                        "position")
    return bound.args


class custom_jvp(RuleFunction):
    """jax.custom_jvp: `f.defjvp(rule)` with `rule(primals, tangents)`
    returning `(primal_out, tangent_out)`, tangent_out linear in the
    tangents (tuples of the arguments and of their tangents, each of the
    argument's structure); or `f.defjvps(*rules)`, one per argument,
    `rule(tangent, primal_out, *primals)` (None: no dependence), whose
    terms are summed. The arguments at `nondiff_argnums` are passed to the
    rule first, as they are (and are part of the cache key: hashable).
    Arguments and outputs may be nested structures of arrays; keyword
    arguments and defaults become positional ones (the rule gets them
    all). Integer arguments get zero tangents of their dtype. Inside the
    rule a call of the function is its primal.

    >>> @tracec.custom_jvp
    ... def log1pexp(x):
    ...     return tnp.log1p(tnp.exp(x))
    >>> @log1pexp.defjvp
    ... def log1pexp_jvp(primals, tangents):
    ...     x, = primals
    ...     return log1pexp(x), tangents[0] * (1 - 1 / (1 + tnp.exp(x)))
    """

    def __init__(self, fun, nondiff_argnums=()):
        super().__init__(fun, nondiff_argnums)
        self.jvp = None
        # The wrappers whose rule is being traced for forward mode: there a
        # call of the function is a call of the traced function, so that
        # forward mode over the rule's output uses the rule again (JAX's).
        self._rules_traced = []

    def defjvp(self, jvp):
        self.jvp = jvp
        return jvp

    def defjvps(self, *jvps):
        """One rule per differentiable argument: jvp(tangent, primal_out,
        *primals) is that argument's term of the output's tangent."""
        def rule(*args):
            *nondiff, primals, tangents = args
            out = self(*self._merged(nondiff, primals))
            total = None
            for term_rule, tangent in zip(jvps, tangents):
                if term_rule is None:
                    continue
                term = term_rule(tangent, out, *primals)
                total = term if total is None else \
                    tree_map(lambda a, b: a + b, total, term)
            if total is None:
                total = tree_map(lambda o: o * 0, out)
            return out, total
        self.jvp = rule
        return rule

    def _merged(self, nondiff, diff):
        """The arguments in order, from the nondiff and the diff ones."""
        n = len(nondiff) + len(diff)
        fixed = {i % n for i in self.nondiff_argnums}
        nondiff, diff = iter(nondiff), iter(diff)
        return [next(nondiff) if i in fixed else next(diff)
                for i in range(n)]

    def __call__(self, *args, **kwargs):
        if self.jvp is None:
            raise AttributeError(f"no JVP defined for the custom_jvp function "
                                 f"{_name(self.fun)}: call defjvp(rule) "
                                 "first")
        if kwargs or getattr(self.fun, "__defaults__", None):
            args = _positional(self.fun, args, kwargs)
        if self._rules_traced:
            called = self._rules_traced[-1].call_in_rule(args)
            if called is not None:
                return called
        if self._in_rule:
            return self.fun(*args)
        _, nondiff, diff = split_nondiff(args, self.nondiff_argnums)
        if not _C.is_tracing() and not _core._tapes:
            return self.fun(*args)  # nothing differentiates the call
        leaves, structure = tree_flatten(diff)
        key = (structure, nondiff)
        try:
            wrapper = self._wrappers.get(key)
        except TypeError:  # unhashable nondiff arguments: not cached
            key, wrapper = None, None
        if wrapper is None:
            wrapper = _Wrapper(self, structure, nondiff)
            if key is not None:
                self._wrappers[key] = wrapper
        return wrapper(leaves)


class _Wrapper:
    """custom_jvp's function for one structure of the differentiable
    arguments (flat leaves in and out)."""

    def __init__(self, owner, structure, nondiff):
        self.owner, self.structure, self.nondiff = owner, structure, nondiff
        self.out = None  # the output's structure

        def inner(*primals):
            return self._inner(*primals)
        inner.__name__ = _name(owner.fun)
        self.differentiable = custom_gradient(inner)

    def _rule_leaves(self, primals, tangents):
        """The rule at these leaves: output leaves, then tangent leaves of
        the float outputs."""
        owner = self.owner
        with owner._rule():
            result = owner.jvp(*self.nondiff,
                               tuple(self.structure.unflatten(primals)),
                               tuple(self.structure.unflatten(tangents)))
        if not isinstance(result, (tuple, list)) or len(result) != 2:
            raise TypeError(f"custom_jvp: the rule of {_name(owner.fun)} "
                            "must return a pair (primal_out, tangent_out)")
        out_leaves, out_structure = tree_flatten(result[0])
        tangent_leaves, tangent_structure = tree_flatten(result[1])
        for what, found in (("primal output", out_structure),
                            ("tangent output", tangent_structure)):
            if found != self.out:
                raise TypeError(f"custom_jvp: the rule of {_name(owner.fun)}"
                                f" returned a {what} of structure {found}, "
                                f"the function's output is {self.out}")
        out_values = [_core.to_value(v, "an output of the rule")
                      for v in out_leaves]
        tangents = []
        for i, (o, t) in enumerate(zip(out_values, tangent_leaves)):
            if not _is_float(o):
                continue
            t = _core.to_value(t, "a tangent of the rule")
            if tuple(t.shape) != tuple(o.shape):
                raise TypeError(
                    f"custom_jvp: the rule of {_name(owner.fun)} returned a "
                    f"tangent of shape {tuple(t.shape)} for output {i} of "
                    f"shape {tuple(o.shape)}")
            tangents.append(t)
        return out_values + tangents

    def _inner(self, *primals):
        with self.owner._rule():
            output = self.owner.fun(*self.owner._merged(
                self.nondiff, self.structure.unflatten(list(primals))))
        out_leaves, self.out = tree_flatten(output)
        out_values = [_core.to_value(v, "an output") for v in out_leaves]

        def grad_fn(*dys):
            # The rule's transpose: the vjp of its tangent map at zero.
            floats = [i for i, p in enumerate(primals) if _is_float(p)]
            zeros = [_C.zeros_like(p) for p in primals]

            def tangent_map(tangents):
                full = list(zeros)
                for i, t in zip(floats, tangents):
                    full[i] = t
                return self._rule_leaves(list(primals),
                                         full)[len(out_values):]
            cts = _C.vjp(tangent_map, [zeros[i] for i in floats], list(dys),
                         list(range(len(floats))), [], True)[len(dys):]
            grads = [None] * len(primals)
            for i, ct in zip(floats, cts):
                grads[i] = ct
            return grads
        return (out_values[0] if len(out_values) == 1
                else tuple(out_values)), grad_fn

    def call_in_rule(self, args):
        """The function at `args` as a call of what the rule being traced
        belongs to; None if `args` differ from that call's in structure."""
        _, nondiff, diff = split_nondiff(args, self.owner.nondiff_argnums)
        leaves, structure = tree_flatten(diff)
        try:
            same = structure == self.structure and nondiff == self.nondiff
        except (TypeError, ValueError):  # arrays among the nondiff ones
            same = False
        if not same:
            return None
        values = _C.call_rules_function(
            [_core.to_value(v, "an argument") for v in leaves])
        return self.out.unflatten(values)

    def __call__(self, leaves):
        result = self.differentiable(*leaves)
        values = list(result) if isinstance(result, tuple) else [result]
        if _C.is_tracing() and all(isinstance(v, Value) for v in values):
            n = len(leaves)

            def rule(inputs):
                primals, float_tangents = inputs[:n], iter(inputs[n:])
                tangents = [next(float_tangents) if _is_float(p)
                            else _C.zeros_like(p) for p in primals]
                self.owner._rules_traced.append(self)
                try:
                    return self._rule_leaves(primals, tangents)
                finally:
                    self.owner._rules_traced.pop()
            _C.set_custom_jvp(values, n, rule)
        return self.out.unflatten(values)
