"""Tape recording: tape.Tape, which records ops for gradients and computes
them. The public class, with the user's controls, is
gradient_tape.GradientTape; traced functions run under hidden tapes of this
class (function.py), which tracec.gradients differentiates.

Nothing differentiates in Python; every gradient becomes a trace.vjp op
that the compiler's trace-autodiff pass differentiates.

- Inside a tracec.function, `Tape.gradient` (and so `tracec.gradients`)
  is the C++ tracer's gradients() of the recorded values: it slices the
  ops between xs and ys into a function differentiated by trace.vjp. A
  variable's gradient is the sum of those of the values read from it under
  the tape (every traced function runs under a hidden tape that records
  reads, for tracec.gradients).
- Eagerly, a tape records the program the user ran (each op's kernel,
  attributes and operands, as tracec._core.apply runs it). `gradient`
  replays the part between the sources and the target symbolically, inside
  trace.vjp, in a small function of the sources and the other arrays the
  program used, compiled once per program structure and shapes (cached).
  The gradient is itself an op recorded on enclosing tapes, so nested tapes
  give higher derivatives; variables are the vjp's `variables`.

A record may carry a `backward`: an object with `variables` (the float
Variables it uses) and `gradient(record, output, leaves, variables,
cotangents)` -> {id: gradient} or None, which computes the gradients of
its record without a replay (concrete_function._BackwardCall: a
tracec.function called under a tape).
"""
from __future__ import annotations

import numpy as np

from . import _core
from . import _tracec as _C
from . import numpy as tnp
from ._core import Value, apply
from ._tree import tree_flatten, tree_leaves
from .variables import Variable

_SCALARS = (int, float, bool)


class CallReadsNotHoisted(ValueError):
    """tracec.gradients with respect to a variable that only a
    tracec.function called in the trace reads: the caller is traced again
    with its calls reading their variables at the call site
    (function.Function._with_call_reads_hoisted on demand)."""


def _is_tensor(x):
    return not isinstance(x, _SCALARS)


def _read_kernel(variable):
    return _C.read(variable._handle)


class _Record:
    __slots__ = ("kernel", "operands", "static", "outputs", "read", "backward",
                 "cut")

    def __init__(self, kernel, operands, static, outputs, read=None,
                 backward=None, cut=()):
        self.kernel = kernel
        self.operands = operands
        self.static = static
        self.outputs = outputs
        self.read = read  # the Variable, for a read
        self.backward = backward  # see the module's docstring
        # Inside a traced function: the operands the tape did not record
        # (computed before a watch, under stop_recording, before a reset),
        # which its gradients treat as constants.
        self.cut = cut


class _Replay:
    """The gradient of a recorded program: a kernel of (leaves, externals,
    cotangents) that records trace.vjp of the program's replay."""

    def __init__(self, program, num_leaves, num_externals, targets,
                 target_specs, variables, has_cotangents):
        self.program = program
        self.num_leaves = num_leaves
        self.num_externals = num_externals
        self.targets = targets
        self.target_specs = target_specs
        self.variables = variables
        self.has_cotangents = has_cotangents
        self.__name__ = "gradient"

    def __call__(self, *values):
        nl, ne = self.num_leaves, self.num_externals
        externals = values[nl:nl + ne]
        cotangents = list(values[nl + ne:])

        def forward(leaf_values):
            outputs = []

            def ref(r):
                kind = r[0]
                if kind == "leaf":
                    return leaf_values[r[1]]
                if kind == "ext":
                    return externals[r[1]]
                if kind == "rec":
                    return outputs[r[1]][r[2]]
                if kind == "mid":
                    return tnp.add(outputs[r[1]][r[2]], leaf_values[r[3]])
                return r[1]

            for kernel, static, refs in self.program:
                result = kernel(*[ref(r) for r in refs], *static)
                outputs.append([result] if isinstance(result, Value)
                               else list(result))
            return [ref(t) for t in self.targets]

        with _core.suspended_tapes():
            if not self.has_cotangents:
                cotangents = [_C.full(list(shape), 1.0, dtype)
                              for dtype, shape in self.target_specs]
            results = _C.vjp(forward, list(values[:nl]), cotangents,
                             list(range(nl)),
                             [v._handle for v in self.variables], True)
        return results[len(self.targets):]


