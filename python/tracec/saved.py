"""tracec.save and tracec.load: a traced function kept as its MLIR text,
the values of its variables and captured arrays, and the structure of its
arguments and results; loaded and compiled again without its Python code,
as jax.export's serialize/deserialize and a SavedModel's concrete
functions do.

    tracec.save(train.get_concrete_function(x, y), "saved/train")
    train = tracec.load("saved/train")     # train(x, y); train.variables

The directory holds module.mlir, data.npz (arg<i>: the variables' and
captured arrays' values) and signature.json (the format, the entry, the
arguments' kinds and names, the structures as JSON). Arguments and results
may nest in tuples, lists, dicts with string keys and None; every argument
leaf must be an array (a static argument is baked into the trace: save
the function traced with it instead).
"""
from __future__ import annotations

import json
import os

import numpy as np

from . import _tracec as _C
from ._tree import TreeDef
from .variables import Variable

FORMAT = 1

_KINDS = {tuple: "tuple", list: "list", dict: "dict", type(None): "none"}
_TYPES = {name: kind for kind, name in _KINDS.items()}


def _encode(tree: TreeDef, what):
    if tree.kind is None:
        return "leaf"
    if tree.kind not in _KINDS or (tree.kind is dict and not all(
            isinstance(k, str) for k in tree.aux)):
        raise ValueError(f"tracec.save: {what} hold a "
                         f"{getattr(tree.kind, '__name__', tree.kind)}; "
                         "saved structures are tuples, lists, dicts with "
                         "string keys and None")
    return {"kind": _KINDS[tree.kind],
            "keys": list(tree.aux) if tree.kind is dict else None,
            "children": [_encode(c, what) for c in tree.children]}


def _decode(node, path):
    if node == "leaf":
        return TreeDef(None, None, ())
    try:
        kind = _TYPES[node["kind"]]
        aux = tuple(node["keys"]) if kind is dict else None
        children = [_decode(c, path) for c in node["children"]]
    except (KeyError, TypeError) as error:
        raise ValueError(f"tracec.load: {path}: signature.json has a "
                         f"malformed structure ({error!r})") from None
    if kind is dict and len(aux) != len(children):
        raise ValueError(f"tracec.load: {path}: signature.json has a dict "
                         "whose keys and children differ in number")
    return TreeDef(kind, aux, children)


def save(concrete, path) -> None:
    """Writes `concrete` (a ConcreteFunction) to the directory `path`."""
    from .concrete_function import ConcreteFunction
    if not isinstance(concrete, ConcreteFunction):
        raise TypeError("tracec.save takes a ConcreteFunction "
                        "(f.get_concrete_function(*args)), got "
                        f"{type(concrete).__name__}")
    structure = concrete._structure
    if concrete._positions != list(range(structure.num_leaves)):
        raise ValueError("tracec.save: every argument leaf must be an array; "
                         "this trace has static (non-array) arguments")
    kinds = concrete._c.argument_kinds()
    names = concrete._c.argument_names()
    captured = iter(concrete._c.captured_inputs())
    handles = iter(concrete._c.variables())
    data, arguments = {}, []
    for i, (kind, name) in enumerate(zip(kinds, names)):
        arguments.append({"kind": kind, "name": name})
        if kind == "captured":
            data[f"arg{i}"] = np.asarray(next(captured))
        elif kind == "variable":
            variable = Variable._registry[id(next(handles))]
            if variable._handle.dtype == "bf16":
                # NumPy has no bf16: no storage a call could update.
                raise ValueError(f"tracec.save: variable {variable.name} is "
                                 "bf16, which save does not support yet")
            data[f"arg{i}"] = variable.numpy()
    signature = {
        "format": FORMAT, "tracec_version": _C.__version__,
        "entry": concrete._c.name, "arguments": arguments,
        "inputs": _encode(structure, "the arguments"),
        "outputs": _encode(concrete._template, "the results")}
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "module.mlir"), "w") as f:
        f.write(concrete.ir())
    np.savez(os.path.join(path, "data.npz"), **data)
    with open(os.path.join(path, "signature.json"), "w") as f:
        json.dump(signature, f, indent=1)


class LoadedFunction:
    """A function tracec.load restored: called with arrays in the saved
    argument structure, it returns the saved result structure; `variables`
    are new tracec.Variables holding the saved values, updated in place by
    the calls."""

    def __init__(self, path):
        try:
            with open(os.path.join(path, "signature.json")) as f:
                signature = json.load(f)
        except json.JSONDecodeError as error:
            raise ValueError(f"tracec.load: {path}: signature.json is not "
                             f"JSON ({error})") from None
        found = signature.get("format") if isinstance(signature, dict) \
            else None
        if found != FORMAT:
            raise ValueError(f"tracec.load: {path}: not a saved function of "
                             f"format {FORMAT} (signature.json's format: "
                             f"{found!r})")
        missing = [k for k in ("entry", "arguments", "inputs", "outputs")
                   if k not in signature]
        if missing:
            raise ValueError(f"tracec.load: {path}: signature.json lacks "
                             f"{', '.join(missing)}")
        self._inputs = _decode(signature["inputs"], path)
        self._outputs = _decode(signature["outputs"], path)
        with open(os.path.join(path, "module.mlir")) as f:
            source = f.read()
        from .function import DEFAULT_OPT_LEVEL
        self._function = _C.compile_module(
            source, os.path.join(path, "module.mlir"),
            DEFAULT_OPT_LEVEL).function(signature["entry"])
        with np.load(os.path.join(path, "data.npz")) as data:
            values = {k: data[k] for k in data.files}
        self.variables = []
        self._extras = []
        for i, argument in enumerate(signature["arguments"]):
            kind = argument["kind"]
            if kind == "input":
                continue
            value = values.get(f"arg{i}")
            if value is None:
                raise ValueError(f"tracec.load: {path}: data.npz has no "
                                 f"value for argument {i} ({kind})")
            if kind == "variable":
                variable = Variable(value, name=argument["name"] or None)
                self.variables.append(variable)
                # Its storage, which the calls update in place.
                self._extras.append(variable._handle.view())
            else:
                self._extras.append(value)
        self.name = signature["entry"]

    def __call__(self, *args):
        leaves = self._inputs.flatten_up_to(tuple(args))
        results = self._function(*leaves, *self._extras)
        if self._outputs.is_leaf:
            return results[0]
        return self._outputs.unflatten(results)

    def __repr__(self):
        return f"<tracec.LoadedFunction {self.name}>"


def load(path) -> LoadedFunction:
    """The function tracec.save wrote to the directory `path`, compiled."""
    return LoadedFunction(path)
