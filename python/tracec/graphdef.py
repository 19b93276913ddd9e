"""Importing TensorFlow GraphDefs (binary .pb or text .pbtxt).

The imported graph is a tracec.function like any other: callable with NumPy
arrays, inside other tracec.functions (a func.call of the graph), under a
tracec.GradientTape, and with tracec.grad/value_and_grad/vjp.

>>> import numpy as np, tracec
>>> f = tracec.import_graphdef("model.pbtxt", inputs=["x"],
...                            outputs=["probs"])            # doctest: +SKIP
>>> x = np.ones((4, 3), np.float32)
>>> f(x).shape                                                # doctest: +SKIP
(4, 2)
>>> g = tracec.grad(lambda x: tracec.numpy.sum(f(x) ** 2))(x)  # doctest: +SKIP
"""
from __future__ import annotations

import os
from typing import Mapping, Optional, Sequence

import numpy as np

from . import _core
from . import _tracec as _C
from .function import Function, _names, _symbol_name
from .signatures import TensorSpec
from .variables import Variable

__all__ = ["import_graphdef", "GraphFunction"]


def import_graphdef(path: "str | os.PathLike",
                    inputs: Sequence[str] = (),
                    outputs: Sequence[str] = (),
                    *,
                    input_dtypes: Sequence[str] = (),
                    input_shapes: Sequence[Sequence[int]] = (),
                    control_outputs: Sequence[str] = (),
                    graph_as_function: bool = False,
                    prune_unused_nodes: bool = False,
                    variables: Optional[Mapping[str, object]] = None,
                    opt_level: Optional[int] = None) -> "GraphFunction":
    """Imports a GraphDef as a tracec.function (tracec-translate's
    `--import-graphdef`, with the same meaning of its arguments).

    `inputs`/`outputs` are tensor names ("node" or "node:1"); `input_dtypes`
    ("DT_FLOAT", ...) and `input_shapes` override the placeholders' own.
    The result takes one array per input (the listed ones, then the other
    placeholders) and returns an array, or a tuple of them.

    The graph's variables (VarHandleOp, by shared_name) are
    tracec.Variables, in `.variables`: `variables` maps a name to the
    tracec.Variable to use (shared with other code) or to an initial value;
    the others start as zeros. Calls update them in place.

    Raises ValueError naming the node for unsupported ops, bad names,
    corrupt files, and for `variables` that the graph lacks or whose shape
    or dtype differs.
    """
    text, graph_inputs, graph_variables = _C.import_graphdef(
        os.fspath(path), list(inputs), list(input_dtypes),
        [list(s) for s in input_shapes], list(outputs), list(control_outputs),
        graph_as_function, prune_unused_nodes)
    name = _symbol_name(os.path.splitext(os.path.basename(os.fspath(path)))[0])
    return GraphFunction(text, graph_inputs, graph_variables,
                         dict(variables or {}), name, opt_level)


class GraphFunction(Function):
    """An imported graph: a tracec.function whose body is the graph's
    @main, called as a func.call (so the compiler differentiates it like a
    traced function).

    `ir` is the imported module's text; `input_signature` one TensorSpec per
    input, named after its node; `variables` the graph's variables by
    name."""

    # The graph's variables by name, set by __init__ (not Function's
    # property, the variables of its traces).
    variables = None

    def __init__(self, text, inputs, variables, given, name, opt_level):
        self.ir = text
        self.variables = {}
        for var_name, (dtype, shape) in variables:
            value = given.pop(var_name, None)
            dtype = _core.numpy_dtype(dtype)
            if value is None:
                value = Variable(np.zeros(shape, dtype), name=var_name)
            elif not isinstance(value, Variable):
                value = Variable(np.asarray(value, dtype), name=var_name)
            if value.shape != tuple(shape) or value.dtype != dtype:
                raise ValueError(
                    f"variable {var_name!r} of the graph is "
                    f"{tuple(shape)} {dtype.name}, but the one given is "
                    f"{value.shape} {value.dtype.name}")
            self.variables[var_name] = value
        if given:
            raise ValueError(f"variables {sorted(given)} are not variables "
                             f"of the graph (it has {list(self.variables)})")
        symbol = f"graph_{_symbol_name(name)}_{next(_names)}"
        handles = [v._handle for v in self.variables.values()]
        graph_variables = list(self.variables.values())
        specs = [TensorSpec(shape, dtype, name=node)
                 for node, (dtype, shape) in inputs]

        def graph(*args):
            values = [_core.to_value(a, f"input {i} ({s.name}) of {name}")
                      for i, (a, s) in enumerate(zip(args, specs))]
            _core._set_location()
            results = _C.call_module(symbol, text, "main", values, handles)
            if _core._tapes:
                _core.record_on_tapes(values, results, args)
                for tape in _core._tapes:
                    tape._called_variables.update(
                        (id(v), (v, name, False)) for v in graph_variables)
            if len(results) == 1:
                return results[0]
            return tuple(results) if results else None

        graph.__name__ = name
        super().__init__(graph, input_signature=specs, name=name,
                         jit_compile_opt_level=opt_level)

    def __repr__(self):
        ins = ", ".join(f"{s.name}: {s}" for s in self._input_signature)
        return f"<tracec.GraphFunction {self._name}({ins})>"