_replays: dict = {}


def _spec_of(x):
    if isinstance(x, Value):
        return (x.dtype, tuple(x.shape))
    a = np.asarray(x)
    return (_core.dtype_name(a.dtype), a.shape)


def _outside_uses(uses):
    """The (value, original) pairs of what an op's bodies used
    (_core.collecting_body_uses) that come from outside the op: those an
    active tape knows (the hidden tape of a traced function records every
    value computed in it). A watched array is (array, array): its Value in
    the body belongs to the body."""
    tapes = _core._tapes
    pairs = []
    for value, x in uses.values():
        if any(id(value) in t._tracked for t in tapes):
            pairs.append((value, x))
        elif any(id(x) in t._tracked for t in tapes):
            pairs.append((x, x))
    return pairs


def _variables_used(kernel, backward):
    """The float Variables a record reads that are not its operands: a
    call's (those of its backward, or of its kernel if it has none) or a
    replayed gradient's (its kernel's)."""
    if backward is not None:
        return backward.variables
    return getattr(kernel, "variables", ())


class Tape:
    """Records the ops run while it is active (on _core's tape stack) and
    computes gradients of what it recorded.

    It records the ops that use a watched value or a value it recorded,
    and the reads of the variables it watches (all trainable ones with
    `watch_accessed_variables`); with `record_all`, every op and read (the
    hidden tape of a traced function). `gradient` may be called once,
    unless `persistent`.
    """

    def __init__(self, persistent: bool = False,
                 watch_accessed_variables: bool = True,
                 record_all: bool = False):
        self._persistent = persistent
        self._watch_accessed = watch_accessed_variables
        self._record_all = record_all
        self._records = []
        self._tracked = {}
        self._watched_variables = {}
        # Variables used inside functions called (as func.call) while this
        # tape recorded: id -> (variable, function name, whether the call
        # can read them at the call site instead: CallReadsNotHoisted).
        self._called_variables = {}
        # Variables read while this tape was suspended inside a traced
        # function (in a cond/while_loop/fori_loop body): id -> variable.
        self._unrecorded_reads = {}
        self._recording = False
        self._used = False

    def __enter__(self):
        self._push()
        return self

    def __exit__(self, *exc):
        self._pop()

    def _push(self):
        if self._recording:
            raise ValueError("this GradientTape is already recording")
        self._recording = True
        _core._tapes.append(self)

    def _pop(self):
        self._recording = False
        if self in _core._tapes:
            _core._tapes.remove(self)

    def watch(self, tensor):
        """Records the ops that use `tensor` (or each tensor of a list)."""
        for t in tensor if isinstance(tensor, (list, tuple)) else [tensor]:
            if isinstance(t, Variable):
                self._watched_variables[id(t)] = t
            elif isinstance(t, (np.ndarray, Value)):
                self._tracked[id(t)] = t
            elif isinstance(t, np.generic):
                raise TypeError("GradientTape.watch: a NumPy scalar "
                                f"({type(t).__name__}) is not an array; watch "
                                "np.asarray(x) and compute with that")
            else:
                raise TypeError(f"GradientTape.watch: a {type(t).__name__} is "
                                "neither an array, a tracec value nor a "
                                "Variable (convert numbers with np.asarray)")

    def watched_variables(self):
        """The variables this tape watches (explicitly or as read), in the
        order they were created (TensorFlow's)."""
        return sorted(self._watched_variables.values(),
                      key=lambda v: v._creation)

    # --- recording (called by _core.apply and Variable) ---------------------
    def _record(self, kernel, operands, static, result, backward=None,
                originals=None, uses=None):
        tracked = self._tracked
        if originals is None:
            originals = operands
        pairs = [(o, p) for o, p in zip(operands, originals) if _is_tensor(o)]
        if uses:
            pairs += _outside_uses(uses)
        if not self._record_all and not any(
                id(o) in tracked or id(p) in tracked for o, p in pairs) \
                and not any(self._watches(v)
                            for v in _variables_used(kernel, backward)):
            return
        outputs = [result] if isinstance(result, (Value, np.ndarray)) \
            else list(result)
        cut = ()
        if _core._trace_depth and not self._record_all:
            cut = tuple(o for o, p in pairs
                        if isinstance(o, Value) and id(o) not in tracked
                        and id(p) not in tracked)
        self._records.append(_Record(kernel, operands, static, outputs,
                                     backward=backward, cut=cut))
        for v in _variables_used(kernel, backward):
            if self._watches(v):
                self._watched_variables.setdefault(id(v), v)
        for o in outputs:
            self._tracked[id(o)] = o

    def _watches(self, variable):
        return (self._record_all or id(variable) in self._watched_variables
                or (self._watch_accessed and variable.trainable))

    def _record_read(self, variable, value):
        if not self._watches(variable):
            return
        self._watched_variables.setdefault(id(variable), variable)
        self._records.append(_Record(_read_kernel, (), (variable,), [value],
                                     read=variable))
        self._tracked[id(value)] = value

    # --- gradient -----------------------------------------------------------
    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients="none", _stops=()):
        """d(sum of target)/d(sources), or with `output_gradients` the
        vector-Jacobian product. `sources` may be nested (lists, tuples,
        dicts) of arrays/values/Variables; the result has their structure.
        Unconnected sources give None, or zeros with
        unconnected_gradients="zero"."""
        if unconnected_gradients not in ("none", "zero"):
            raise ValueError("unconnected_gradients must be 'none' or 'zero', "
                             f"got {unconnected_gradients!r}")
        if self._recording and not self._persistent and \
                not self._record_all:
            # TensorFlow's (of its time): the tape would record the
            # gradient it computes.
            raise RuntimeError("GradientTape.gradient can only be called "
                               "once on non-persistent tapes, and only "
                               "when the context manager has exited")
        if self._used and not self._persistent:
            raise RuntimeError("GradientTape.gradient can only be called once "
                               "on a non-persistent tape (use "
                               "GradientTape(persistent=True))")
        self._used = True
        source_list, structure = tree_flatten(sources)
        targets = [t.read_value() if isinstance(t, Variable) else t
                   for t in tree_leaves(target)]
        cotangents = None
        if output_gradients is not None:
            cotangents = tree_leaves(output_gradients)
            if len(cotangents) != len(targets):
                raise ValueError(f"output_gradients has {len(cotangents)} "
                                 f"tensors for {len(targets)} targets")

        leaves = [s for s in source_list if not isinstance(s, Variable)
                  and _core.is_floating(s)]
        # Each variable once: a repeated one gets its gradient each time.
        variables = list({id(s): s for s in source_list
                          if isinstance(s, Variable)
                          and np.issubdtype(s.dtype, np.floating)}.values())
        if _C.is_tracing():
            grads = self._symbolic(targets, leaves, variables, cotangents,
                                   _stops)
        else:
            grads = self._compute(targets, leaves, variables, cotangents,
                                  frozenset(id(s) for s in _stops))
        result = []
        for s in source_list:
            g = grads.get(id(s))
            if g is None and unconnected_gradients == "zero":
                g = tnp.zeros_like(s.read_value() if isinstance(s, Variable)
                                   else s)
            result.append(g)
        return structure.unflatten(result)

    def _symbolic(self, targets, leaves, variables, cotangents, stops):
        """Inside a traced function: the C++ tracer's gradients() of the
        recorded values (it slices the ops between them into a function
        differentiated by trace.vjp). A variable's gradient is the sum of
        those of the values read from it under this tape.

        A user's tape differentiates what it recorded, as eagerly: targets
        it did not record and sources it does not watch get no gradient,
        and values it did not record (computed under stop_recording,
        before a watch or a reset) are held constant."""
        for v in variables:
            if id(v) in self._unrecorded_reads:
                raise ValueError(
                    f"the gradient with respect to Variable {v.name!r}: it "
                    "is read inside the body of a tracec.cond, while_loop "
                    "or fori_loop that assigns it (or of a function called "
                    "there, or of a tracec.checkpoint), where the tape "
                    "cannot record the read")
        if not self._record_all:
            keep = [i for i, t in enumerate(targets)
                    if id(t) in self._tracked]
            if not keep:
                return {}
            targets = [targets[i] for i in keep]
            if cotangents is not None:
                cotangents = [cotangents[i] for i in keep]
            leaves = [x for x in leaves if id(x) in self._tracked]
            stops = list(stops) + [o for rec in self._records
                                   for o in rec.cut]
        for v in variables:
            if id(v) in self._called_variables:
                _, callee, hoistable = self._called_variables[id(v)]
                raise (CallReadsNotHoisted if hoistable else ValueError)(
                    f"tracec.gradients with respect to Variable {v.name!r}: "
                    f"it is used inside {callee!r}, which this function "
                    "calls as a function of its own; compute the call under "
                    "a tracec.GradientTape (which records it inline) and use "
                    "tape.gradient")
        reads = {}
        for rec in self._records:
            if rec.read is not None:
                reads.setdefault(id(rec.read), []).extend(rec.outputs)
        xs = [_core.to_value(x) for x in leaves]
        owners = []
        for v in variables:
            for r in reads.get(id(v), []):
                xs.append(r)
                owners.append(id(v))
        if not xs:
            return {}
        ys = [_core.to_value(t) for t in targets]
        grad_ys = [_core.to_value(c) for c in cotangents or []]
        _core._set_location()
        grads = _gradients(ys, xs, grad_ys, stops, list(leaves))
        _core.record_on_tapes(xs + ys + grad_ys, grads,
                              list(leaves) + xs[len(leaves):] + list(targets)
                              + list(cotangents or []))
        out = {}
        for leaf, g in zip(leaves, grads):
            if g is not None:
                out[id(leaf)] = g
        for owner, g in zip(owners, grads[len(leaves):]):
            if g is not None:
                out[owner] = g if owner not in out else tnp.add(out[owner], g)
        return out

    def _backward(self, targets, leaves, variables, cotangents):
        """{id: gradient} from the compiled backward of the record whose
        output the target is, if it has one and the sources are its inputs
        and variables; else None."""
        if len(targets) != 1:
            return None
        for rec in reversed(self._records):
            j = next((j for j, o in enumerate(rec.outputs)
                      if o is targets[0]), None)
            if j is not None:
                if rec.backward is None:
                    return None
                return rec.backward.gradient(rec, j, leaves, variables,
                                             cotangents)
        return None

    def _compute(self, targets, leaves, variables, cotangents, stop_ids):
        """Eagerly: the records between the sources (leaves, variables)
        and the targets, replayed symbolically inside trace.vjp (_Replay)
        in a one-op function of the leaves, the other arrays they use and
        the cotangents, compiled once per program (cached); or a record's
        own `backward` when the target is the output of one (the tapes
        recording then record the replay with its results, for higher
        orders).

        The records are sliced by the C++ tracer's own slice
        (include/tracec/Frontend/GradientSlice.h), which gradients() uses on
        traced values, over the ids of the recorded values; a variable is a
        value that its reads read. Only the slice is replayed (so the
        stateful records outside it do not run again).
        """
        records = self._records
        leaf_index = {id(x): k for k, x in enumerate(leaves)}
        var_ids = [id(v) for v in variables]
        inputs, outputs, no_gradient = [], [], []
        for rec in records:
            if rec.read is not None:
                reads = [id(rec.read)]
            else:
                reads = [id(o) for o in rec.operands if _is_tensor(o)]
                reads += [id(v) for v in _variables_used(rec.kernel,
                                                         rec.backward)]
            inputs.append(reads)
            outputs.append([id(o) for o in rec.outputs])
            no_gradient += [id(o) for o in rec.outputs
                            if not _core.is_floating(o)]
        in_program, reached, intermediate = _C.slice_tape(
            inputs, outputs, [id(t) for t in targets],
            list(leaf_index) + var_ids, list(stop_ids), no_gradient)
        if not reached:
            return {}
        reached, intermediate = set(reached), set(intermediate)

        position = {r: i for i, r in enumerate(in_program)}
        producer = {id(o): (position[r], j) for r in in_program
                    for j, o in enumerate(records[r].outputs)}
        externals, ext_index = [], {}

        def ref(o):
            if not _is_tensor(o):
                return ("const", o)
            if id(o) in leaf_index:
                if id(o) in intermediate:
                    # Its own value plus the leaf (a zero) that the
                    # gradient is taken for.
                    return ("mid",) + producer[id(o)] + (leaf_index[id(o)],)
                return ("leaf", leaf_index[id(o)])
            p = producer.get(id(o))
            if p is not None and id(o) not in stop_ids:
                return ("rec",) + p
            if id(o) not in ext_index:
                ext_index[id(o)] = len(externals)
                externals.append(o)
            return ("ext", ext_index[id(o)])

        program = tuple((records[r].kernel, records[r].static,
                         tuple(ref(o) for o in records[r].operands))
                        for r in in_program)
        target_refs = tuple(ref(t) for t in targets)
        target_specs = tuple(_spec_of(t) for t in targets)
        key = (program, len(leaves), len(externals), target_refs,
               target_specs, tuple(id(v) for v in variables),
               cotangents is not None)
        replay = _replays.get(key)
        if replay is None:
            replay = _Replay(program, len(leaves), len(externals), target_refs,
                             target_specs, tuple(variables),
                             cotangents is not None)
            _replays[key] = replay
        operands = tuple(tnp.zeros_like(x) if id(x) in intermediate else x
                         for x in leaves) + tuple(externals) \
            + tuple(cotangents or ())
        backward = self._backward(targets, leaves, variables, cotangents)
        if backward is None:
            grads = apply(replay, operands, name="gradient")
            grads = [grads] if isinstance(grads, (Value, np.ndarray)) \
                else list(grads)
        else:
            # The tapes recording now record the gradient as the replay,
            # for higher orders.
            sources = list(leaves) + list(variables)
            grads = [backward.get(id(s)) for s in sources]
            grads = _core.taped([np.zeros(s.shape, s.dtype) if g is None
                                 else g for g, s in zip(grads, sources)])
            for tape in _core._tapes:
                tape._record(replay, operands, (), grads)
        out = {}
        for k, leaf in enumerate(leaves):
            if id(leaf) in reached:
                out[id(leaf)] = grads[k]
        for i, v in enumerate(variables):
            if id(v) in reached:
                out[id(v)] = grads[len(leaves) + i]
        return out


