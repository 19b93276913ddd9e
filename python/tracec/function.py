"""tracec.function (alias tracec.defun): Python functions traced once per
input signature into the `trace` dialect, compiled, and called with NumPy
arrays.

>>> @tracec.function
... def f(x, w):
...     return tracec.nn.relu(x @ w)
>>> f(np.ones((2, 3), np.float32), np.ones((3, 4), np.float32)).shape
(2, 4)
"""
from __future__ import annotations

import contextlib
import functools
import inspect
import itertools
import os
import re
import threading
import time
import warnings
import weakref

import numpy as np

from . import _core
from . import _tracec as _C
from ._core import Value
from ._tree import leaves_with_paths, tree_flatten, tree_leaves, tree_map
from .concrete_function import ConcreteFunction, record_call
from .signatures import (Key, TensorSpec, argument_names, array_entry,
                         count_none, covers, describe, flatten_arguments,
                         has_none, is_array, is_weak, key_structure,
                         leaf_label, native_leaves, relax, shape_mismatch,
                         static_key, unhashable_argument)
from .hoisted_reads import trace_op
from .tape import CallReadsNotHoisted, Tape, function_tapes
from .variables import Variable

_names = itertools.count()
# LLVM's optimization level for traced functions (the test suite runs with
# TRACEC_OPT_LEVEL=1: it compiles many small functions once each).
DEFAULT_OPT_LEVEL = int(os.environ.get("TRACEC_OPT_LEVEL", "3"))

# ---------------------------------------------------------------------------
# tracec.function
# ---------------------------------------------------------------------------

_ARRAY_TYPES = (np.ndarray, np.generic)
_SPEC_TYPES = (np.ndarray, np.generic, TensorSpec)


def _as_traced_leaf(leaf, spec):
    """An argument of a call traced in another function as its TensorSpec
    takes it: a number as an array of the spec's dtype, an array for a bf16
    spec rounded to bf16 (traced values were checked to fit)."""
    if isinstance(leaf, Value):
        return leaf
    leaf = leaf if isinstance(leaf, np.ndarray) else \
        np.asarray(leaf, spec.numpy_dtype)
    if spec.dtype == "bf16":
        from .numpy import astype
        return astype(leaf, "bf16")
    return leaf


