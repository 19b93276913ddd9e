"""Importing TensorFlow GraphDefs (binary .pb or text .pbtxt).

>>> import numpy as np, tracec
>>> f = tracec.import_graphdef("model.pbtxt", inputs=["x"],
...                            outputs=["probs"])            # doctest: +SKIP
>>> f(np.ones((4, 3), np.float32)).shape                      # doctest: +SKIP
(4, 2)
"""
from __future__ import annotations

import os
from typing import Optional, Sequence

from . import _tracec

__all__ = ["import_graphdef"]


def import_graphdef(path: "str | os.PathLike",
                    inputs: Sequence[str] = (),
                    outputs: Sequence[str] = (),
                    *,
                    input_dtypes: Sequence[str] = (),
                    input_shapes: Sequence[Sequence[int]] = (),
                    control_outputs: Sequence[str] = (),
                    graph_as_function: bool = False,
                    prune_unused_nodes: bool = False,
                    opt_level: Optional[int] = None):
    """Imports a GraphDef and JIT-compiles its graph (tracec-translate's
    `--import-graphdef` with the same meaning of its arguments).

    `inputs`/`outputs` are tensor names ("node" or "node:1"); `input_dtypes`
    ("DT_FLOAT", ...) and `input_shapes` override the placeholders' own.
    Returns a callable: NumPy arrays in (the inputs, then one value per
    variable the graph reads), a NumPy array or a tuple of them out. Raises
    ValueError naming the node for unsupported ops, bad names, corrupt
    files.
    """
    text = _tracec.import_graphdef(
        os.fspath(path), list(inputs), list(input_dtypes),
        [list(s) for s in input_shapes], list(outputs), list(control_outputs),
        graph_as_function, prune_unused_nodes)
    if opt_level is None:
        opt_level = int(os.environ.get("TRACEC_OPT_LEVEL", "3"))
    executable = _tracec.compile_module(text, os.fspath(path), opt_level)
    return GraphFunction(executable.function("main"), text)


class GraphFunction:
    """An imported graph, compiled: call it with NumPy arrays."""

    def __init__(self, function, module_text: str):
        self._function = function
        self.ir = module_text
        self.signature = function.signature

    def __call__(self, *args):
        results = self._function(*args)
        if isinstance(results, (list, tuple)):
            return results[0] if len(results) == 1 else tuple(results)
        return results

    def __repr__(self):
        return f"<tracec.GraphFunction {self.signature}>"
