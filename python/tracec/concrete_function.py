"""ConcreteFunction: one trace of a tracec.function, compiled; and its calls
under eager gradient tapes, recorded as one op with a compiled backward
(the seeds' _backprop_call)."""
from __future__ import annotations

import functools
import os
import re

import numpy as np

from . import _core
from . import _tracec as _C
from ._tree import tree_leaves
from .signatures import TensorSpec, native_leaves
from .variables import Variable



def abi_library():
    """The static C library an exported object calls when it prints
    (tracec_print_tensor) or uses collectives (their agreement check and
    watchdog): link it after the object."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "libTracecABI.a")

class ConcreteFunction:
    """One trace of a tracec.function: for one input signature.

    `inputs` and `outputs` are TensorSpecs; `captured_inputs` the arrays
    closed over (extra arguments the function passes itself); `variables`
    the tracec.Variables it reads or assigns (resource arguments, updated
    in place); `ir()` the MLIR text, `ir(after_autodiff=True)` after
    automatic control dependencies and differentiation."""

    _device = "cpu"  # where it was compiled for (tracec.function's device)

    def __init__(self, c_function, template, array_positions, structure,
                 name):
        self._c = c_function
        self._template = template  # the outputs' TreeDef
        self._positions = array_positions  # of the arguments' array leaves
        self._structure = structure  # the arguments' TreeDef
        self._num_args = len(structure.children)
        # Each argument is an array (not a structure): __call__'s fast path.
        self._all_arrays = array_positions == list(range(self._num_args)) \
            and structure.num_leaves == self._num_args
        self._single = template.is_leaf
        self.name = name
        # The arrays its Python function closes over (function._trace).
        self._closed_over = ()
        # Traced with dynamic dims for a Function without a signature, and
        # whether its gradients failed under a tape (see Function._call).
        self._dynamic = False
        self._no_tape = False

    @property
    def inputs(self):
        return [TensorSpec(s, d) for d, s in self._c.inputs()]

    @property
    def outputs(self):
        return [TensorSpec(s, d) for d, s in self._c.outputs()]

    @property
    def structured_outputs(self):
        return self._template.unflatten(self.outputs)

    @property
    def captured_inputs(self):
        return self._c.captured_inputs()

    @property
    def variables(self):
        handles = self._c.variables()
        return [Variable._registry[id(h)] for h in handles
                if id(h) in Variable._registry]

    def ir(self, after_autodiff: bool = False) -> str:
        return self._c.ir(after_autodiff)

    def export(self, path, *, name=None, target_cpu="portable", threads=1):
        """Compiles this function ahead of time, as the `tracec` tool does:
        `<path>.o`, an object exporting `<model>_<name>(...)` (model: the
        file name of `path`; name: the Python function's), and `<path>.h`,
        its C/C++ header, the arguments named as in Python. A function that
        uses variables or closes over arrays also gets `<path>_data.c` and
        `<path>_data.h`: a C array `<model>_<argument>` per variable (its
        current value; pass it as the variable's argument, which the call
        updates in place) and per captured array (const). `target_cpu` is
        the tool's --target-cpu: by default the object carries code for
        x86-64-v3 and x86-64-v4 and picks at run time. An object that
        prints or uses collectives calls TracecABI: link
        tracec.abi_library() and -lpthread too (collectives: with mpicc).
        Returns the paths written."""
        stem = os.path.basename(os.fspath(path))
        name = name or re.sub(r"_\d+$", "", self._c.name)
        obj, header, prefix, arg_names = _C.compile_model(
            self.ir(), [self._c.name], stem, name, target_cpu, threads)
        written = [f"{path}.o", f"{path}.h"]
        with open(written[0], "wb") as f:
            f.write(obj)
        with open(written[1], "w") as f:
            f.write(header)
        data = _data_arrays(self, arg_names)
        if data:
            written += _write_data(path, stem, prefix, data)
        return written

    def compile_stats(self):
        """Where the compile time went: {"pipeline_seconds",
        "optimize_seconds", "codegen_seconds", "cache_hit"} (the persistent
        compile cache; see docs/guides/cpp.md)."""
        return self._c.compile_stats()

    def _call_arrays(self, arrays):
        flat = self._c(*arrays)
        if self._single:
            return flat[0]
        return self._template.unflatten(flat)

    def _call_leaves(self, leaves):
        """Runs on the leaves of the arguments (their arrays are used)."""
        if self._all_arrays:
            return self._call_arrays(leaves)
        return self._call_arrays([leaves[i] for i in self._positions])

    def __call__(self, *args):
        if self._all_arrays and len(args) == self._num_args:
            return self._call_arrays(args)
        leaves = self._structure.flatten_up_to(tuple(args))
        return self._call_leaves(native_leaves(leaves))

    def __repr__(self):
        ins = ", ".join(repr(s) for s in self.inputs)
        return f"<tracec.ConcreteFunction {self.name}({ins})>"


# ---------------------------------------------------------------------------
# Calls under an eager tape
# ---------------------------------------------------------------------------


class _FunctionKernel:
    """A tracec.function as one recorded op: replayed by inlining its Python
    function (the compiler then differentiates through it)."""

    def __init__(self, function, leaves, positions, structure, variables):
        self.function = function
        self.leaves = leaves  # the static leaves of the arguments
        self.positions = positions
        self.structure = structure
        self.variables = variables  # the float variables it uses
        self.__name__ = function._name

    def __call__(self, *values):
        leaves = list(self.leaves)
        for i, v in zip(self.positions, values):
            leaves[i] = v
        with _core.suspended_tapes():
            result = self.function._python_function(
                *self.structure.unflatten(leaves))
        return [_core.to_value(x) for x in tree_leaves(result)]


class _BackwardCall:
    """A tracec.function run under an eager tape through its compiled
    forward function (results + residuals), with the compiled backward
    function kept for the tape: the seeds' _backprop_call. Gradients of its
    outputs with respect to its array inputs and variables need no retrace
    and no second forward pass."""

    def __init__(self, pair, variables, variable_arguments, residuals):
        (self.forward, self.backward, self.num_results, self.num_residuals,
         self.cotangent_results, self.wrt) = pair
        self.variables = variables  # the float variables it uses
        self.variable_arguments = variable_arguments  # their argument index
        self.residuals = residuals

    def gradient(self, record, output, leaves, variables, cotangents):
        """The gradients for `leaves` and `variables` if they are this
        call's inputs and variables, else None (the tape replays)."""
        inputs = {}  # id -> every operand position of that array
        for k, o in enumerate(record.operands):
            inputs.setdefault(id(o), []).append(k)
        if any(id(x) not in inputs for x in leaves) or any(
                all(v is not w for w in self.variables) for v in variables):
            return None
        cts = []
        for j in self.cotangent_results:
            out = record.outputs[j]
            if j == output:
                cts.append(np.asarray(cotangents[0], out.dtype)
                           if cotangents else np.ones(out.shape, out.dtype))
            else:
                cts.append(np.zeros(out.shape, out.dtype))
        grads = self.backward(*self.residuals, *cts)
        by_wrt = dict(zip(self.wrt, grads))
        result = {}
        for x in leaves:
            # An array passed as several arguments: the sum of theirs.
            gs = [by_wrt[k] for k in inputs[id(x)] if k in by_wrt]
            if gs:
                result[id(x)] = functools.reduce(np.add, gs)
        for v in variables:
            index = next(i for i, w in enumerate(self.variables) if w is v)
            g = by_wrt.get(self.variable_arguments[index])
            if g is not None:
                result[id(v)] = g
        return result


def _float_variables(concrete):
    """The float variables a concrete function uses, and the index of each
    among its arguments (inputs, then captured inputs and variables)."""
    cached = getattr(concrete, "_float_variables", None)
    if cached is None:
        num_inputs = len(concrete._c.inputs())
        variables, arguments = [], []
        for k, (array, handle) in enumerate(concrete._c.extras()):
            if handle is not None and array.dtype.kind == "f":
                variables.append(Variable._registry[id(handle)])
                arguments.append(num_inputs + k)
        cached = concrete._float_variables = (variables, arguments)
    return cached


def _forward_backward(concrete):
    """The compiled forward/backward pair of a concrete function (with
    respect to its float inputs and variables) and its extra arguments,
    compiled once."""
    cached = getattr(concrete, "_forward_backward", None)
    if cached is None:
        wrt = [i for i, (dtype, _) in enumerate(concrete._c.inputs())
               if dtype in ("f16", "bf16", "f32", "f64")]
        _, variable_args = _float_variables(concrete)
        pair = concrete._c.forward_backward(wrt + variable_args,
                                            concrete._opt_level,
                                            concrete._device)
        cached = (pair, [a for a, _ in concrete._c.extras()])
        concrete._forward_backward = cached
    return cached


def _has_custom_gradients(concrete):
    """Whether a concrete function calls functions with a custom gradient.
    Its forward/backward pair would not use it: C++ forwardBackward
    differentiates after trace-autodiff has dropped trace.custom_vjp."""
    cached = getattr(concrete, "_custom_gradients", None)
    if cached is None:
        cached = concrete._custom_gradients = "trace.custom_vjp" in \
            concrete.ir()
    return cached


def _tape_kernel(function, concrete, leaves):
    """The kernel that records a call of `function` on tapes (kept per
    static arguments and structure)."""
    positions = concrete._positions
    static_leaves = tuple(None if i in positions else a
                          for i, a in enumerate(leaves))
    key = (function, static_leaves, concrete._structure)
    kernels = function.__dict__.setdefault("_tape_kernels", {})
    kernel = kernels.get(key)
    if kernel is None:
        kernel = kernels[key] = _FunctionKernel(
            function, static_leaves, positions, concrete._structure,
            _float_variables(concrete)[0])
    return kernel


def record_call(function, concrete, leaves):
    """Runs `concrete` (a trace of Function `function`) at the leaves of
    its arguments under the active tapes: through its forward function,
    recorded as one op whose backward is the compiled backward function
    (and whose replay inlines the Python function). A function with
    custom gradients runs as it is, recorded for replays only."""
    positions = concrete._positions
    operands = tuple(leaves[i] for i in positions)
    kernel = _tape_kernel(function, concrete, leaves)
    watched = _watched_closed_over(concrete)
    if watched:
        # The compiled pair holds those arrays constant: the tape replays
        # the call with them as operands instead (TensorFlow differentiates
        # through the captures of a function called under a tape).
        kernel = _closure_kernel(kernel, watched)
        results = _core.taped(list(concrete._c(*operands)))
        for tape in _core._tapes:
            tape._record(kernel, operands + watched, (), results)
        return concrete._template.unflatten(results)
    if _has_custom_gradients(concrete):
        results, backward = list(concrete._c(*operands)), None
    else:
        pair, extras = _forward_backward(concrete)
        flat = pair[0](*operands, *extras)
        results, residuals = list(flat[:pair[2]]), flat[pair[2]:]
        variables, variable_args = _float_variables(concrete)
        backward = _BackwardCall(pair, variables, variable_args, residuals)
    results = _core.taped(results)
    for tape in _core._tapes:
        tape._record(kernel, operands, (), results, backward=backward)
    return concrete._template.unflatten(results)


def _watched_closed_over(concrete):
    """The arrays `concrete`'s function closes over that an active tape
    watches or recorded."""
    return tuple(a for a in concrete._closed_over
                 if any(id(a) in t._tracked for t in _core._tapes))


class _ClosureKernel:
    """A call's kernel whose last operands are arrays its function closes
    over: replayed, the function uses their Values (the replay's leaves)
    where it closes over them."""

    def __init__(self, kernel, closed_over):
        self.kernel = kernel
        self.closed_over = closed_over
        self.variables = kernel.variables
        self.__name__ = kernel.__name__

    def __call__(self, *values):
        n = len(values) - len(self.closed_over)
        captures = {id(a): (a, v)
                    for a, v in zip(self.closed_over, values[n:])}
        with _core.function_scope(captures):
            return self.kernel(*values[:n])


def _closure_kernel(kernel, closed_over):
    """_ClosureKernel(kernel, closed_over), one per kernel and arrays (so
    the tape's replays of it are compiled once; it keeps the arrays, so
    their ids stay theirs)."""
    kernels = kernel.__dict__.setdefault("_closure_kernels", {})
    key = tuple(id(a) for a in closed_over)
    cached = kernels.get(key)
    if cached is None:
        cached = kernels[key] = _ClosureKernel(kernel, closed_over)
    return cached


# C element types of the arrays export writes (the header's for arguments).
_C_TYPES = {np.dtype(np.float32): ("float", "%.9g"),
            np.dtype(np.float64): ("double", "%.17g"),
            np.dtype(np.int32): ("int32_t", "%d"),
            np.dtype(np.int64): ("int64_t", "%dLL"),
            np.dtype(np.bool_): ("bool", "%d")}


def _data_arrays(concrete, names):
    """[(argument name, array, const?)]: the variables' current values and
    the captured arrays of `concrete`, named as the header names its
    arguments (`names`)."""
    kinds = concrete._c.argument_kinds()
    captured = iter(concrete._c.captured_inputs())
    handles = iter(concrete._c.variables())
    data = []
    for name, kind in zip(names, kinds):
        if kind == "captured":
            data.append((name, np.asarray(next(captured)), True))
        elif kind == "variable":
            variable = Variable._registry[id(next(handles))]
            if variable._handle.dtype == "bf16":
                # The header's type is the bf16 bits (uint16_t).
                raise ValueError(f"export: variable {variable.name} is bf16, "
                                 "which export does not write as C data yet")
            data.append((name, np.asarray(variable.numpy()), False))
    return data


def _c_literal(value, fmt):
    if isinstance(value, (float, np.floating)) and not np.isfinite(value):
        return "NAN" if np.isnan(value) else \
            ("INFINITY" if value > 0 else "-INFINITY")
    return fmt % value


def _write_data(path, stem, prefix, data):
    """<path>_data.h and .c: one C array per (name, array, const?)."""
    declarations, definitions = [], []
    for name, array, const in data:
        if array.dtype not in _C_TYPES:
            raise ValueError(f"export: {name} is a {array.dtype} array, "
                             "which has no C type here (float32, float64, "
                             "int32, int64, bool)")
        ctype, fmt = _C_TYPES[array.dtype]
        qualifier = "const " if const else ""
        symbol = f"{prefix}_{name}[{max(array.size, 1)}]"
        declarations.append(f"extern {qualifier}{ctype} {symbol};")
        values = ", ".join(_c_literal(v, fmt) for v in array.ravel().tolist())
        definitions.append(f"{qualifier}{ctype} {symbol} = {{{values}}};")
    guard = f"TRACEC_DATA_{prefix.upper()}_H"
    includes = "#include <math.h>\n#include <stdbool.h>\n#include <stdint.h>\n"
    comment = (f"/* Generated by tracec.ConcreteFunction.export ({stem}): the "
               "variables' values when exported and the captured arrays. */\n")
    header = (f"{comment}#ifndef {guard}\n#define {guard}\n{includes}"
              "#ifdef __cplusplus\nextern \"C\" {\n#endif\n"
              + "\n".join(declarations) +
              "\n#ifdef __cplusplus\n}\n#endif\n#endif\n")
    source = (f"{comment}#include \"{stem}_data.h\"\n\n"
              + "\n".join(definitions) + "\n")
    paths = [f"{path}_data.h", f"{path}_data.c"]
    for file, text in zip(paths, (header, source)):
        with open(file, "w") as f:
            f.write(text)
    return paths