class Function:
    """A Python function traced per input signature (see tracec.function)."""

    def __init__(self, python_function, input_signature=None, name=None,
                 jit_compile_opt_level: int = None,
                 reduce_retracing: bool = False, traced_numbers=None,
                 autograph: bool = False, autograph_unroll: int = None,
                 device: str = None):
        functools.update_wrapper(self, python_function)
        # Not given: the device of the innermost `with tracec.device(...)`
        # around a call, else the CPU.
        self._device_given = device is not None
        self._device = _check_device(device or "cpu")
        self._on_devices = {}
        if autograph:
            from . import autograph as _autograph
            python_function = _autograph.convert(
                python_function, _autograph.DEFAULT_UNROLL
                if autograph_unroll is None else autograph_unroll)
        # tracec.jit: Python numbers among the arguments are traced, but for
        # the static ones (_StaticArguments); tracec.function: None.
        self._traced_numbers = traced_numbers
        self._python_function = python_function
        self._name = name or getattr(python_function, "__name__", "function")
        if self._name == "<lambda>":
            self._name = "lambda"
        self._opt_level = DEFAULT_OPT_LEVEL if jit_compile_opt_level is None \
            else jit_compile_opt_level
        self._input_signature = None
        # Keyword-only or **kwargs parameters: a call's keyword arguments
        # are passed as a trailing dict argument (see _bind_kwargs).
        self._keyword_call = _has_keyword_parameters(python_function)
        self._num_positional = _num_positional_parameters(python_function)
        if input_signature is not None:
            _check_input_signature(input_signature, self._keyword_call)
            # One TensorSpec, or a nested structure of them, per argument.
            self._input_signature = list(input_signature)
            self._signature_leaves, self._signature_structure = \
                tree_flatten(tuple(self._input_signature))
            for path, s in leaves_with_paths(tuple(self._input_signature)):
                if not isinstance(s, TensorSpec):
                    raise TypeError(f"input_signature{path} is a "
                                    f"{type(s).__name__}, not a TensorSpec")
        self._reduce_retracing = bool(reduce_retracing)
        self._cache = {}
        # array-only keys -> (compiled call, single result?, output template)
        self._fast = {}
        self._callees = {}  # signature -> the callee's symbol and template
        # Whether the functions it calls read their variables at the call
        # site (set on demand: _with_call_reads_hoisted).
        self._hoists_call_reads = False
        self._bound = weakref.WeakKeyDictionary()
        # Traces with None (dynamic) dims: [(their key, concrete)], the most
        # specific first; a call that no exact key caches may use one.
        self._general = []
        # reduce_retracing: per structure (static arguments, arrays' ranks
        # and dtypes), the most specific key covering every call so far;
        # and the structures whose dynamic trace failed (traced per shape).
        self._seen = {}
        self._no_relax = {}
        self.trace_count = 0
        self.compile_count = 0

    def _traced_function(self, *args):
        """The Python function on a call's bound arguments."""
        if self._keyword_call:
            return self._python_function(*args[:-1], **args[-1])
        return self._python_function(*args)

    @property
    def variables(self):
        """The variables its traces use (read, assign or create), in the
        order first used (TensorFlow's defun `variables`)."""
        seen = {}
        for concrete in self._cache.values():
            for v in concrete.variables:
                seen.setdefault(id(v), v)
        return list(seen.values())

    def _on_device(self, device):
        """This function for `device`: its traces and compiles of its own."""
        function = self._on_devices.get(device)
        if function is None:
            function = self._on_devices[device] = Function(
                self._python_function, self._input_signature, self._name,
                self._opt_level, self._reduce_retracing,
                self._traced_numbers, device=device)
            functools.update_wrapper(function, self._python_function)
        return function

    # Methods: `self` becomes a static argument of a per-instance Function.
    def __get__(self, instance, owner):
        if instance is None:
            return self
        try:
            return self._bound[instance]
        except (KeyError, TypeError):
            pass
        bound = Function(functools.partial(self._python_function, instance),
                         self._input_signature, self._name, self._opt_level,
                         self._reduce_retracing,
                         self._traced_numbers and
                         self._traced_numbers.after_self(),
                         device=self._device if self._device_given else None)
        functools.update_wrapper(bound, self._python_function)
        try:
            self._bound[instance] = bound
        except TypeError:
            pass
        return bound

    @property
    def python_function(self):
        return self._python_function

    def experimental_get_tracing_count(self) -> int:
        """How many times the Python function was traced (TensorFlow's
        name; also `trace_count`): once per new signature, plus its traces
        as a callee of other traced functions."""
        return self.trace_count

    def experimental_get_compile_count(self) -> int:
        """How many traces of it were JIT-compiled (`compile_count`): a
        trace with dynamic dims is compiled once for all its sizes."""
        return self.compile_count

    def _flatten(self, args):
        """(leaves, structure) of a call's arguments: flattened, or with an
        input_signature, flattened down to its TensorSpecs (TensorFlow's
        flatten_up_to: a list where the signature has a TensorSpec is one
        leaf, converted to an array)."""
        if self._input_signature is None:
            return flatten_arguments(args)
        specs = self._input_signature
        if len(args) != len(specs):
            raise TypeError(f"{self._name}() takes {len(specs)} argument"
                            f"{'s' if len(specs) != 1 else ''} "
                            f"(input_signature), got {len(args)}")
        try:
            leaves = self._signature_structure.flatten_up_to(tuple(args))
        except ValueError as error:
            # TensorFlow's error for this (a ValueError).
            raise ValueError(f"{self._name}(): the structure of the "
                             "arguments does not match the input_signature: "
                             f"{error}") from None
        return native_leaves(leaves), self._signature_structure

    def _key(self, args, leaves, structure):
        """The cache key of a call (None with an input_signature, which is
        checked): the arguments' structure and an entry per leaf."""
        if self._input_signature is not None:
            self._check_signature(leaves)
            return None
        # Arrays' entries are as __call__'s fast path computes them; a
        # TensorSpec (get_concrete_function) stands for an array, None dims
        # included.
        entries = tuple(array_entry(a) if isinstance(a, _SPEC_TYPES)
                        else static_key(a) for a in leaves)
        if None in entries:
            i = entries.index(None)
            raise unhashable_argument(leaf_label(args, i), leaves[i])
        return Key(structure, entries)

    def _check_signature(self, leaves):
        """Whether each leaf of the arguments fits its TensorSpec."""
        for i, (a, s) in enumerate(zip(leaves, self._signature_leaves)):
            if isinstance(a, Value):
                # A traced value keeps its dtype: bf16 fits only bf16.
                shape = tuple(a.shape)
                dtype = a.dtype if a.dtype == "bf16" else \
                    _core.numpy_dtype(a.dtype)
                fits = dtype == s.dtype
            elif isinstance(a, TensorSpec):
                shape, dtype = a.shape, a.dtype
                fits = dtype == s.dtype
            else:
                arr = np.asarray(a)
                shape, dtype = arr.shape, arr.dtype
                fits = s.takes_dtype(dtype) or (
                    # A Python number takes the spec's dtype.
                    not isinstance(a, _ARRAY_TYPES)
                    and np.can_cast(arr, s.numpy_dtype, "same_kind"))
            mismatch = shape_mismatch(shape, s.shape)
            if mismatch is not None or not fits:
                label = leaf_label(self._input_signature, i) + \
                    (f" ({s.name})" if s.name else "")
                why = f" ({mismatch})" if mismatch and len(shape) == \
                    len(s.shape) else ""
                dtype = "bfloat16" if isinstance(dtype, str) else \
                    np.dtype(dtype).name
                raise ValueError(
                    f"{self._name}(): {label} does not match the "
                    f"input_signature: expected {s}, got an array of shape "
                    f"{shape} and dtype {dtype}{why}")

    def __call__(self, *args, **kwargs):
        scope = _device_scope.name
        if scope is not None and scope != self._device and \
                not self._device_given:
            return self._on_device(scope)(*args, **kwargs)
        # The fast path: every argument an array, a cached trace, no tape,
        # not tracing. Its key is _key's for arrays; `_fast` holds what the
        # call needs, to spare attribute lookups (this is most of a call of
        # a tiny function).
        if not (kwargs or _core._tapes or _core._trace_depth):
            try:
                if len(args) == 1:
                    a = args[0]
                    entry = self._fast.get(((a.shape, a.dtype),))
                else:
                    entry = self._fast.get(
                        tuple([(a.shape, a.dtype) for a in args]))
            except AttributeError:
                entry = None
            if entry is not None:
                call, single, template = entry
                flat = call(*args)
                return flat[0] if single else template.unflatten(flat)
        return self._call(args, kwargs)

    def _cached(self, key, concrete):
        if len(self._cache) >= _MAX_CACHED_KEYS and self._general_for(key) \
                is concrete:
            return concrete  # served by a dynamic trace: enough sizes kept
        self._cache[key] = concrete
        if concrete._all_arrays and self._input_signature is None:
            # The arguments are arrays, no structure: per argument.
            self._fast[key.entries] = (concrete._c, concrete._single,
                                       concrete._template)
        return concrete

    def _call(self, args, kwargs):
        defaulted = frozenset()
        if kwargs or self._keyword_call or len(args) < self._num_positional:
            # Keyword arguments and defaults are bound to positions: the
            # same call spelled two ways is one signature.
            args, defaulted = self._bind_kwargs(args, kwargs)
        if self._traced_numbers is not None:
            args = self._traced_numbers.convert(args, self._keyword_call,
                                                defaulted)
        # Called while tracing another function: a func.call of its own
        # func.func. Under a GradientTape, the variables it reads are read
        # by the caller and passed as values, for the tape to differentiate
        # (inlined if it has effects: assigns, prints, random numbers).
        if _core.is_tracing():
            if _under_user_tape() or _core._hoisting:
                return self._call_hoisting_reads(args)
            return self._call_traced(args)
        leaves, structure = self._flatten(args)
        key = self._key(args, leaves, structure)
        concrete = self._cache.get(key)
        if key is not None:
            if concrete is None:
                concrete = self._general_for(key) or \
                    self._trace_once(key, leaves)
            elif not (concrete._dynamic and _core._tapes):
                return self._run(concrete, leaves)
            if concrete._dynamic:
                # A trace with dynamic dims for these shapes: it may fail
                # where a static one would not (see _general_failed); its
                # checks come first, so nothing has run then.
                if not (concrete._no_tape and _core._tapes):
                    try:
                        result = self._run(concrete, leaves)
                    except (ValueError, _C.CompileError) as error:
                        if not self._general_failed(concrete, error):
                            raise
                    else:
                        self._cached(key, concrete)
                        return result
                concrete = self._trace(leaves, key)
            self._cached(key, concrete)
            return self._run(concrete, leaves)
        if concrete is None:
            concrete = self._cached(key, self._trace(leaves, None))
        result = self._run(concrete, leaves)
        if key is None and concrete._all_arrays and \
                len(self._fast) < _MAX_CACHED_KEYS and \
                all(type(a) is np.ndarray for a in args):
            # These arrays' shapes and dtypes fit the input_signature: later
            # calls with the same skip its check (__call__'s fast path).
            self._fast[tuple((a.shape, a.dtype) for a in args)] = \
                (concrete._c, concrete._single, concrete._template)
        return result

    def _run(self, concrete, leaves):
        """Runs a trace on the leaves of a call's arguments."""
        if self._input_signature is not None:
            leaves = [np.asarray(a, s.numpy_dtype)
                      if not isinstance(a, np.ndarray) else a
                      for a, s in zip(leaves, self._signature_leaves)]
        if _core._tapes:
            return record_call(self, concrete, leaves)
        return concrete._call_leaves(leaves)

    def _general_for(self, key):
        """A trace with dynamic dims that serves `key`, the most specific."""
        for general, concrete in self._general:
            if covers(general, key):
                return concrete
        return None

    def _general_failed(self, concrete, error):
        """Whether a call that a trace with dynamic dims failed gets a
        static trace of its own instead."""
        if type(error) is ValueError:
            # A run-time check failed where this call's shapes are fine for
            # a static trace: a dim of size 1 that broadcasts (a `?` never
            # does).
            return True
        if _core._tapes:
            # Under a gradient tape: the forward/backward pair at `?`
            # failed to trace or compile. Taped calls trace per shape.
            concrete._no_tape = True
            warnings.warn(f"{self._name}: gradients of the trace with "
                          "dynamic dims failed, tracing each shape under "
                          f"tapes instead: {error}", RuntimeWarning,
                          stacklevel=4)
            return True
        return False

    def _new_trace(self, key, leaves):
        """The trace for a call (or get_concrete_function) that no trace
        serves. With reduce_retracing, a dim that has taken two values is
        traced dynamic (`?`, None), so that later sizes reuse the trace."""
        traced_key = key
        if self._reduce_retracing:
            structure = key_structure(key)
            seen = self._seen.get(structure)
            traced_key = key if seen is None else relax(seen, key)
            self._seen[structure] = traced_key
            if traced_key != key and structure not in self._no_relax:
                try:
                    concrete = self._trace(leaves, traced_key)
                except (_C.TraceError, _C.CompileError, TypeError) as error:
                    # Ops not lowered at `?` yet, or Python code computing
                    # with a None size: this structure is traced per shape.
                    self._no_relax[structure] = str(error)
                    warnings.warn(
                        f"{self._name}: tracing with dynamic dims "
                        f"{describe(traced_key)} failed, tracing each shape "
                        f"instead: {error}", RuntimeWarning, stacklevel=4)
                else:
                    self._add_general(traced_key, concrete)
                    return concrete
            traced_key = key
        concrete = self._trace(leaves, traced_key)
        if has_none(traced_key):
            self._add_general(traced_key, concrete)
        return concrete

    def _trace_once(self, key, leaves):
        """_new_trace, unless another thread traced `key` while this one
        waited: the check and the trace hold the process's trace lock (which
        traces take anyway), so each signature is traced once."""
        with _core._trace_lock:
            concrete = self._cache.get(key) or self._general_for(key)
            if concrete is None:
                concrete = self._new_trace(key, leaves)
                if not concrete._dynamic:
                    self._cached(key, concrete)
            return concrete

    def _add_general(self, key, concrete):
        concrete._dynamic = True
        self._cache[key] = concrete
        self._general.append((key, concrete))
        self._general.sort(key=lambda entry: count_none(entry[0]))

    def _bind_kwargs(self, args, kwargs):
        import inspect
        signature = inspect.signature(self._python_function)
        bound = signature.bind(*args, **kwargs)
        passed = set(bound.arguments)
        bound.apply_defaults()
        # The parameters the call left to their defaults, by name.
        defaulted = frozenset(bound.arguments) - passed
        if self._keyword_call:
            return tuple(bound.args) + (dict(bound.kwargs),), defaulted
        return tuple(bound.args), defaulted

    def get_concrete_function(self, *args) -> ConcreteFunction:
        """The concrete function for these arguments (arrays or TensorSpecs,
        also nested in lists, tuples and dicts), traced if it is not cached
        yet."""
        if not args and self._input_signature is not None:
            args = self._input_signature
        leaves, structure = self._flatten(args)
        key = self._key(args, leaves, structure)
        concrete = self._cache.get(key)
        if concrete is None and key is not None:
            concrete = self._general_for(key) or \
                self._trace_once(key, leaves)
            self._cached(key, concrete)
        elif concrete is None:
            concrete = self._cached(key, self._trace(leaves, None))
        return concrete

    def _call_hoisting_reads(self, args):
        """_call_traced with the callee's variable reads hoisted to the call
        site (values the caller reads and records on its tapes), or the
        Python function inlined if the callee has effects."""
        leaves, structure = self._flatten(args)
        key = ("hoisting reads",
               self._signature_key(args, leaves, structure)[1])
        if self._callees.get(key, {}).get("inline"):
            return self._traced_function(*args)
        try:
            return self._call_traced(args, key)
        except (_HasEffects, _C.TraceError) as error:
            # Effects cannot be hoisted: inline the function (a genuine
            # error is raised again there).
            self._callees[key] = {"inline": True, "why": str(error)}
            return self._traced_function(*args)

    def _signature_key(self, args, leaves, structure):
        """(positions of the array leaves of the arguments, the callee's
        cache key)."""
        if self._input_signature is not None:
            self._check_signature(leaves)
            return list(range(len(leaves))), None
        positions, entries = [], []
        for i, a in enumerate(leaves):
            if isinstance(a, Value):
                positions.append(i)
                entries.append((tuple(a.shape), a.dtype))
            elif isinstance(a, _ARRAY_TYPES):
                positions.append(i)
                entries.append((np.shape(a), _core.dtype_name(a.dtype)) +
                               array_entry(a)[2:])
            else:
                entry = static_key(a)
                if entry is None:
                    raise unhashable_argument(leaf_label(args, i), a)
                entries.append(entry)
        return positions, Key(structure, tuple(entries))

    def _call_traced(self, args, hoisting_key=None):
        """Records func.call @callee(args) in the function being traced: one
        private func.func per signature and outer trace (TensorFlow's
        nested defuns), reused by every call with that signature."""
        leaves, structure = self._flatten(args)
        positions, key = self._signature_key(args, leaves, structure)
        if self._input_signature is not None:
            leaves = [_as_traced_leaf(a, s)
                      for a, s in zip(leaves, self._signature_leaves)]
        hoisting = hoisting_key is not None
        if hoisting:
            key = hoisting_key
        callee = self._callees.get(key)
        if callee is None:
            callee = self._callees[key] = {
                "symbol": f"{_symbol_name(self._name)}_{next(_names)}"}
        values = [_core.to_value(leaves[i]) for i in positions]
        # The callee uses the caller's Values of the arrays a tape watches,
        # so that the tape differentiates through the call with respect to
        # them (a callee that does is traced for each call).
        captures = _core.captures_of(_watched_arrays())

        def body(inner):
            call_leaves = list(leaves)
            for i, v in zip(positions, inner):
                call_leaves[i] = _C.weak(v) if \
                    type(leaves[i]) is _core.WeakScalar else v
            effects = _core._effects
            hoists = hoisting or self._hoists_call_reads
            _core._hoisting += hoists
            try:
                result, tape = _run_recorded(self._traced_function,
                                             structure.unflatten(call_leaves),
                                             captures)
            finally:
                _core._hoisting -= hoists
            if hoisting and _core._effects != effects:
                raise _HasEffects(f"{self._name} prints or draws random "
                                  "numbers")
            outputs, callee["template"] = tree_flatten(result)
            callee["variables"] = tape.watched_variables()
            self.trace_count += 1
            return [_core.to_value(x, f"output {i} of {self._name}")
                    for i, x in enumerate(outputs)]

        _core._set_location()
        reads = []
        with _core.collecting_body_uses() as uses:
            if hoisting:
                flat, reads = _C.call_hoisting_reads(callee["symbol"], values,
                                                     body)
            else:
                flat = self._with_call_reads_hoisted(
                    lambda: _C.call(callee["symbol"], values, body))
        read_values = []
        for handle, value in reads:
            variable = Variable._registry[id(handle)]
            read_values.append(value)
            for tape in _core._tapes:
                tape._record_read(variable, value)
        if _core._tapes:
            _core.record_on_tapes(values + read_values, flat,
                                  [leaves[i] for i in positions]
                                  + read_values, uses)
        if not hoisting:
            for tape in _core._tapes:
                tape._called_variables.update(
                    (id(v), (v, self._name, True))
                    for v in callee["variables"])
        template = callee["template"]
        if template.is_leaf:
            return flat[0]
        return template.unflatten(flat)

    def _with_call_reads_hoisted(self, trace):
        """trace(), traced again with the functions it calls reading their
        variables at the call site if tracec.gradients asked for the
        gradient with respect to a variable only a callee reads (the read
        is then a value of this function, which the gradient goes through).
        Kept for later traces: it is what TensorFlow's gradient of a call
        does with the callee's captured variables."""
        while True:
            try:
                return trace()
            except CallReadsNotHoisted:
                if self._hoists_call_reads:
                    raise
                self._hoists_call_reads = True

    def _name_arguments(self, c_function, args, positions):
        """`trace.name`s of the traced func.func's arguments: the inputs'
        Python names (argument_names), the variables' names, captured_<k>
        for the arrays it closes over."""
        inputs = iter(argument_names(self._python_function, args, positions))
        variables = iter(Variable._registry.get(id(handle))
                         for handle in c_function.variables())
        names, captured = [], 0
        for kind in c_function.argument_kinds():
            if kind == "input":
                names.append(next(inputs))
            elif kind == "variable":
                variable = next(variables)
                names.append("" if variable is None else
                             re.sub(r"\W", "_", variable.name))
            else:
                names.append(f"captured_{captured}")
                captured += 1
        c_function.set_argument_names(names)

    def _trace(self, leaves, key):
        """Traces and compiles for `key` (shapes, None for a dynamic dim;
        None: the input_signature), given the leaves of the arguments."""
        if self._input_signature is not None:
            key = Key(self._signature_structure,
                      tuple((s.shape, s.dtype)
                            for s in self._signature_leaves))
            leaves = list(self._signature_leaves)
        positions = [i for i, entry in enumerate(key.entries)
                     if is_array(entry)]
        specs = [(_core.dtype_name(key.entries[i][1]),
                  list(key.entries[i][0])) for i in positions]
        holder = {}

        def body(values):
            call_leaves = list(leaves)
            for i, v in zip(positions, values):
                call_leaves[i] = _C.weak(v) if is_weak(key.entries[i]) else v
            _core._hoisting += self._hoists_call_reads
            try:
                result, tape = _run_recorded(
                    self._traced_function,
                    key.structure.unflatten(call_leaves))
            finally:
                _core._hoisting -= self._hoists_call_reads
            holder["closed_over"] = tape.closed_over
            outputs, holder["template"] = tree_flatten(result)
            return [_core.to_value(x, f"output {i} of {self._name}")
                    for i, x in enumerate(outputs)]

        name = f"{self._name}_{next(_names)}"
        start = time.perf_counter()
        _core._created_variables.append([])
        try:
            c_function = self._with_call_reads_hoisted(
                lambda: _core.trace(name, specs, body))
        finally:
            created = _core._created_variables.pop()
        self._name_arguments(c_function, key.structure.unflatten(leaves),
                             positions)
        self.trace_count += 1
        traced = time.perf_counter()
        c_function.compile(self._opt_level, self._device)
        self.compile_count += 1
        concrete = ConcreteFunction(c_function, holder["template"], positions,
                                    key.structure, name)
        concrete._opt_level = self._opt_level
        concrete._device = self._device
        concrete._closed_over = holder["closed_over"]
        concrete._created_variables = created
        concrete.trace_seconds = traced - start
        concrete.compile_seconds = time.perf_counter() - traced
        return concrete


