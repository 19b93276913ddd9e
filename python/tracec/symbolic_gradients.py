"""TensorFlow 1's symbolic gradients inside a tracec.function: gradients
and hessians (api.py) of values already recorded, by the C++ tracer's
gradients() (lib/Frontend/SymbolicGradients.cpp), which slices the recorded
ops between xs and ys into a function that trace.vjp differentiates. The
values are those of the hidden tape every traced function runs under
(tape.current_function_tape)."""
from __future__ import annotations

import numpy as np

from . import _core
from . import _tracec as _C
from . import numpy as tnp
from ._tree import tree_leaves
from .custom_gradients import grad_fn_sources
from .forward import jacobian
from .tape import current_function_tape
from .variables import Variable


class AggregationMethod:
    """tf.AggregationMethod: how gradients fanned in from several uses are
    summed. Accepted for TensorFlow's code; tracec's results are the same
    for each (trace-autodiff adds the contributions as it meets them)."""
    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


_AGGREGATION_METHODS = (None, AggregationMethod.ADD_N,
                        AggregationMethod.EXPERIMENTAL_TREE,
                        AggregationMethod.EXPERIMENTAL_ACCUMULATE_N)


def _check_aggregation_method(method):
    if method not in _AGGREGATION_METHODS:
        # TensorFlow's error.
        raise ValueError(f"Invalid aggregation_method specified {method}.")


def _as_list(xs):
    """xs as a list: a tensor is a list of one (TensorFlow's _AsList)."""
    return list(xs) if isinstance(xs, (list, tuple)) else [xs]


def gradients(ys, xs, grad_ys=None, stop_gradients=None,
              unconnected_gradients="none", aggregation_method=None):
    """tf.gradients of the recorded values (api.gradients): the gradient
    of the hidden tape of the function being traced, a list with one
    gradient per x."""
    _check_aggregation_method(aggregation_method)
    tape = current_function_tape()
    stops = tree_leaves(stop_gradients)
    return tape.gradient(ys, grad_fn_sources(_as_list(xs)),
                         output_gradients=grad_ys,
                         unconnected_gradients=unconnected_gradients,
                         _stops=stops)


def hessians(ys, xs, aggregation_method=None):
    """tf.hessians of the recorded values (api.hessians), a list with one
    Hessian per x: jacfwd of the gradients() function of ys with respect to
    each x (forward-over-reverse), reverse-over-reverse for Variables."""
    _check_aggregation_method(aggregation_method)
    xs_list = _as_list(xs)
    current_function_tape()
    if any(isinstance(x, Variable) for x in xs_list):
        return _hessians_reverse(ys, xs_list)
    ys_list = tree_leaves(ys)
    gradient, operands, arguments, positions = _C.gradients_function(
        [_core.to_value(y) for y in ys_list],
        [_core.to_value(x) for x in xs_list], [])
    result = []
    for x, argument, position in zip(xs_list, arguments, positions):
        if argument < 0:
            result.append(None)
            continue

        def gradient_of_x(*values, position=position):
            return gradient(list(values))[position]
        gradient_of_x.__name__ = "gradients"
        hessian = jacobian(gradient_of_x, argument, forward=True)
        result.append(hessian(*operands))
    return result


def _hessians_reverse(ys, xs):
    """hessians reverse-over-reverse: one gradients() of each element of the
    gradient (n backward sweeps over the backward code). For Variables, and
    as the reference the forward-over-reverse form is tested against."""
    xs_list = _as_list(xs)
    result = []
    for x, g in zip(xs_list, gradients(ys, xs_list)):
        if g is None:
            result.append(None)
            continue
        n = int(np.prod(x.shape))
        flat = tnp.reshape(g, (n,))
        rows = [tnp.reshape(gradients(flat[i], x)[0], (1, n))
                for i in range(n)]
        result.append(tnp.reshape(tnp.concatenate(rows, 0),
                                  tuple(x.shape) + tuple(x.shape)))
    return result
