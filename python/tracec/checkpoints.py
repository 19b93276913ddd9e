"""tracec.Checkpoint: the variables of modules and optimizers saved to and
restored from a `.npz` file, by their place in the objects (TensorFlow's
object-based tf.train.Checkpoint).

A variable's key is its path from the checkpoint's named objects through
attributes, list indices and dict keys: `model/layers/0/w`. An
optimizer's slots are stored under the path of the variable they belong
to (`optimizer/slots/model/layers/0/w/m`), so a fresh process that builds
the same objects restores them before its first step (the slots are made
then) and continues training bit for bit.

>>> ckpt = tracec.Checkpoint(model=model, optimizer=opt)
>>> ckpt.save("/tmp/run/ckpt.npz")
>>> tracec.Checkpoint(model=model2, optimizer=opt2).restore("/tmp/run/ckpt.npz")
"""
from __future__ import annotations

import os
import zipfile

import numpy as np

from .module import Adam, Module, Optimizer
from .variables import Variable

# The format's version, stored beside the variables.
_FORMAT_KEY = "__tracec_checkpoint__"
_FORMAT = 1


def _variables(obj, path, found, seen):
    """found[path] = variable for every variable reachable from obj."""
    if isinstance(obj, Variable):
        if id(obj) not in seen:
            seen[id(obj)] = path
            found[path] = obj
        return
    if id(obj) in seen:
        return
    if isinstance(obj, (Module, Optimizer)):
        seen[id(obj)] = path
        for key, value in vars(obj).items():
            if not key.startswith("_"):
                _variables(value, f"{path}/{key}", found, seen)
    elif isinstance(obj, (list, tuple)):
        for i, value in enumerate(obj):
            _variables(value, f"{path}/{i}", found, seen)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            _variables(value, f"{path}/{key}", found, seen)


class Checkpoint:
    """Saves and restores the variables of the objects given by name."""

    def __init__(self, **objects):
        if not objects:
            raise ValueError("Checkpoint needs at least one object to save, "
                             "by name: Checkpoint(model=model)")
        self._objects = objects

    def _paths(self):
        """{path: variable}, the optimizers' slots included under the path
        of their variable."""
        found, seen = {}, {}
        for name, obj in self._objects.items():
            _variables(obj, name, found, seen)
        for name, obj in self._objects.items():
            if isinstance(obj, Adam):
                for primary, m, v in obj._slots.values():
                    where = seen.get(id(primary))
                    if where is None:
                        raise ValueError(
                            f"the optimizer {name!r} has slots for a variable "
                            f"({primary.name}) that none of the checkpoint's "
                            "objects holds: add its model to the checkpoint")
                    found[f"{name}/slots/{where}/m"] = m
                    found[f"{name}/slots/{where}/v"] = v
        return found

    def save(self, path):
        """Writes every variable to `path` (a .npz file; its folder is
        made); returns the path."""
        arrays = {p: v.numpy() for p, v in self._paths().items()}
        arrays[_FORMAT_KEY] = np.asarray(_FORMAT)
        folder = os.path.dirname(os.path.abspath(path))
        os.makedirs(folder, exist_ok=True)
        temporary = path + ".tmp.npz"
        np.savez(temporary, **arrays)
        os.replace(temporary, path)  # never a half-written checkpoint
        return path

    def restore(self, path):
        """Assigns every variable of the objects from `path`. Adam's slots
        that the file has are made first if no step made them.
        A variable missing from the file, one the file has and the objects
        do not, or another shape or dtype is a ValueError."""
        try:
            with np.load(path, allow_pickle=False) as data:
                stored = {k: data[k] for k in data.files}
        except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
            raise ValueError(f"{path}: not a readable tracec checkpoint "
                             f"({error})") from None
        if stored.pop(_FORMAT_KEY, None) != _FORMAT:
            raise ValueError(f"{path}: not a tracec checkpoint of format "
                             f"{_FORMAT}")
        self._make_slots(stored)
        paths = self._paths()
        missing = sorted(set(paths) - set(stored))
        unexpected = sorted(set(stored) - set(paths))
        if missing or unexpected:
            raise ValueError(
                f"{path} does not match the objects: " + "; ".join(
                    part for part in (
                        missing and "not in the file: " + ", ".join(missing),
                        unexpected and "not in the objects: " +
                        ", ".join(unexpected)) if part))
        for p, v in paths.items():
            array = stored[p]
            if array.shape != v.shape or array.dtype != v.dtype:
                raise ValueError(
                    f"{path}: {p} is {array.dtype}{list(array.shape)} in the "
                    f"file and {np.dtype(v.dtype)}{list(v.shape)} in the "
                    "objects")
        for p, v in paths.items():
            v.assign(stored[p])
        return self


    def _make_slots(self, stored):
        """Adam's slots for the variables the file has slots of, made
        before restoring (in a fresh process no step has made them)."""
        found, seen = {}, {}
        for name, obj in self._objects.items():
            _variables(obj, name, found, seen)
        for name, obj in self._objects.items():
            if isinstance(obj, Adam):
                for where, v in found.items():
                    if f"{name}/slots/{where}/m" in stored:
                        obj._slot(v)
