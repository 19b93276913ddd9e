"""What autograph's converted code calls (autograph.py). Each statement
runs as Python where its condition or iterable is a Python value, and as
tracec.cond, tracec.while_loop or tracec.fori_loop where it is traced. A
statement passes its variables (`names`, their values `state`) to its
bodies, which return their new values; `local` are the variables that no
code outside the statement reads (dropped where they have no value)."""
from __future__ import annotations

import builtins
import numbers

import numpy as np

from . import _core
from . import _tracec as _C
from . import control_flow
from ._core import Value
from ._tree import tree_flatten


class Undefined:
    """The value of a variable that has none yet: using it raises."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"Undefined({self.name!r})"

    def _use(self, *args, **kwargs):
        raise NameError(f"autograph: variable '{self.name}' is used before "
                        "it has a value")

    __getattr__ = _use


for _method in ("__bool__", "__add__", "__radd__", "__sub__", "__rsub__",
                "__mul__", "__rmul__", "__truediv__", "__rtruediv__",
                "__floordiv__", "__mod__", "__pow__", "__neg__",
                "__matmul__", "__rmatmul__", "__getitem__", "__iter__",
                "__len__", "__lt__", "__le__", "__gt__", "__ge__",
                "__array__", "__call__", "__index__", "__float__",
                "__int__"):
    setattr(Undefined, _method, Undefined._use)


class Pending(Undefined):
    """The return value before a `return` inside a loop gives it one.
    Compiled control flow that may give it one carries zeros of the type
    it gets, found by tracing the body once more and dropping what that
    traced (AutoGraph's trial iteration); it matters only on the paths
    where the `return` ran."""

    def __init__(self):
        super().__init__(RETURN_VALUE)


def _error(lineno, message):
    return TypeError(f"autograph: line {lineno}: {message}")


def python_condition(test, what, lineno):
    """The test of a statement left as Python."""
    if isinstance(test, Value):
        raise _error(lineno, f"{what} is not converted, and its condition is "
                             f"a traced {test.type_string()}: write it with "
                             "tracec.cond / tracec.while_loop")
    return test


def not_(x):
    """`not x`, also of a traced value."""
    if isinstance(x, Value):
        from . import numpy as tnp
        return tnp.logical_not(x if str(x.dtype) in ("i1", "bool")
                               else tnp.not_equal(x, 0))
    return not x


def and_(x, y_fn):
    """`x and y_fn()`, also of traced values (then both are evaluated)."""
    if not isinstance(x, Value) and not x:
        return x
    y = y_fn()
    if not isinstance(x, Value) and not isinstance(y, Value):
        return y
    from . import numpy as tnp
    return tnp.logical_and(not_(not_(x)), not_(not_(y)))


def _predicate(test, lineno, what):
    """A traced condition as a scalar bool (Python's truth value)."""
    from . import numpy as tnp
    if test.shape != ():
        raise _error(lineno, f"the condition of {what} is a traced "
                             f"{test.type_string()}: it must be a scalar")
    return test if str(test.dtype) in ("i1", "bool") else \
        tnp.not_equal(test, 0)


# The variable autograph returns through (autograph.py).
RETURN_VALUE = "ag__retval"


def _describe(name):
    return "the return value" if name == RETURN_VALUE else f"'{name}'"


def _array(value, name, lineno, where):
    """A variable's value as a result of compiled control flow."""
    if isinstance(value, Undefined):
        raise _error(lineno, f"{_describe(name)} has no value {where}: give "
                             "it one before the statement")
    if isinstance(value, Value):
        return value
    if isinstance(value, (np.ndarray, np.generic, numbers.Number)):
        return _core.to_value(value)
    raise _error(lineno, f"{_describe(name)} is a {type(value).__name__} "
                         f"{where}: only arrays and numbers (and structures "
                         "of them) can change in control flow on traced "
                         "values")


def _placeholders(state, names, trials, lineno, where):
    """`state` with each Pending value replaced by zeros of the value the
    first of `trials` (functions returning a new state, traced and then
    dropped) gives it; a Pending that no trial gives a value stays."""
    state = list(state)
    for i, value in enumerate(state):
        if not isinstance(value, Pending):
            continue
        for trial in trials:
            found = {}

            def given(_):
                items, found["structure"] = tree_flatten(trial()[i])
                if any(isinstance(v, Pending) for v in items):
                    return []
                return [_array(v, names[i], lineno, where) for v in items]
            with _core.trial_body():
                specs = _C.output_specs(given)
            if specs or found["structure"].num_leaves == 0:
                break
        else:
            continue
        for dtype, shape in specs:
            if None in shape:
                raise _error(lineno, f"{_describe(names[i])} has a dynamic "
                                     f"shape {where}: a compiled loop or "
                                     "`if` can carry it only with a "
                                     "static one")
        state[i] = found["structure"].unflatten(
            [_C.full(list(shape), 0.0, dtype) for dtype, shape in specs])
    return tuple(state)


class _Carried:
    """The variables (`keep` of `state`) that compiled control flow
    carries, each a structure of arrays (a tuple, a dict, ...), as one flat
    tuple of arrays; every flattening must give the first one's
    structures."""

    def __init__(self, state, names, keep, lineno, mismatch):
        self.state, self.names, self.keep = tuple(state), names, keep
        self.lineno, self.mismatch = lineno, mismatch
        self.structures = None

    def flatten(self, values, where):
        leaves, structures = [], []
        for i in self.keep:
            items, structure = tree_flatten(values[i])
            structures.append(structure)
            leaves += [_array(v, self.names[i], self.lineno, where)
                       for v in items]
        if self.structures is None:
            self.structures = structures
        for i, first, structure in zip(self.keep, self.structures,
                                       structures):
            if first != structure and self.names[i] == RETURN_VALUE:
                none = "None" in (str(first), str(structure))
                raise _error(self.lineno,
                             "the function returns values of another "
                             "structure on the paths that meet here: "
                             f"{first} and {structure}" +
                             (" (a path that ends without `return` returns "
                              "None)" if none else ""))
            if first != structure:
                raise _error(self.lineno,
                             f"{_describe(self.names[i])} has another "
                             f"structure {self.mismatch}: {first} and "
                             f"{structure}")
        return tuple(leaves)

    def unflatten(self, leaves):
        new, leaves = list(self.state), list(leaves)
        for i, structure in zip(self.keep, self.structures):
            new[i] = structure.unflatten(leaves[:structure.num_leaves])
            leaves = leaves[structure.num_leaves:]
        return tuple(new)


def if_stmt(test, true_fn, false_fn, state, names, local, both, lineno):
    """if test: true_fn else: false_fn (each returns the new state).
    `both`: the variables both branches assign."""
    if not isinstance(test, Value):
        return true_fn(*state) if test else false_fn(*state)
    pred = _predicate(test, lineno, f"the `if` at line {lineno}")
    state = _placeholders(state, names, (lambda: true_fn(*state),
                                         lambda: false_fn(*state)),
                          lineno, "after a branch of the `if`")
    keep = []
    for i, (name, value) in enumerate(zip(names, state)):
        if not isinstance(value, Undefined) or name in both:
            keep.append(i)
        elif name not in local and not isinstance(value, Pending):
            raise _error(lineno, f"'{name}' gets a value in one branch of "
                                 "this `if` on a traced condition only: "
                                 "give it one before the `if` or in both "
                                 "branches")
    carried = _Carried(state, names, keep, lineno,
                       "in each branch of the `if`")

    def branch(fn):
        return lambda: carried.flatten(fn(*state),
                                       "after a branch of the `if`")
    return carried.unflatten(
        control_flow.cond(pred, branch(true_fn), branch(false_fn)))


def _carried(state, names, local, lineno, what):
    """What a compiled loop carries: the loop variables with a value (a
    temporary of the body without one is not carried)."""
    keep = []
    for i, (name, value) in enumerate(zip(names, state)):
        if not isinstance(value, Undefined):
            keep.append(i)
        elif name not in local and not isinstance(value, Pending):
            raise _error(lineno, f"'{name}' is assigned in {what} on a "
                                 "traced value but has no value before it: "
                                 "loop variables need one")
    return _Carried(state, names, keep, lineno,
                    "after an iteration than before the loop")


def _compiled_body(body_fn, carried):
    """body_fn on the carried values (the others as they were before)."""
    def body(*args):
        *front, leaves = args
        outputs = body_fn(*front, *carried.unflatten(leaves))
        return carried.flatten(outputs, "after an iteration of the loop")
    return body


def while_stmt(test_fn, body_fn, state, names, local, lineno):
    """while test_fn(): body_fn(). Runs as Python while the condition is a
    Python value; from the iteration where it is traced, as a
    tracec.while_loop."""
    state = tuple(state)
    while True:
        test = test_fn(*state)
        if isinstance(test, Value):
            break
        if not test:
            return state
        state = tuple(body_fn(*state))
    what = f"the `while` loop at line {lineno}"
    state = _placeholders(state, names, [lambda: body_fn(*state)], lineno,
                          "after an iteration of the loop")
    carried = _carried(state, names, local, lineno, what)
    init = carried.flatten(state, "before the loop")
    body = _compiled_body(body_fn, carried)

    def cond(leaves):
        return _predicate(test_fn(*carried.unflatten(leaves)), lineno, what)
    return carried.unflatten(
        control_flow.while_loop(cond, lambda c: body(c), init))


def _python_for(iterable, body_fn, state, extra_test=None):
    """The loop as Python; with `extra_test` (a `break`'s flag down), until
    it is false, or until it is traced: then the index of the next item
    and the state are returned for a compiled loop to go on."""
    for k, item in enumerate(iterable):
        if extra_test is not None:
            go_on = extra_test(*state)
            if isinstance(go_on, Value):
                return k, tuple(state)
            if not go_on:
                break
        state = tuple(body_fn(item, *state))
    return None, tuple(state)


def _compiled(state, unroll, trip_count):
    """Whether a loop of Python trip count runs as a compiled loop: when
    tracing, with traced variables, above `unroll` iterations."""
    return _core.is_tracing() and trip_count > unroll and \
        any(isinstance(leaf, Value) for leaf in tree_flatten(state)[0])


def _fori(lower, upper, index, body_fn, state, names, local, lineno, what,
          extra_test=None):
    """for k in range(lower, upper): body_fn(index(k)) compiled: a
    fori_loop, or with `extra_test` a while_loop that also stops when it
    is false."""
    from . import numpy as tnp
    state = _placeholders(
        state, names,
        [lambda: body_fn(index(tnp.asarray(lower, tnp.int64)), *state)],
        lineno, "after an iteration of the loop")
    carried = _carried(state, names, local, lineno, what)
    init = carried.flatten(state, "before the loop")
    body = _compiled_body(body_fn, carried)
    if extra_test is None:
        return carried.unflatten(control_flow.fori_loop(
            lower, upper, lambda k, c: body(index(k), c), init))

    def cond(c):
        k, *leaves = c
        go_on = extra_test(*carried.unflatten(leaves))
        return and_(k < upper, lambda: go_on)

    def step(c):
        k, *leaves = c
        return (k + 1, *body(index(k), leaves))
    _, *leaves = control_flow.while_loop(
        cond, step, (tnp.asarray(lower, tnp.int64), *init))
    return carried.unflatten(leaves)


def _python_then_compiled(items, index_of, count, body_fn, state, names,
                          local, lineno, unroll, extra_test, what):
    """A loop over `count` items (item k: items(k), Python or traced k),
    as Python or compiled (see for_range)."""
    if not _compiled(state, unroll, count) or count == 0:
        stopped, state = _python_for((items(k) for k in range(count)),
                                     body_fn, state, extra_test)
        if stopped is None:
            return state
        # The break flag became traced: the rest compiles.
        return _fori(stopped, count, items, body_fn, state, names, local,
                     lineno, what, extra_test)
    return _fori(0, count, index_of, body_fn, state, names, local, lineno,
                 what, extra_test)


def for_range(range_fn, args, body_fn, state, names, local, lineno, unroll,
              extra_test=None):
    """for i in range(*args): body_fn(i), while extra_test() (a `break`'s
    flag down). A traced bound makes it a compiled loop; Python bounds do
    too above `unroll` iterations, when the loop carries traced values;
    otherwise it runs as Python (and compiles the rest where its break flag
    becomes traced)."""
    state = tuple(state)
    if range_fn is not builtins.range:
        stopped, state = _python_for(range_fn(*args), body_fn, state,
                                     extra_test)
        if stopped is not None:
            raise _error(lineno, "a `break` on a traced condition in a loop "
                                 "over a range other than Python's")
        return state
    what = f"the `for` loop at line {lineno}"
    if not any(isinstance(a, Value) for a in args):
        steps = range(*args)
        index = (lambda k: k) if steps.start == 0 and steps.step == 1 else \
            (lambda k: steps.start + k * steps.step)
        return _python_then_compiled(
            lambda k: steps[k] if isinstance(k, int) else index(k), index,
            len(steps), body_fn, state, names, local, lineno, unroll,
            extra_test, what)
    from . import numpy as tnp
    start, stop, step = (0, args[0], 1) if len(args) == 1 else \
        (args[0], args[1], args[2] if len(args) == 3 else 1)
    if isinstance(step, Value) or not isinstance(step, numbers.Integral) \
            or step == 0:
        raise _error(lineno, f"{what} on a traced bound needs a nonzero "
                             "Python int step")
    start, stop = (tnp.asarray(b, tnp.int64) for b in (start, stop))
    span = stop - start if step > 0 else start - stop
    trips = tnp.maximum((span + (abs(step) - 1)) // abs(step), 0)
    return _fori(0, trips, lambda k: start + k * step, body_fn, state,
                 names, local, lineno, what, extra_test)


def _rows(array, lineno, what):
    """The static first dim of a traced array a loop iterates."""
    if array.shape == ():
        raise _error(lineno, f"{what} iterates over a traced scalar")
    rows = array.shape[0]
    if rows is None or (isinstance(rows, int) and rows < 0):
        raise _error(lineno, f"{what} iterates over a traced array whose "
                             "first dim is dynamic: use a fori_loop over "
                             "its size")
    return rows


def for_stmt(iterable, body_fn, state, names, local, lineno, unroll,
             extra_test=None):
    """for item in iterable: body_fn(item), while extra_test(). Over a
    traced array: its rows, compiled above `unroll` rows."""
    state = tuple(state)
    if not isinstance(iterable, Value):
        stopped, state = _python_for(iterable, body_fn, state, extra_test)
        if stopped is not None:
            raise _error(lineno, "a `break` on a traced condition in a loop "
                                 "over a Python iterable: loop over a range "
                                 "or an array")
        return state
    what = f"the `for` loop at line {lineno}"
    rows = _rows(iterable, lineno, what)
    return _python_then_compiled(
        lambda k: iterable[k], lambda k: iterable[k], rows, body_fn, state,
        names, local, lineno, unroll, extra_test, what)


def for_call(fn, args, body_fn, state, names, local, lineno, unroll,
             extra_test=None):
    """for item in fn(*args), where fn is enumerate or zip: over traced
    arrays, their rows (with the index, or side by side), as for_stmt;
    else as Python."""
    state = tuple(state)
    arrays = [a for a in args if isinstance(a, Value)]
    what = f"the `for` loop at line {lineno}"
    if fn is builtins.enumerate and len(args) == 1 and arrays:
        rows, item = _rows(args[0], lineno, what), \
            (lambda k: (k, args[0][k]))
    elif fn is builtins.zip and arrays:
        sizes = {_rows(a, lineno, what) if isinstance(a, Value) else len(a)
                 for a in args}
        rows, item = min(sizes), (lambda k: tuple(a[k] for a in args))
    else:
        stopped, state = _python_for(fn(*args), body_fn, state, extra_test)
        if stopped is not None:
            raise _error(lineno, "a `break` on a traced condition in a loop "
                                 "over a Python iterable: loop over a range "
                                 "or an array")
        return state
    return _python_then_compiled(item, item, rows, body_fn, state, names,
                                 local, lineno, unroll, extra_test, what)