# Exact shapes cached per function, past which sizes a dynamic trace serves
# are looked up again (a scan of the dynamic traces) instead of kept.
_MAX_CACHED_KEYS = 256


class _HasEffects(Exception):
    """A function called under a tape with its reads hoisted has effects."""


def _run_recorded(python_function, args, captures=None):
    """Runs python_function while it is traced into a func.func of its own,
    under a hidden tape that records it whole (for tracec.gradients) and
    without the tapes of enclosing functions; returns its result and the
    tape. `captures`: see _core.function_scope."""
    tape = Tape(persistent=True, record_all=True)
    leaves_before, structure_before = tree_flatten(args)
    function_tapes.append(tape)
    saved = _core._tapes[:]
    _core._tapes[:] = [tape]
    try:
        with _core.function_scope(captures) as closed_over:
            result = python_function(*args)
        # The arrays it closes over, for eager tapes that watch one
        # (concrete_function.record_call).
        tape.closed_over = tuple(closed_over.values())
        leaves, structure = tree_flatten(args)
        if structure != structure_before or any(
                a is not b for a, b in zip(leaves, leaves_before)):
            raise ValueError(
                "a tracec.function should not modify the structure of its "
                "arguments (list.append, list.pop, dict.update, ... on an "
                "argument): the trace would not match later calls; copy the "
                "argument first (TensorFlow's rule)")
        return result, tape
    finally:
        _core._tapes[:] = saved
        function_tapes.pop()


