"""Input signatures of tracec.functions: TensorSpec (tf.TensorSpec), and the
cache keys a Function looks its traces up by.

The arguments are flattened (_tree: nested lists, tuples, dicts, ...) and
a Key is their structure and one entry per leaf: an array's (shape,
dtype), with None for a dynamic dim, or a static argument's (type,
value)."""
from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from . import _core
from ._tree import TreeDef, leaves_with_paths, tree_flatten


class Key(NamedTuple):
    """What a trace is cached by: the arguments' structure and an entry per
    leaf."""
    structure: TreeDef
    entries: tuple


def flatten_arguments(args):
    """(leaves, structure) of a call's arguments (native_leaves)."""
    leaves, structure = tree_flatten(tuple(args))
    return native_leaves(leaves), structure


def native_leaves(leaves):
    """The leaves, with the arrays of other libraries (torch tensors:
    anything with __array__ or __dlpack__) as NumPy arrays, without a copy
    where the library allows."""
    return [_core.from_foreign(x) if _core.is_foreign_array(x) else x
            for x in leaves]


def leaf_label(args, index) -> str:
    """Where leaf `index` of the arguments is, for messages: `argument 0`,
    `argument 1['w'][0]`."""
    path = leaves_with_paths(tuple(args))[index][0]
    match = re.match(r"\[(\d+)\](.*)", path)
    return f"argument {match[1]}{match[2]}"


class TensorSpec:
    """The dtype and shape of an array argument. A None dim takes any size:
    the function is traced and compiled once, with that dim dynamic (`?`),
    for every size there (tf.TensorSpec([None, 784])). The dtype is a NumPy
    dtype, or tracec.numpy.bfloat16 ("bf16"), which NumPy has not: such an
    argument takes float arrays, rounded to the nearest bf16 going in."""

    def __init__(self, shape, dtype=np.float32, name=None):
        shape = tuple(shape)
        dims = []
        for d in shape:
            if d is None:
                dims.append(None)
            elif isinstance(d, (int, np.integer)) and not isinstance(d, bool) \
                    and d >= 0:
                dims.append(int(d))
            else:
                raise ValueError(f"TensorSpec{shape}: a dim is a size (an int "
                                 ">= 0) or None (any size)")
        self.shape = tuple(dims)
        # A NumPy dtype, a tracec name ("f32") or "bf16"/"bfloat16".
        tracec_name = _core.dtype_name(dtype)
        self.dtype = "bf16" if tracec_name == "bf16" else \
            _core.numpy_dtype(tracec_name) if dtype == tracec_name else \
            np.dtype(dtype)
        self.name = name

    @property
    def numpy_dtype(self) -> np.dtype:
        """The dtype of the arrays that cross for this argument."""
        return _core.numpy_dtype(_core.dtype_name(self.dtype))

    def takes_dtype(self, dtype) -> bool:
        """Whether an array of `dtype` (a NumPy dtype, or "bf16" for a
        traced value) passes for this argument: a bf16 one takes any float
        array."""
        if dtype == self.dtype:
            return True
        return isinstance(self.dtype, str) and not isinstance(dtype, str) \
            and np.dtype(dtype).kind == "f"

    def is_compatible_with(self, x) -> bool:
        """Whether an array (or a TensorSpec) fits: a dtype it takes, the
        same rank, and the same size in every dim that is not None here."""
        if isinstance(x, TensorSpec):
            shape, fits = x.shape, x.dtype == self.dtype
        else:
            shape = np.shape(x)
            fits = self.takes_dtype(np.asarray(x).dtype)
        return fits and shape_mismatch(shape, self.shape) is None

    def __repr__(self):
        dtype = "bfloat16" if isinstance(self.dtype, str) else self.dtype.name
        return f"TensorSpec(shape={self.shape}, dtype={dtype})"

    def __eq__(self, other):
        return (isinstance(other, TensorSpec) and self.shape == other.shape
                and self.dtype == other.dtype)

    def __hash__(self):
        return hash((self.shape, self.dtype))


