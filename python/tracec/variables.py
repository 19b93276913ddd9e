"""tracec.Variable: mutable state that traced functions update in place."""
from __future__ import annotations

import itertools
import weakref

import numpy as np

from . import _core
from . import _tracec as _C
from . import dlpack as _dlpack
from . import numpy as tnp

_ids = itertools.count()
# Creation order, by which tapes list their variables (TensorFlow's
# watched_variables sorts by the handle's id, which increases with it).
_creation_order = itertools.count()


class Variable(_core.VariableBase):
    """A mutable tensor, like tf.Variable.

    Inside a `tracec.function` a variable is lifted to a
    `!trace.resource` argument: reads are `trace.var.read`, assignments
    `trace.var.assign*`, and the compiled function updates the variable's
    buffer in place (no copy). Outside, reads and assignments act at once.

    >>> v = tracec.Variable(0.0)
    >>> @tracec.function
    ... def f():
    ...     v.assign_add(1.0)
    ...     return v.read_value()
    >>> f(), f()
    (array(1., dtype=float32), array(2., dtype=float32))
    """

    # id(handle) -> Variable: concrete functions name their variables by
    # handle (the C++ tracer's Variable).
    _registry = weakref.WeakValueDictionary()

    def __init__(self, initial_value, trainable: bool = True, name=None,
                 dtype=None):
        """`initial_value`: an array (also another library's, such as a
        torch tensor), a number, or a callable of no arguments that returns
        one (TensorFlow's `Variable(lambda: ...)`); a Python float is
        float32 unless `dtype` says otherwise."""
        tracing = _core.is_tracing()
        if callable(initial_value):
            # TensorFlow's initializer callable, with no arguments: run in
            # an init_scope, so that inside a traced function it computes
            # an array now rather than a value of the function.
            with _core.init_scope():
                initial_value = initial_value()
        if _core.is_foreign_array(initial_value):
            initial_value = _core.from_foreign(initial_value)
        if isinstance(initial_value, Variable):
            initial_value = initial_value.numpy()
        if isinstance(initial_value, _core.Value):
            initial_value = _lift_initial_value(initial_value)
        if dtype is None and isinstance(initial_value, float):
            dtype = np.float32
        array = np.asarray(initial_value, dtype=dtype)
        if array.dtype == np.float64 and dtype is None and not isinstance(
                initial_value, np.ndarray):
            array = array.astype(np.float32)
        _core.dtype_name(array.dtype)  # raises for unsupported dtypes
        # An array in GPU memory (device_put) makes a variable there, which
        # functions compiled for the GPU update in place.
        self._handle = _C.VariableHandle(
            array if _C.array_on_device(array) else np.array(array, order="C"))
        Variable._registry[id(self._handle)] = self
        self.trainable = trainable
        self._creation = next(_creation_order)
        self.name = name if name is not None else f"Variable{next(_ids)}"
        if tracing and _core._created_variables:
            # Created by a trace: TensorFlow lifts it out of the function,
            # created once; the function that made it keeps it alive (its
            # compiled code updates this variable on every call).
            _core._created_variables[-1].append(self)

    # --- properties -------------------------------------------------------
    @property
    def shape(self):
        return tuple(self._handle.shape)

    @property
    def dtype(self):
        return _core.numpy_dtype(self._handle.dtype)

    @property
    def ndim(self):
        return len(self.shape)

    def __repr__(self):
        return (f"<tracec.Variable '{self.name}' shape={self.shape} "
                f"dtype={self.dtype.name} numpy={self.numpy()!r}>")

    # --- values -----------------------------------------------------------
    def numpy(self) -> np.ndarray:
        """A copy of the current value."""
        return self._handle.value()

    def __array__(self, dtype=None):
        value = self.numpy()
        return value if dtype is None else value.astype(dtype)

    # --- DLPack: torch.from_dlpack(v) shares the variable's storage -------
    def __dlpack__(self, stream=None, **kwargs):
        return _dlpack.to_dlpack(self).__dlpack__(stream=stream, **kwargs)

    def __dlpack_device__(self):
        return _dlpack.to_dlpack(self).__dlpack_device__()

    def read_value(self):
        """The value: a Value read in program order inside a traced
        function, else a copy of the array."""
        if _core.is_tracing():
            value = self._read_elsewhere()
            if value is None:
                _core._set_location()
                value = _C.read(self._handle)
                for tape in _core._suspended_tapes:
                    if tape._watches(self):
                        tape._unrecorded_reads.setdefault(id(self), self)
            for tape in _core._tapes:
                tape._record_read(self, value)
            return value
        return self._eager_read()

    def _read_elsewhere(self):
        """The value, if a scope has it read elsewhere: an input of the
        custom_gradient call being traced, or a read before the op whose
        bodies are being traced (hoisted_reads); else None."""
        for scope in reversed(_core._variable_scopes):
            value = scope.read(self)
            if value is not None:
                return value
        return None

    value = read_value

    def _eager_read(self):
        value = _core.taped(self._handle.value())
        for tape in _core._tapes:
            tape._record_read(self, value)
        return value

    # --- assignment -------------------------------------------------------
    def _assign(self, op, value):
        if _core.is_tracing() or isinstance(value, _C.Value):
            for scope in _core._variable_scopes:
                scope.assign(self)
            _core._set_location()
            if not isinstance(value, _C.Value):
                value = _C.constant(np.asarray(value, self.dtype))
            getattr(_C, op)(self._handle, value)
            return self
        value = _core.to_array(value, f"the value assigned to {self.name}")
        current = self._handle.view()
        if op == "assign":
            new = value
        elif op == "assign_add":
            new = current + value
        else:
            new = current - value
        try:
            fits = np.broadcast_shapes(np.shape(new), self.shape) == self.shape
        except ValueError:
            fits = False
        if not fits:
            raise ValueError(f"cannot assign a value of shape {np.shape(new)} "
                             f"to variable {self.name} of shape {self.shape}")
        self._handle.assign(np.asarray(new, self.dtype))
        return self

    def assign(self, value):
        return self._assign("assign", value)

    def assign_add(self, delta):
        return self._assign("assign_add", delta)

    def assign_sub(self, delta):
        return self._assign("assign_sub", delta)

    # --- arithmetic: the ops of tracec.numpy on the variable's value -------
    def _binary(name, reverse=False):
        def method(self, other):
            op = getattr(tnp, name)
            return op(other, self) if reverse else op(self, other)
        return method

    __add__ = _binary("add")
    __radd__ = _binary("add", True)
    __sub__ = _binary("subtract")
    __rsub__ = _binary("subtract", True)
    __mul__ = _binary("multiply")
    __rmul__ = _binary("multiply", True)
    __truediv__ = _binary("divide")
    __rtruediv__ = _binary("divide", True)
    __matmul__ = _binary("matmul")
    __rmatmul__ = _binary("matmul", True)
    __pow__ = _binary("power")
    __lt__ = _binary("less")
    __le__ = _binary("less_equal")
    __gt__ = _binary("greater")
    __ge__ = _binary("greater_equal")
    del _binary

    def __neg__(self):
        return tnp.negative(self)

    def __getitem__(self, index):
        return tnp._getitem(self, index)

    __hash__ = object.__hash__
    __array_ufunc__ = None  # NumPy defers to our reflected operators