def _has_keyword_parameters(python_function):
    import inspect
    try:
        parameters = inspect.signature(python_function).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD) for p in parameters)


def _num_positional_parameters(python_function):
    import inspect
    try:
        parameters = inspect.signature(python_function).parameters.values()
    except (TypeError, ValueError):
        return 0
    return sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
               for p in parameters)


def _check_input_signature(input_signature, keyword_call):
    """TensorFlow's checks of an input_signature, when the function is
    defined."""
    if not isinstance(input_signature, (list, tuple)):
        raise TypeError("input_signature must be either a tuple or a list "
                        "of TensorSpecs (or of nested structures of them), "
                        f"got a {type(input_signature).__name__}")
    if keyword_call:
        raise ValueError("a tracec.function with an input_signature cannot "
                         "take keyword arguments (keyword-only or **kwargs "
                         "parameters): the signature is positional")


def _watched_arrays():
    """The arrays the active users' tapes watch."""
    return [x for t in _core._tapes if not t._record_all
            for x in t._tracked.values() if isinstance(x, np.ndarray)]


def _under_user_tape():
    return any(not t._record_all for t in _core._tapes)


def _symbol_name(name):
    name = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
    return name if name[:1].isalpha() or name[:1] == "_" else "f_" + name


def call_symbolic(symbolic, args):
    """symbolic(*args), for the symbolic function of a transform (one that
    records trace.grad, trace.vjp or trace.jvp ops on Values): inside a
    trace, called in place, its results recorded on the active tapes as one
    op; eagerly, traced and compiled per signature by a Function kept on
    it."""
    if _core.is_tracing():
        leaves, structure = flatten_arguments(args)
        args = structure.unflatten(leaves)

        def build():
            # One op for the tapes: what it traces is not recorded.
            with _core.suspended_tapes():
                return symbolic(*args)
        with _core.collecting_body_uses() as uses:
            result = trace_op(build)
        if _core._tapes:
            operands = [a for a in tree_leaves(args)
                        if isinstance(a, (Value, np.ndarray))]
            _core.record_on_tapes([_core.to_value(a) for a in operands],
                                  tree_leaves(result), operands, uses)
        return result
    compiled = getattr(symbolic, "_tracec_compiled", None)
    if compiled is None:
        # Traced through the branch above, as inside any trace.
        @functools.wraps(symbolic)
        def traced(*args):
            return call_symbolic(symbolic, args)
        compiled = symbolic._tracec_compiled = Function(traced)
    return compiled(*args)


