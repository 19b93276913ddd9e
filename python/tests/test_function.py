"""tracec.function: retracing rules, input signatures, captures, variables,
methods, nested functions, control dependencies, concrete functions."""
import numpy as np
import pytest

import tracec
import tracec.numpy as tnp


def f32(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def test_same_signature_does_not_retrace():
    traces = []

    @tracec.function
    def f(x, y):
        traces.append(1)
        return x * y + 1.0

    x, y = f32(2, 3), f32(2, 3, seed=1)
    np.testing.assert_allclose(f(x, y), x * y + 1.0, rtol=1e-6)
    np.testing.assert_allclose(f(y, x), x * y + 1.0, rtol=1e-6)
    assert len(traces) == 1 and f.trace_count == 1


def test_new_shape_dtype_or_static_value_retraces():
    traces = []

    @tracec.function
    def f(x, n):
        traces.append(n)
        return x * n

    x = f32(3)
    f(x, 2)
    f(f32(4), 2)                      # new shape
    f(x.astype(np.float64), 2)        # new dtype
    out = f(x, 3)                     # new non-array value
    f(x, 3)
    assert len(traces) == 4
    np.testing.assert_allclose(out, x * 3, rtol=1e-6)
    assert f(x.astype(np.float64), 2).dtype == np.float64


def test_python_control_flow_is_baked_into_each_trace():
    @tracec.function
    def f(x, training):
        return x * 2.0 if training else x

    x = f32(3)
    np.testing.assert_allclose(f(x, True), 2 * x)
    np.testing.assert_allclose(f(x, False), x)


def test_input_signature_fixes_the_signature():
    @tracec.function(input_signature=[tracec.TensorSpec((2,), np.float32)])
    def f(x):
        return x + 1.0

    np.testing.assert_array_equal(f(np.array([1, 2], np.float32)), [2, 3])
    np.testing.assert_array_equal(f([1.0, 2.0]), [2, 3])  # converted
    assert f.trace_count == 1
    with pytest.raises(ValueError, match=r"argument 0 does not match the "
                       r"input_signature: expected TensorSpec\(shape=\(2,\), "
                       r"dtype=float32\), got an array of shape \(3,\)"):
        f(np.zeros(3, np.float32))
    with pytest.raises(ValueError, match="dtype float64"):
        f(np.zeros(2, np.float64))
    with pytest.raises(TypeError, match=r"takes 1 argument \(input_signature\), got 2"):
        f(np.zeros(2, np.float32), np.zeros(2, np.float32))


def test_input_signature_must_hold_tensorspecs():
    # A structure of TensorSpecs (test_pytrees.py) is fine, not of ints.
    with pytest.raises(TypeError, match=r"input_signature\[0\]\[0\] is a "
                       "int, not a TensorSpec"):
        tracec.function(lambda x: x, input_signature=[(2,)])
    # None is a dynamic dim (test_dynamic_shapes.py); negative sizes are no
    # dims at all.
    with pytest.raises(ValueError, match=r"a dim is a size \(an int >= 0\) "
                       "or None"):
        tracec.TensorSpec((-1, 2))
    with pytest.raises(TypeError, match="not supported by tracec"):
        tracec.TensorSpec((2,), np.complex64)


def test_closed_over_arrays_are_captured_inputs():
    w = f32(3, 2)

    @tracec.function
    def f(x):
        return x @ w

    x = f32(4, 3, seed=2)
    np.testing.assert_allclose(f(x), x @ w, rtol=1e-5)
    concrete = f.get_concrete_function(x)
    assert len(concrete.captured_inputs) == 1
    np.testing.assert_array_equal(concrete.captured_inputs[0], w)
    assert [s.shape for s in concrete.inputs] == [(4, 3)]
    assert concrete.outputs == [tracec.TensorSpec((4, 2), np.float32)]


def test_variables_are_lifted_and_updated_in_place():
    # The seeds' example: compiled() returns 1.0, then 2.0.
    v = tracec.Variable(0.0)

    @tracec.function
    def compiled():
        v.assign_add(1.0)
        return v.read_value()

    assert float(compiled()) == 1.0
    assert float(compiled()) == 2.0
    assert float(v.numpy()) == 2.0
    concrete = compiled.get_concrete_function()
    assert concrete.variables == [v]
    assert "!trace.resource<tensor<f32>>" in concrete.ir()
    assert compiled.trace_count == 1


def test_a_variable_is_lifted_once_however_often_it_is_used():
    v = tracec.Variable(np.ones(2, np.float32))

    @tracec.function
    def f(x):
        v.assign(v * x)
        y = v.read_value() + v
        v.assign_add(y)
        return y

    x = np.array([2.0, 3.0], np.float32)
    np.testing.assert_array_equal(f(x), [4, 6])
    np.testing.assert_array_equal(v.numpy(), [6, 9])  # updated in place
    header = [line for line in f.get_concrete_function(x).ir().splitlines()
              if "func.func" in line][0]
    assert header.count("!trace.resource") == 1, header
    np.testing.assert_array_equal(f(x), [24, 54])  # sees the new value
    np.testing.assert_array_equal(v.numpy(), [36, 81])


def test_variable_assign_eagerly_and_shape_errors():
    v = tracec.Variable(np.zeros(3, np.float32))
    v.assign([1.0, 2.0, 3.0])
    v.assign_sub(np.ones(3, np.float32))
    np.testing.assert_array_equal(v.numpy(), [0, 1, 2])
    with pytest.raises(ValueError, match=r"cannot assign a value of shape \(4,\)"):
        v.assign(np.zeros(4, np.float32))


def test_methods_are_traced_per_instance():
    class Model(tracec.Module):
        def __init__(self, scale):
            super().__init__()
            self.w = tracec.Variable(np.full((2,), scale, np.float32))

        @tracec.function
        def call(self, x):
            return x * self.w

    a, b = Model(2.0), Model(3.0)
    x = np.ones(2, np.float32)
    np.testing.assert_array_equal(a.call(x), [2, 2])
    np.testing.assert_array_equal(b.call(x), [3, 3])
    np.testing.assert_array_equal(a.call(x), [2, 2])
    assert a.trainable_variables == [a.w]


def test_nested_functions_are_calls():
    @tracec.function
    def inner(x):
        return tnp.exp(x)

    @tracec.function
    def outer(x):
        return inner(x) + inner(2.0 * x)

    x = f32(3)
    np.testing.assert_allclose(outer(x), np.exp(x) + np.exp(2 * x), rtol=1e-5)
    assert inner.trace_count == 1  # traced once as outer's callee
    assert not inner._cache  # never compiled on its own
    assert outer.get_concrete_function(x).ir().count("call @inner_") == 2


def test_nested_outputs_keep_their_structure():
    @tracec.function
    def f(x):
        return {"double": x * 2.0, "pair": (x, x + 1.0)}

    out = f(np.ones(2, np.float32))
    assert set(out) == {"double", "pair"}
    np.testing.assert_array_equal(out["pair"][1], [2, 2])


def test_a_function_that_returns_none_returns_none_on_every_call():
    # The second call takes the fast path (cached trace, array arguments);
    # it took None for a single result (IndexError).
    v = tracec.Variable(np.zeros(3, np.float32))

    @tracec.function
    def step(x):
        v.assign_add(x)

    x = np.ones(3, np.float32)
    assert step(x) is None
    assert step(x) is None
    np.testing.assert_array_equal(v.numpy(), 2 * x)


def test_variables_created_on_the_first_trace_are_created_once():
    # The seeds' docstring: compiled() returns 1.0, then 2.0.
    state = {}

    @tracec.function
    def compiled():
        if "v" not in state:
            state["v"] = tracec.Variable(0.0)
        state["v"].assign_add(1.0)
        return state["v"].read_value()

    assert float(compiled()) == 1.0
    assert float(compiled()) == 2.0

    # A traced initial value that depends on no argument is lifted (an
    # optimizer's slot made from a variable's value): computed now, once.
    w = tracec.Variable(np.ones(3, np.float32))

    @tracec.function
    def slot():
        return tracec.Variable(tnp.zeros_like(w.read_value())).read_value()

    np.testing.assert_array_equal(slot(), np.zeros(3, np.float32))

    # One computed from an argument has no value yet: an error, no crash.
    @tracec.function
    def from_argument(x):
        return tracec.Variable(x * 2).read_value()

    with pytest.raises(ValueError, match="init_scope"):
        from_argument(np.ones(3, np.float32))


def test_prints_and_assigns_run_in_program_order(capfd):
    v = tracec.Variable(np.zeros(2, np.float32))

    @tracec.function
    def f(x):
        tracec.print(v, "before:")
        v.assign(x)
        tracec.print(v, "after:")
        v.assign_add(x)
        return x  # nothing uses the prints or assigns: they run anyway

    f(np.array([1, 2], np.float32))
    out = capfd.readouterr().out
    assert out.index("before: [0. 0.]") < out.index("after: [1. 2.]")
    np.testing.assert_array_equal(v.numpy(), [2, 4])


def test_ir_before_and_after_autodiff():
    @tracec.function
    def f(x):
        return tracec.grad(lambda y: tnp.sum(y * y))(x)

    x = f32(3)
    np.testing.assert_allclose(f(x), 2 * x, rtol=1e-6)
    concrete = f.get_concrete_function(x)
    assert "trace.grad" in concrete.ir()
    assert "__backward_" in concrete.ir(after_autodiff=True)


def test_unsupported_arguments_are_named():
    @tracec.function
    def f(x, options):
        return x

    # A dict is a structure (test_pytrees.py): its leaf is named by path.
    with pytest.raises(TypeError, match=r"argument 1\['a'\] is a set, which "
                       "is neither an array nor hashable"):
        f(np.ones(2, np.float32), {"a": {1}})

    @tracec.function
    def g(x):
        return object()

    with pytest.raises(TypeError, match="output 0 of g is a object"):
        g(np.ones(2, np.float32))


def test_symbolic_truth_value_is_an_error():
    @tracec.function
    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(TypeError, match="truth value of a symbolic"):
        f(np.float32(1.0))


def test_shape_errors_name_the_op_and_python_line():
    @tracec.function
    def f(x, y):
        return x + y  # the line reported

    with pytest.raises(tracec.TraceError) as info:
        f(np.ones((2, 3), np.float32), np.ones((4,), np.float32))
    message = str(info.value)
    line = f.python_function.__code__.co_firstlineno + 2
    assert f"test_function.py:{line}:0: error: 'trace.add' op" in message, \
        message
    assert "2x3" in message and "4" in message
    assert isinstance(info.value, ValueError)  # TraceError is a ValueError


def test_cached_call_checks_argument_types():
    @tracec.function
    def f(x):
        return x

    concrete = f.get_concrete_function(np.ones(2, np.float32))
    with pytest.raises(ValueError, match=r"expected tensor<2xf32>, got tensor<3xf32>"):
        concrete(np.ones(3, np.float32))


def test_unaligned_and_strided_inputs_are_copied():
    @tracec.function
    def f(x):
        return x + 0.0

    base = np.arange(40, dtype=np.float32)
    strided = base[::2][:8]
    misaligned = base[1:9]
    np.testing.assert_array_equal(f(strided), strided)
    np.testing.assert_array_equal(f(misaligned), misaligned)


def test_big_endian_inputs_are_converted_not_copied():
    @tracec.function
    def f(x):
        return x * 2.0

    # The same values in the other byte order: NumPy arithmetic gives the
    # values, a byte copy would give garbage.
    x = np.arange(6, dtype=">f4").reshape(2, 3)
    np.testing.assert_array_equal(f(x), np.arange(6, dtype=np.float32)
                                  .reshape(2, 3) * 2.0)
    y = np.arange(4, dtype=">i8")
    np.testing.assert_array_equal(tracec.function(lambda v: v + 1)(y),
                                  np.arange(1, 5))


def test_compile_stats_say_where_the_compile_went():
    @tracec.function
    def f(x):
        return tnp.exp(x) * 2.0

    stats = f.get_concrete_function(f32(3)).compile_stats()
    assert set(stats) == {"pipeline_seconds", "optimize_seconds",
                          "codegen_seconds", "cache_hit"}
    assert stats["pipeline_seconds"] > 0 and stats["codegen_seconds"] > 0
    assert stats["cache_hit"] is False  # the suite runs without the cache


def test_defun_is_an_alias_with_the_same_semantics():
    assert tracec.defun is tracec.function

    @tracec.defun
    def f(x):
        return x * 3.0

    x = f32(2)
    np.testing.assert_allclose(f(x), 3 * x, rtol=1e-6)
    f(x)
    assert isinstance(f, tracec.Function) and f.trace_count == 1


def test_get_concrete_function_from_tensorspecs_and_input_signature():
    @tracec.function
    def f(x, y):
        return x @ y, tnp.sum(y)

    concrete = f.get_concrete_function(tracec.TensorSpec((2, 3)),
                                       tracec.TensorSpec((3, 4)))
    assert f.trace_count == 1
    assert concrete.inputs == [tracec.TensorSpec((2, 3)),
                               tracec.TensorSpec((3, 4))]
    assert concrete.outputs == [tracec.TensorSpec((2, 4)),
                                tracec.TensorSpec((), np.float32)]
    assert concrete.captured_inputs == [] and concrete.variables == []
    x, y = f32(2, 3), f32(3, 4, seed=1)
    out, s = concrete(x, y)
    np.testing.assert_allclose(out, x @ y, rtol=1e-5)
    f(x, y)  # the same signature as the specs: no retrace
    assert f.trace_count == 1
    assert concrete.ir().startswith("module") and "trace.matmul" in concrete.ir()

    @tracec.function(input_signature=[tracec.TensorSpec((3,), np.float64)])
    def g(x):
        return tnp.exp(x)

    concrete = g.get_concrete_function()  # the input_signature's
    assert concrete.inputs == [tracec.TensorSpec((3,), np.float64)]
    assert g.get_concrete_function() is concrete and g.trace_count == 1


def test_method_instances_have_their_own_traces():
    class Model(tracec.Module):
        traces = 0

        def __init__(self, n):
            super().__init__()
            self.w = tracec.Variable(np.full(2, n, np.float32))

        @tracec.function
        def call(self, x):
            Model.traces += 1
            return x * self.w

    a, b = Model(1.0), Model(2.0)
    x = np.ones(2, np.float32)
    for _ in range(3):
        a.call(x)
        b.call(x)
    assert Model.traces == 2  # one per instance, cached
    assert a.call is a.call and a.call is not b.call
    assert Model.call.get_concrete_function is not None  # unbound: the Function
    a.w.assign([5.0, 6.0])
    np.testing.assert_array_equal(a.call(x), [5, 6])  # reads the variable


def test_arrays_in_and_out_without_a_copy():
    def aligned(n):
        buf = np.empty(n + 16, np.float32)
        start = (-buf.ctypes.data % 64) // 4
        return buf[start:start + n]

    w = aligned(6).reshape(2, 3)
    w[:] = f32(2, 3)

    @tracec.function
    def f(x):
        return x @ w

    x = aligned(4).reshape(2, 2)
    x[:] = f32(2, 2, seed=1)
    concrete = f.get_concrete_function(x)
    # An aligned C-contiguous array is borrowed, not copied: the captured
    # input shares its memory, and a change to it is seen by the next call.
    assert np.shares_memory(concrete.captured_inputs[0], w)
    w += 1.0
    out = f(x)
    np.testing.assert_allclose(out, x @ w, rtol=1e-5)
    # Results are arrays over the compiled function's result buffers.
    assert not out.flags.owndata and out.flags.c_contiguous
    assert out.ctypes.data % 64 == 0


def test_eager_ops_are_compiled_once_per_signature():
    from tracec import _core
    x = f32(7, 5)
    before = len(_core._eager_cache)
    first = tnp.multiply(tnp.tanh(x), 3.0)
    after_first = len(_core._eager_cache)
    again = tnp.multiply(tnp.tanh(f32(7, 5, seed=1)), 3.0)
    assert len(_core._eager_cache) == after_first  # cached: nothing new
    assert after_first - before == 2  # tanh and multiply for (7, 5) f32
    tnp.tanh(x.astype(np.float64))
    assert len(_core._eager_cache) == after_first + 1  # a new dtype
    np.testing.assert_allclose(first, np.tanh(x) * 3, rtol=1e-5)
    np.testing.assert_allclose(again, np.tanh(f32(7, 5, seed=1)) * 3,
                               rtol=1e-5)