def shape_mismatch(shape, spec_shape):
    """None if `shape` fits `spec_shape` (a None dim of it fits any size;
    a None dim of `shape`, an unknown size, fits only None), else why not."""
    if len(shape) != len(spec_shape):
        return f"rank {len(shape)}, expected {len(spec_shape)}"
    for i, (d, e) in enumerate(zip(shape, spec_shape)):
        if e is not None and d != e:
            return f"dim {i} is {'?' if d is None else d}, expected {e}"
    return None


def static_key(arg):
    """The key entry of a static (non-array) argument, (type, value), or
    None if it is not hashable."""
    try:
        hash(arg)
    except TypeError:
        return None
    return (type(arg), arg)


def unhashable_argument(label, arg):
    return TypeError(
        f"{label} is a {type(arg).__name__}, which is neither an array nor "
        "hashable: pass arrays for tensors (also in lists, tuples and "
        "dicts) and hashable values (numbers, strings) for static "
        "arguments")


def array_entry(a):
    """The key entry of an array argument: (shape, dtype), and "weak" for
    a Python number that jit traces weakly typed (it traces differently
    from a NumPy scalar of its dtype)."""
    if type(a) is _core.WeakScalar:
        return (a.shape, a.dtype, "weak")
    return (a.shape, a.dtype)


def is_weak(entry):
    return entry[2:] == ("weak",)


def is_array(entry):
    """Whether a cache key's entry is an array's (shape, dtype); a static
    argument's is (type, value)."""
    return isinstance(entry[0], tuple)


def key_structure(key):
    """What must agree for one trace to serve two keys, sizes aside."""
    return (key.structure,
            tuple(("array", len(e[0])) + e[1:] if is_array(e) else e
                  for e in key.entries))


def relax(seen, key):
    """The most specific key serving both: the dims that differ are None."""
    return Key(key.structure, tuple(
        (tuple(a if a == b else None for a, b in zip(s[0], k[0])),) + k[1:]
        if is_array(k) else k for s, k in zip(seen.entries, key.entries)))


def covers(general, key):
    """Whether a trace for `general` (None dims) serves `key`."""
    if general.structure != key.structure or \
            len(general.entries) != len(key.entries):
        return False
    for g, k in zip(general.entries, key.entries):
        if is_array(g) != is_array(k):
            return False
        if not is_array(g):
            if g != k:
                return False
        elif g[1:] != k[1:] or shape_mismatch(k[0], g[0]) is not None:
            return False
    return True


def count_none(key):
    return sum(e[0].count(None) for e in key.entries if is_array(e))


def has_none(key):
    return count_none(key) > 0


def describe(key):
    """The arrays of a key, as TensorSpecs (for messages)."""
    return ", ".join(repr(TensorSpec(e[0], e[1])) for e in key.entries
                     if is_array(e))


def argument_names(python_function, tree, positions):
    """The names of the array leaves at `positions` of the arguments `tree`
    (a tuple, one entry per positional argument), for the traced function's
    `trace.name`s: the parameter's name, then the path into a structure
    (`params[0]['w']` -> `params_0_w`; `*args`' third -> `args_2`; a keyword
    argument passed as the trailing dict -> its key)."""
    import inspect
    try:
        parameters = list(inspect.signature(python_function)
                          .parameters.values())
    except (TypeError, ValueError):
        parameters = []
    positional = [p.name for p in parameters
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    variadic = next((p.name for p in parameters
                     if p.kind == p.VAR_POSITIONAL), None)
    paths = [path for path, _ in leaves_with_paths(tree)]
    names = []
    for i in positions:
        match = re.match(r"\[(\d+)\](.*)", paths[i])
        index, rest = int(match[1]), match[2]
        parts = [a or b or c for a, b, c in
                 re.findall(r"\['([^']*)'\]|\[(\d+)\]|\.(\w+)", rest)]
        if index < len(positional):
            parts.insert(0, positional[index])
        elif variadic is not None and index < len(tree) and \
                not isinstance(tree[index], dict):
            parts.insert(0, f"{variadic}_{index - len(positional)}")
        names.append(re.sub(r"\W", "_", "_".join(parts)) or f"arg{i}")
    return names
