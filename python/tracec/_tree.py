"""Nested structures of arrays (pytrees, as JAX's tree_util calls them):
lists, tuples, namedtuples, dicts, None and the types registered with
register_pytree_node (or register_dataclass), flattened to a list of leaves
and a TreeDef, and rebuilt from them.

Everything else is a leaf. Dict keys are flattened in sorted order (JAX's
rule: two dicts with the same keys flatten alike, whatever their insertion
order); an OrderedDict keeps its order. A TreeDef is hashable: it is part of
a tracec.function's cache key, so a call with another structure traces
again and a call with the same one reuses the trace.

>>> leaves, treedef = tree_flatten({"b": (1, 2), "a": [3, None]})
>>> leaves
[3, 1, 2]
>>> tree_unflatten(treedef, ["x", "y", "z"])
{'a': ['x', None], 'b': ('y', 'z')}
"""
from __future__ import annotations

import collections
import dataclasses
import functools

__all__ = ["TreeDef", "tree_flatten", "tree_unflatten", "tree_leaves",
           "tree_map", "leaves_with_paths", "register_pytree_node",
           "register_dataclass"]


class _Node:
    """How one container type flattens: `flatten(x) -> (children, aux)`
    with aux hashable, `unflatten(aux, children) -> x`, and `keys(aux, n)`,
    the path labels of the n children (for messages)."""

    __slots__ = ("flatten", "unflatten", "keys")

    def __init__(self, flatten, unflatten, keys):
        self.flatten = flatten
        self.unflatten = unflatten
        self.keys = keys


def _indices(aux, n):
    return [f"[{i}]" for i in range(n)]


def _sorted_keys(d):
    try:
        return sorted(d)
    except TypeError:  # keys of mixed types: insertion order
        return list(d)


def _dict_node(rebuild, order):
    return _Node(lambda d: ([d[k] for k in order(d)], tuple(order(d))),
                 lambda keys, children: rebuild(zip(keys, children)),
                 lambda keys, n: [f"[{k!r}]" for k in keys])


_registry = {
    tuple: _Node(lambda t: (list(t), None), lambda _, c: tuple(c), _indices),
    list: _Node(lambda t: (list(t), None), lambda _, c: list(c), _indices),
    dict: _dict_node(dict, _sorted_keys),
    collections.OrderedDict: _dict_node(collections.OrderedDict, list),
    type(None): _Node(lambda _: ([], None), lambda _, c: None, _indices),
}

def _namedtuple_node(kind):
    """The node of a namedtuple class, registered on first sight."""
    node = _Node(lambda t: (list(t), None), lambda _, c: kind(*c),
                 lambda _, n: [f".{f}" for f in kind._fields])
    _registry[kind] = node
    return node


def _node_of(x):
    """(kind, node) for a container, or None for a leaf. `kind` is what the
    TreeDef records: the type (a namedtuple's own class)."""
    kind = type(x)
    node = _registry.get(kind)
    if node is not None:
        return kind, node
    if not isinstance(x, (tuple, list, dict)):
        return None
    if isinstance(x, tuple) and hasattr(kind, "_fields"):
        return kind, _namedtuple_node(kind)
    # Other subclasses of the builtin containers flatten as their base
    # (and are rebuilt as it).
    for base in (tuple, list, dict):
        if isinstance(x, base):
            return base, _registry[base]
    return None


class TreeDef:
    """The structure of a pytree without its leaves: hashable, compared by
    structure (container types, dict keys, registered aux data)."""

    __slots__ = ("kind", "aux", "children", "num_leaves", "_hash")

    def __init__(self, kind, aux, children):
        self.kind = kind  # None for a leaf
        self.aux = aux
        self.children = tuple(children)
        self.num_leaves = 1 if kind is None else \
            sum(c.num_leaves for c in self.children)
        try:
            self._hash = hash((kind, aux, self.children))
        except TypeError:
            raise TypeError(f"the aux data of a {kind.__name__} (what its "
                            "register_pytree_node flatten returns) must be "
                            "hashable: it is part of a tracec.function's "
                            "cache key") from None

    @property
    def is_leaf(self) -> bool:
        """Whether the structure is one leaf (not a list of one)."""
        return self.kind is None

    def unflatten(self, leaves):
        """The structure with its leaves taken from `leaves`, in order."""
        leaves = list(leaves)
        if len(leaves) != self.num_leaves:
            raise ValueError(f"the structure {self} has {self.num_leaves} "
                             f"leaves, got {len(leaves)}")
        return self._build(iter(leaves))

    def flatten_up_to(self, tree):
        """The subtrees of `tree` at this structure's leaves (TensorFlow's
        nest.flatten_up_to): above them, `tree` must have this structure,
        else a ValueError."""
        if self.kind is None:
            return [tree]
        found = _node_of(tree)
        children, aux = found[1].flatten(tree) if found else (None, None)
        if found is None or found[0] is not self.kind or aux != self.aux \
                or len(children) != len(self.children):
            raise ValueError(f"{tree_flatten(tree)[1]} does not have the "
                             f"structure {self}")
        return [x for child, c in zip(children, self.children)
                for x in c.flatten_up_to(child)]

    def _build(self, leaves):
        if self.kind is None:
            return next(leaves)
        children = [c._build(leaves) for c in self.children]
        return _registry[self.kind].unflatten(self.aux, children)

    def __eq__(self, other):
        return (isinstance(other, TreeDef) and self._hash == other._hash
                and self.kind is other.kind and self.aux == other.aux
                and self.children == other.children)

    def __hash__(self):
        return self._hash

    def __repr__(self):
        if self.kind is None:
            return "*"
        inner = ", ".join(map(repr, self.children))
        if self.kind is tuple:
            return f"({inner})"
        if self.kind is list:
            return f"[{inner}]"
        if self.kind is type(None):
            return "None"
        if isinstance(self.aux, tuple) and self.kind in (
                dict, collections.OrderedDict):
            inner = ", ".join(f"{k!r}: {c!r}"
                              for k, c in zip(self.aux, self.children))
            return "{" + inner + "}"
        return f"{self.kind.__name__}({inner})"


