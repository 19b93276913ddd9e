"""Nested structures of arrays (lists, tuples, dicts, None): flattened to a
list of leaves and a template, and packed back (JAX's tree_util, for the
structures tracec's functions take and return)."""
from __future__ import annotations


class Leaf:
    """A template's placeholder for the leaf at `index` of the flat list."""

    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


def flatten(structure, leaves):
    """The template of `structure`: each leaf (anything but a list, tuple,
    dict or None) is appended to `leaves` and replaced with its Leaf."""
    if isinstance(structure, (tuple, list)):
        return type(structure)(flatten(s, leaves) for s in structure)
    if isinstance(structure, dict):
        return {k: flatten(v, leaves) for k, v in structure.items()}
    if structure is None:
        return None
    leaves.append(structure)
    return Leaf(len(leaves) - 1)


def pack(template, flat):
    """The structure of `template` with its leaves taken from `flat`."""
    if isinstance(template, Leaf):
        return flat[template.index]
    if isinstance(template, (tuple, list)):
        return type(template)(pack(t, flat) for t in template)
    if isinstance(template, dict):
        return {k: pack(v, flat) for k, v in template.items()}
    return template


def is_single_leaf(template) -> bool:
    """Whether the structure was one leaf (not a list of one)."""
    return isinstance(template, Leaf) and template.index == 0