def function(func=None, *, input_signature=None, name=None,
             reduce_retracing=False, autograph=False,
             experimental_autograph=None, autograph_unroll=None,
             device=None):
    """Traces `func` once per input signature and compiles it (tf.function).

    The signature is the dtypes and shapes of the array arguments plus the
    values of the other (hashable) arguments; a call with a new signature
    traces again. Arrays closed over become captured inputs; tracec.Variables
    become resource arguments, updated in place; Python control flow is
    baked into each trace.

    `input_signature`: one TensorSpec per argument, the only signature; a
    None dim is dynamic (`?`): one trace and one compile serve every size.
    `reduce_retracing=True` (TensorFlow's option, off by default as there):
    once a dim of an argument has taken two sizes, the function is traced
    again with that dim dynamic, and later sizes reuse that trace.
    `autograph=True` (`experimental_autograph`, the seeds' name): `if`,
    `while` and `for` on traced values become tracec.cond, while_loop and
    fori_loop (tracec.autograph); loops over Python ranges of more than
    `autograph_unroll` (default 8) iterations compile to loops too.
    `device="gpu"` compiles for an NVIDIA GPU (CUDA, docs/guides/gpu.md):
    calls take and return NumPy arrays as on the CPU, copied to and from
    the device; without a CUDA driver a call raises RuntimeError. Without
    `device`, a call inside `with tracec.device("gpu"):` runs on the GPU
    (the innermost scope decides), else on the CPU.

    >>> @tracec.function(input_signature=[tracec.TensorSpec((None,), np.float32)])
    ... def double(x):
    ...     return x * 2
    >>> double(np.array([1, 2], np.float32))
    array([2., 4.], dtype=float32)
    """
    if experimental_autograph is not None:
        autograph = experimental_autograph

    def make(f):
        return Function(f, input_signature, name,
                        reduce_retracing=reduce_retracing,
                        autograph=autograph, autograph_unroll=autograph_unroll,
                        device=device)
    return make if func is None else make(func)