def _gradients(ys, xs, grad_ys, stops, sources):
    """The C++ tracer's gradients() of the Values ys with respect to the
    Values xs, holding the `stops` constant. An x that is also a stop (its
    source, among `sources`, is one of `stops`) gets its partial
    derivative, as in TensorFlow (gradients(a + b, [a, b],
    stop_gradients=[a, b]) is [1, 1]): the gradient flowing into it with
    the other stops held constant, which the C++ slice gives an x that is
    not a stop (C++ gradients() gives a stopped x none). One gradients()
    for the other xs, and one per stopped x."""
    stop_ids = {id(s) for s in stops}
    stopped = [k for k, x in enumerate(sources) if id(x) in stop_ids]
    stop_values = [_core.to_value(s) for s in stops]
    grads = _C.gradients(ys, xs, grad_ys, stop_values, False)
    for k in stopped:
        others = [v for s, v in zip(stops, stop_values) if s is not sources[k]]
        grads[k] = _C.gradients(ys, [xs[k]], grad_ys, others, False)[0]
    return grads


# The hidden tapes of the traced functions being traced, innermost last
# (function.py pushes them), which tracec.gradients differentiates.
function_tapes: list = []


def current_function_tape() -> Tape:
    """The hidden tape of the function being traced, or a RuntimeError."""
    if not _C.is_tracing() or not function_tapes:
        raise RuntimeError("tracec.gradients works inside a tracec.function "
                           "(eagerly, use tracec.GradientTape)")
    return function_tapes[-1]