_LEAF = TreeDef(None, None, ())


def _flatten(tree, leaves):
    found = _node_of(tree)
    if found is None:
        leaves.append(tree)
        return _LEAF
    kind, node = found
    children, aux = node.flatten(tree)
    return TreeDef(kind, aux, [_flatten(c, leaves) for c in children])


def tree_flatten(tree):
    """(leaves, treedef): the leaves in order (dict keys sorted) and the
    structure that tree_unflatten rebuilds from them."""
    if type(tree) is tuple and not any(map(_node_of, tree)):
        # A tuple of leaves (most calls' arguments): no new TreeDef.
        return list(tree), _tuple_of_leaves(len(tree))
    leaves = []
    return leaves, _flatten(tree, leaves)


@functools.lru_cache(maxsize=None)
def _tuple_of_leaves(n):
    return TreeDef(tuple, None, [_LEAF] * n)


def tree_unflatten(treedef: TreeDef, leaves):
    return treedef.unflatten(leaves)


def tree_leaves(tree) -> list:
    return tree_flatten(tree)[0]


def tree_map(f, tree, *rest):
    """The structure of `tree` with f(leaf, *corresponding leaves of rest)
    at each leaf (the trees of `rest` have tree's structure)."""
    leaves, treedef = tree_flatten(tree)
    others = [treedef_leaves(treedef, r) for r in rest]
    return treedef.unflatten(f(*xs) for xs in zip(leaves, *others))


def treedef_leaves(treedef: TreeDef, tree) -> list:
    """tree's leaves, checked to have the structure `treedef`."""
    leaves, other = tree_flatten(tree)
    if other != treedef:
        raise ValueError(f"the structures differ: {other} is not {treedef}")
    return leaves


def leaves_with_paths(tree, prefix=""):
    """[(path, leaf)]: each leaf with where it is (`[0]['w'].bias`)."""
    found = _node_of(tree)
    if found is None:
        return [(prefix, tree)]
    kind, node = found
    children, aux = node.flatten(tree)
    out = []
    for key, child in zip(node.keys(aux, len(children)), children):
        out += leaves_with_paths(child, prefix + key)
    return out


def register_pytree_node(nodetype, flatten_func, unflatten_func):
    """Makes instances of `nodetype` containers (jax.tree_util's
    register_pytree_node): flatten_func(x) -> (children, aux_data), with
    aux_data hashable (it is part of a tracec.function's cache key), and
    unflatten_func(aux_data, children) -> x.

    >>> class Pair:
    ...     def __init__(self, a, b):
    ...         self.a, self.b = a, b
    >>> register_pytree_node(Pair, lambda p: ((p.a, p.b), None),
    ...                      lambda _, c: Pair(*c))
    >>> tree_leaves(Pair(1, [2, 3]))
    [1, 2, 3]
    """
    def flatten(x):
        children, aux = flatten_func(x)
        return list(children), aux
    _registry[nodetype] = _Node(flatten, unflatten_func, _indices)


def register_dataclass(cls):
    """Makes a dataclass a container of its fields, in declaration order
    (usable as a decorator). Unregistered dataclasses are leaves: static
    arguments of a tracec.function when hashable (frozen).

    >>> @register_dataclass
    ... @dataclasses.dataclass
    ... class Params:
    ...     w: object
    ...     b: object
    >>> tree_leaves(Params(w=1, b=2))
    [1, 2]
    """
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"register_dataclass: {cls.__name__} is not a "
                        "dataclass")
    names = tuple(f.name for f in dataclasses.fields(cls))
    _registry[cls] = _Node(
        lambda x: ([getattr(x, n) for n in names], None),
        lambda _, children: cls(**dict(zip(names, children))),
        lambda _, n: [f".{name}" for name in names])
    return cls