defun = function


def jit(fun=None, *, static_argnums=None, static_argnames=None,
        input_signature=None, name=None, reduce_retracing=False,
        device=None):
    """tracec.function with JAX's habits (jax.jit): Python numbers among
    the arguments (also inside lists, dicts, ...) are traced, as float32,
    int32 or bool scalars, so a new value reuses the compiled function,
    unless their parameter is static: `static_argnums` (positions) and
    `static_argnames` (names), whose values are part of the cache key (each
    new one traces again) and must be hashable. Other non-array arguments
    are static, as with tracec.function. A traced Python number is weakly
    typed, as in JAX: it takes the dtype of the arrays it meets (an f16
    array times it stays f16; an int32 array plus a float is float32),
    while a NumPy scalar keeps its own dtype. `device` as for
    tracec.function.

    >>> @functools.partial(tracec.jit, static_argnames="n")
    ... def f(x, scale, n):
    ...     return x * scale ** n
    >>> f(np.float32(2), 3.0, n=2)
    array(18., dtype=float32)
    """
    def make(f):
        if not callable(f):
            raise TypeError(f"jit takes a callable, got a "
                            f"{type(f).__name__}")
        return Function(f, input_signature, name,
                        reduce_retracing=reduce_retracing,
                        traced_numbers=_StaticArguments(
                            f, static_argnums, static_argnames),
                        device=device)
    return make if fun is None else make(fun)