def _lift_initial_value(value):
    """The array a traced value computes, for a Variable's initial value
    (TensorFlow's init_scope lifting): the ops the function's hidden tape
    recorded for it are run again now, eagerly, on the arrays they used
    and the current values of the variables they read. A value computed
    from the function's arguments has no value before a call: an error."""
    producers = {}
    # The hidden tape of the function being traced records every op.
    for tape in [t for t in _core._tapes if t._record_all][-1:]:
        for record in tape._records:
            for i, output in enumerate(record.outputs):
                producers[id(output)] = (record, i)
    with _core.init_scope():
        array = _replay(value, producers, {})
    if array is None:
        raise ValueError(
            "tracec.Variable: the initial value is computed inside the "
            "tracec.function from its arguments, which have no value until "
            "it runs; pass a callable (Variable(lambda: ...)), compute it "
            "in `with tracec.init_scope():`, or create the Variable outside "
            "the function")
    return array


def _replay(value, producers, done):
    """value's array (None if it depends on an argument of the function)."""
    if not isinstance(value, _core.Value):
        return value
    if id(value) in done:
        return done[id(value)]
    entry = producers.get(id(value))
    result = None
    if entry is not None:
        record, index = entry
        if record.read is not None:
            result = record.read.numpy()
        else:
            operands = [_replay(o, producers, done) for o in record.operands]
            if not any(o is None for o in operands):
                outputs = _core._eager(record.kernel, tuple(operands),
                                       record.static, None)
                result = outputs if len(record.outputs) == 1 else \
                    outputs[index]
                result = np.asarray(result)
    done[id(value)] = result
    return result