_DEVICES = ("cpu", "gpu")


def _check_device(device):
    if device not in _DEVICES:
        raise ValueError(f"device must be one of {_DEVICES}, got {device!r}")
    return device


class _DeviceScope(threading.local):
    """The innermost `with tracec.device(...)` of each thread (as
    TensorFlow's device stacks are per thread)."""
    name = None


_device_scope = _DeviceScope()


@contextlib.contextmanager
def device(name):
    """Calls of tracec functions inside run on `name` ("cpu" or "gpu")
    unless the function was given its own `device` (TensorFlow's
    `with tf.device(...)`): each device traces and compiles its own."""
    _check_device(name)
    outer, _device_scope.name = _device_scope.name, name
    try:
        yield
    finally:
        _device_scope.name = outer


class _StaticArguments:
    """Which parameters of a jit-ed function are static, by position and
    by name (each given as either, as JAX maps them)."""

    def __init__(self, f, static_argnums, static_argnames, positions=None,
                 names=None, parameters=None):
        if positions is not None:
            self.positions, self.names = positions, names
            self.parameters = parameters
            return
        nums = () if static_argnums is None else \
            (static_argnums,) if isinstance(static_argnums, int) else \
            tuple(static_argnums)
        names = () if static_argnames is None else \
            (static_argnames,) if isinstance(static_argnames, str) else \
            tuple(static_argnames)
        try:
            parameters = list(inspect.signature(f).parameters.values())
        except (TypeError, ValueError):
            parameters = []
        positional = [p.name for p in parameters if p.kind in (
            p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        # The positional parameters' names (defaults are bound by name).
        self.parameters = positional
        variadic = any(p.kind == p.VAR_POSITIONAL for p in parameters)
        self.positions = set()
        for num in nums:
            if not isinstance(num, int):
                raise TypeError(f"static_argnums must be ints, got {num!r}")
            if num < 0:
                num += len(positional)
            if num < 0 or (num >= len(positional) and not variadic):
                raise ValueError(
                    f"static_argnums {num} is out of range for "
                    f"{getattr(f, '__name__', 'the function')}, which takes "
                    f"{len(positional)} positional argument(s)")
            self.positions.add(num)
        known = {p.name for p in parameters}
        var_keyword = any(p.kind == p.VAR_KEYWORD for p in parameters)
        for n in names:
            if n not in known and not var_keyword:
                raise ValueError(f"static_argnames {n!r} is not a parameter "
                                 f"of {getattr(f, '__name__', 'the function')}")
            if n in positional:
                self.positions.add(positional.index(n))
        self.names = set(names) | {positional[i] for i in self.positions
                                   if i < len(positional)}

    def after_self(self):
        """The same for the method bound to an instance (position 0)."""
        return _StaticArguments(None, None, None,
                                {p - 1 for p in self.positions if p > 0},
                                self.names, self.parameters[1:])

    def convert(self, args, keyword_call, defaulted=frozenset()):
        """The arguments with the numbers of the non-static ones as arrays;
        static ones checked to be hashable. Parameters left to their
        (hashable) defaults stay Python values, as under JAX's jit, which
        never sees them."""
        n = len(args) - (1 if keyword_call else 0)
        converted = []
        for i, a in enumerate(args[:n]):
            if i < len(self.parameters) and \
                    self.parameters[i] in defaulted and _is_hashable(a):
                converted.append(a)
            elif i in self.positions:
                _check_hashable(a, f"static argument {i}")
                converted.append(a)
            else:
                converted.append(tree_map(_core.traced_number, a))
        if keyword_call:
            keywords = {}
            for k, v in args[-1].items():
                if k in defaulted and _is_hashable(v):
                    keywords[k] = v
                elif k in self.names:
                    _check_hashable(v, f"static argument {k!r}")
                    keywords[k] = v
                else:
                    keywords[k] = tree_map(_core.traced_number, v)
            converted.append(keywords)
        return tuple(converted)


def _is_hashable(value):
    try:
        hash(value)
        return True
    except TypeError:
        return False


def _check_hashable(value, what):
    try:
        hash(value)
    except TypeError:
        raise TypeError(f"{what} is a {type(value).__name__}, which is not "
                        "hashable: static arguments are part of the cache "
                        "key (JAX's rule); pass arrays as traced arguments")\
            from None
