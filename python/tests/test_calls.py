"""tracec.functions called by other traced functions: a func.func of their
own and a func.call per call (TensorFlow's nested defuns), one callee per
signature, reused; gradients through the calls (trace-autodiff) checked
against the same code inlined, NumPy and PyTorch."""
import numpy as np
import pytest
import torch

import tracec
import tracec.numpy as tnp


def f32(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def test_nested_function_is_called_not_inlined():
    @tracec.function
    def inner(x):
        return tnp.exp(x)

    @tracec.function
    def outer(x, y):
        return inner(x) + inner(2.0 * x) + tnp.sum(inner(y))

    x, y = f32(3), f32(2, 2, seed=1)
    np.testing.assert_allclose(outer(x, y), np.exp(x) + np.exp(2 * x)
                               + np.exp(y).sum(), rtol=1e-5)
    ir = outer.get_concrete_function(x, y).ir()
    # One callee per signature, reused by the two calls with x's shape.
    assert ir.count("func.func private @inner_") == 2, ir
    calls = [line for line in ir.splitlines() if "call @inner_" in line]
    assert len(calls) == 3, ir
    assert len({line.split("@")[1].split("(")[0] for line in calls}) == 2
    assert inner.trace_count == 2  # traced once per signature, as a callee


def test_callee_keeps_output_structure_and_static_arguments():
    @tracec.function
    def inner(x, power):
        return {"y": x ** power, "pair": (x, tnp.sum(x))}

    @tracec.function
    def outer(x):
        a = inner(x, 2)
        b = inner(x, 3)
        return a["y"] + b["y"] + a["pair"][1]

    x = f32(4)
    np.testing.assert_allclose(outer(x), x ** 2 + x ** 3 + x.sum(), rtol=1e-5)
    ir = outer.get_concrete_function(x).ir()
    assert ir.count("func.func private @inner_") == 2, ir  # power 2 and 3


def test_captured_arrays_and_variables_are_arguments_of_the_callee():
    table = f32(3, seed=3)
    w = tracec.Variable(f32(3, seed=4), name="w")

    @tracec.function
    def inner(x):
        return x * table + w

    @tracec.function
    def outer(x):
        return inner(x) * inner(x + 1.0)

    x = f32(3)
    ref = (x * table + w.numpy()) * ((x + 1) * table + w.numpy())
    np.testing.assert_allclose(outer(x), ref, rtol=1e-5)
    ir = outer.get_concrete_function(x).ir()
    callee = [line for line in ir.splitlines()
              if "func.func private @inner_" in line][0]
    assert "!trace.resource<tensor<3xf32>>" in callee, ir
    assert callee.count("tensor<3xf32>") >= 3, ir  # x, the table, w


def stateful_pair(decorate):
    """An inner function that assigns a variable and reads it back, and an
    outer one calling it twice; inner is a tracec.function or inlined."""
    v = tracec.Variable(np.full(3, 0.5, np.float32), name="v")

    def inner(x):
        v.assign_add(x)
        return tnp.exp(x) * v.read_value()

    if decorate:
        inner = tracec.function(inner)

    def outer(x):
        return tnp.sum(inner(x) + inner(2.0 * x))

    return v, inner, outer


def test_state_in_calls_runs_in_program_order():
    x = f32(3)
    for decorate in (True, False):
        v, _, outer = stateful_pair(decorate)
        out = tracec.function(outer)(x)
        v1 = 0.5 + x
        v2 = v1 + 2 * x
        np.testing.assert_allclose(out, np.sum(np.exp(x) * v1
                                               + np.exp(2 * x) * v2),
                                   rtol=1e-5)
        np.testing.assert_allclose(v.numpy(), v2, rtol=1e-6)


@pytest.mark.parametrize("traced", [False, True])
def test_grad_through_a_call_with_an_assign_matches_inlined(traced):
    x = f32(3)
    results = []
    for decorate in (True, False):
        v, inner, outer = stateful_pair(decorate)
        outer = tracec.function(outer)
        vg = tracec.value_and_grad(outer)
        if traced:
            vg = tracec.function(lambda x, vg=vg: vg(x))
        value, g = vg(x)
        results.append((value, g, v.numpy().copy()))
        if decorate:
            fn = vg if traced else outer
            ir = fn.get_concrete_function(x).ir() if traced else \
                outer.get_concrete_function(x).ir()
            assert "call @inner_" in ir, ir
    (value, g, v_after), (value_i, g_i, v_i) = results
    np.testing.assert_allclose(value, value_i, rtol=1e-6)
    np.testing.assert_allclose(g, g_i, rtol=1e-6)
    np.testing.assert_allclose(v_after, v_i, rtol=1e-6)
    # Reads are leaves (TensorFlow's rule): d/dx = e^x v1 + 2 e^2x v2 with
    # v1, v2 the values read after each assign.
    v1 = 0.5 + x
    v2 = v1 + 2 * x
    np.testing.assert_allclose(g, np.exp(x) * v1 + 2 * np.exp(2 * x) * v2,
                               rtol=1e-5)
    np.testing.assert_allclose(v_after, v2, rtol=1e-6)


def test_gradients_through_calls_match_torch():
    w1, w2 = f32(3, 4, seed=1), f32(4, 2, seed=2)

    @tracec.function
    def dense(x, w):
        return tnp.tanh(x @ w)

    @tracec.function
    def loss(w1, w2, x):
        return tnp.mean(tnp.square(dense(dense(x, w1), w2)))

    x = f32(5, 3)
    g1, g2 = tracec.grad(loss, argnums=(0, 1))(w1, w2, x)
    tw1, tw2 = (torch.tensor(a, requires_grad=True) for a in (w1, w2))
    (torch.tanh(torch.tanh(torch.tensor(x) @ tw1) @ tw2) ** 2).mean().backward()
    np.testing.assert_allclose(g1, tw1.grad.numpy(), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(g2, tw2.grad.numpy(), rtol=1e-4, atol=1e-6)

    # Eagerly under a tape: the outer function's compiled forward/backward
    # pair differentiates through its calls.
    with tracec.GradientTape() as tape:
        tape.watch([w1, w2])
        value = loss(w1, w2, x)
    e1, e2 = tape.gradient(value, [w1, w2])
    np.testing.assert_allclose(e1, g1, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(e2, g2, rtol=1e-5, atol=1e-7)


def test_a_method_under_a_tape_in_a_traced_step_is_a_call():
    # A model whose call is decorated, differentiated by a tape inside the
    # traced training step: the caller reads the variables (the tape
    # watches those reads) and passes their values to the callee.
    class Model(tracec.Module):
        def __init__(self):
            super().__init__()
            self.w = tracec.Variable(f32(3, 2, seed=5), name="w")

        @tracec.function
        def __call__(self, x):
            return x @ self.w

    model = Model()

    @tracec.function
    def step(x):
        with tracec.GradientTape() as tape:
            loss = tnp.sum(tnp.square(model(x)))
        return tape.gradient(loss, model.w)

    x = f32(4, 3)
    g = step(x)
    np.testing.assert_allclose(g, 2 * x.T @ (x @ model.w.numpy()), rtol=1e-5)
    ir = step.get_concrete_function(x).ir()
    callee = [line for line in ir.splitlines()
              if "func.func private @__call___" in line]
    assert len(callee) == 1 and "resource" not in callee[0], ir
    assert "trace.var.read" in ir and "call @__call___" in ir, ir


class TwoLayer(tracec.Module):
    def __init__(self):
        super().__init__()
        self.w1 = tracec.Variable(f32(3, 4, seed=1) * 0.5, name="w1")
        self.w2 = tracec.Variable(f32(4, 2, seed=2) * 0.5, name="w2")

    @tracec.function
    def layer1(self, x):
        return tnp.tanh(x @ self.w1)

    @tracec.function
    def __call__(self, x):
        # A call inside a call: both hoist their reads to the step.
        return tnp.tanh(self.layer1(x) @ self.w2)


def torch_two_layer(model, x, scale):
    tw1, tw2 = (torch.tensor(v.numpy(), requires_grad=True)
                for v in (model.w1, model.w2))
    tx = torch.tensor(x, requires_grad=True)
    h = lambda a: torch.tanh(torch.tanh(a @ tw1) @ tw2)  # noqa: E731
    loss = (h(tx) ** 2).mean() + h(scale * tx).sum()
    loss.backward()
    return loss.item(), tw1.grad.numpy(), tw2.grad.numpy(), tx.grad.numpy()


def test_calls_under_a_tape_in_a_traced_function_match_torch():
    model = TwoLayer()
    opt = tracec.SGD(0.1)

    @tracec.function
    def step(x):
        with tracec.GradientTape() as tape:
            tape.watch(x)
            loss = tnp.mean(tnp.square(model(x))) + tnp.sum(model(0.5 * x))
        gx, *grads = tape.gradient(loss, [x] + model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss, gx, grads

    x = f32(5, 3, seed=3)
    for _ in range(3):
        expected = torch_two_layer(model, x, 0.5)
        loss, gx, (g1, g2) = step(x)
        np.testing.assert_allclose(loss, expected[0], rtol=1e-5)
        np.testing.assert_allclose(g1, expected[1], rtol=1e-4, atol=1e-6)
        np.testing.assert_allclose(g2, expected[2], rtol=1e-4, atol=1e-6)
        np.testing.assert_allclose(gx, expected[3], rtol=1e-4, atol=1e-6)
    assert step.trace_count == 1
    ir = step.get_concrete_function(x).ir()
    # One callee per method (and signature), called twice each.
    assert ir.count("func.func private @__call___") == 1, ir
    assert ir.count("func.func private @layer1_") == 1, ir
    assert "!trace.resource" not in "".join(
        line for line in ir.splitlines() if "func.func private" in line), ir


def test_a_call_with_effects_under_a_tape_is_inlined():
    # An assign, a print or a random draw cannot be hoisted to the caller:
    # the function is inlined, and the tape still differentiates it.
    counter = tracec.Variable(0.0, trainable=False, name="counter")
    w = tracec.Variable(f32(3, seed=2), name="w")

    @tracec.function
    def assigns(x):
        counter.assign_add(1.0)
        return x * w

    @tracec.function
    def prints(x):
        tracec.print(x, "x:")
        return tnp.exp(x * w)

    @tracec.function
    def step(x):
        with tracec.GradientTape() as tape:
            loss = tnp.sum(assigns(x)) + tnp.sum(prints(x))
        return tape.gradient(loss, w)

    x = f32(3)
    g = step(x)
    np.testing.assert_allclose(g, x + x * np.exp(x * w.numpy()), rtol=1e-5)
    assert float(counter.numpy()) == 1.0
    ir = step.get_concrete_function(x).ir()
    assert "call @" not in ir and "trace.print" in ir, ir


def test_gradients_for_a_variable_only_a_callee_reads():
    # TensorFlow differentiates a call with respect to the variables the
    # callee captures; tracec traces the caller again with the callee's
    # reads at the call site, where tracec.gradients sees them.
    w = tracec.Variable(f32(3), name="weights")

    @tracec.function
    def inner(x):
        return x * w

    @tracec.function
    def middle(x):
        return inner(x) * x

    @tracec.function
    def outer(x):
        y = tnp.sum(inner(x)) + tnp.sum(middle(x))
        return tracec.gradients(y, [w])[0]

    x = f32(3)
    np.testing.assert_allclose(outer(x), x + x * x, rtol=1e-6)
    # Kept for later traces: another shape traces once, hoisting at once.
    count = outer.trace_count
    x2 = f32(2, 3, seed=1)
    np.testing.assert_allclose(outer(x2), np.sum(x2 + x2 * x2, 0), rtol=1e-6)
    assert outer.trace_count == count + 1
    ir = outer.get_concrete_function(x2).ir()
    callees, caller = ir.split("func.func @outer")
    assert "trace.var.read" in caller and "trace.var.read" not in callees, ir


def test_gradients_for_a_variable_a_callee_assigns():
    # A callee that assigns the variable is inlined (its read after the
    # assign cannot move to the call site): the gradient is of that read.
    w = tracec.Variable(f32(3), name="weights")

    @tracec.function
    def inner(x):
        w.assign(2 * w)
        return x * w

    @tracec.function
    def outer(x):
        return tracec.gradients(tnp.sum(inner(x)), [w])[0]

    x, w0 = f32(3, seed=1), w.numpy()
    np.testing.assert_allclose(outer(x), x)
    np.testing.assert_allclose(w.numpy(), 2 * w0)


def test_gradients_through_a_stateful_call_is_an_error():
    v = tracec.Variable(np.zeros(3, np.float32), name="v")

    @tracec.function
    def inner(x):
        v.assign_add(x)
        return x * x

    @tracec.function
    def outer(x):
        return tracec.gradients(tnp.sum(inner(x)), [x])[0]

    with pytest.raises(tracec.TraceError, match=r"gradients: the values "
                       r"between xs and ys go through a call of @inner_\d+, "
                       r"which has side effects"):
        outer(f32(3))


def test_callee_input_signature_is_checked_at_the_call():
    @tracec.function(input_signature=[tracec.TensorSpec((2,), np.float32)])
    def inner(x):
        return x * 2.0

    @tracec.function
    def outer(x):
        return inner(x)

    np.testing.assert_allclose(outer(np.ones(2, np.float32)), [2, 2])
    with pytest.raises(ValueError, match=r"inner\(\): argument 0 does not "
                       r"match the input_signature: expected "
                       r"TensorSpec\(shape=\(2,\), dtype=float32\), got an "
                       r"array of shape \(3,\)"):
        outer(np.ones(3, np.float32))


def test_a_cached_function_called_while_tracing_is_still_a_call():
    # inner's fast path (a compiled call on arrays) must not run while outer
    # is traced: that would bake inner's result, with v's value at trace
    # time, into outer as a constant.
    v = tracec.Variable(np.ones(3, np.float32))
    table = f32(3, seed=7)

    @tracec.function
    def inner(x):
        return x * v

    @tracec.function
    def outer(y):
        return inner(table) + y

    np.testing.assert_allclose(inner(table), table)  # cached, fast path
    y = f32(3, seed=8)
    np.testing.assert_allclose(outer(y), table + y, rtol=1e-6)
    v.assign(np.full(3, 2.0, np.float32))
    np.testing.assert_allclose(outer(y), 2 * table + y, rtol=1e-6)
    assert "call @inner_" in outer.get_concrete_function(y).ir()


def test_calls_inside_branches_and_loops_share_one_callee():
    w = tracec.Variable(np.full(3, 0.5, np.float32))

    @tracec.function
    def step(h):
        return tnp.tanh(h * w + 1.0)

    @tracec.function
    def outer(x, flag):
        y = tracec.cond(flag, lambda x: step(x), lambda x: x * 2.0, x)
        y = tracec.fori_loop(0, 3, lambda i, h: step(h), y)
        return step(y)

    def reference(x, flag):
        s = lambda h: np.tanh(h * 0.5 + 1.0)  # noqa: E731
        y = s(x) if flag else x * 2.0
        for _ in range(3):
            y = s(y)
        return s(y)

    x = f32(3)
    for flag in (True, False):
        np.testing.assert_allclose(outer(x, np.asarray(flag)),
                                   reference(x, flag), rtol=1e-5)
    ir = outer.get_concrete_function(x, np.asarray(True)).ir()
    assert ir.count("func.func private @step_") == 1, ir
    assert ir.count("call @step_") == 3, ir


# --- captures and gradients (issue 30) ---------------------------------------


def test_gradients_with_respect_to_a_captured_array():
    # TensorFlow's testGradientWrtCaptured: an array a function closes over
    # is one captured input however often it is used, so gradients with
    # respect to it see every use (they were None).
    w = np.array([0.5, -1.5, 2.0])
    x = np.array([1.0, 2.0, -3.0])

    @tracec.function
    def symbolic(x):
        y = tnp.sum(tnp.sin(x * w) * w)
        return tracec.gradients(y, w)[0]

    @tracec.function
    def taped(x):
        inner = tracec.function(lambda a: tnp.sum(tnp.sin(a * w) * w))
        with tracec.GradientTape() as tape:
            tape.watch(w)
            y = inner(x) + tnp.sum(tnp.square(w))   # through a call, and not
        return tape.gradient(y, w)

    expected = np.cos(x * w) * x * w + np.sin(x * w)
    np.testing.assert_allclose(symbolic(x), expected, rtol=1e-12)
    np.testing.assert_allclose(taped(x), expected + 2 * w, rtol=1e-12)
    ir = symbolic.get_concrete_function(x).ir()
    assert ir.splitlines()[1].count("tensor<3xf64>") == 2, ir  # x and w


def test_a_tape_differentiates_through_what_callees_close_over():
    # The callee (a call, a grad transform) uses h, which the tape recorded:
    # an input of the call for the tape, as an operand is.
    x = np.array([0.3, -1.2])

    @tracec.function
    def through_a_call(x):
        with tracec.GradientTape() as tape:
            tape.watch(x)
            h = tnp.tanh(x)
            inner = tracec.function(lambda a: tnp.sum(a * h))
            y = inner(np.array([2.0, 3.0]))
        return tape.gradient(y, x)

    @tracec.function
    def through_a_grad(x):
        with tracec.GradientTape() as tape:
            tape.watch(x)
            h = tnp.tanh(x)
            g = tracec.grad(lambda a: tnp.sum(a * a * h))(x)   # 2 x h
            y = tnp.sum(g)
        return tape.gradient(y, x)

    dh = 1 - np.tanh(x) ** 2
    np.testing.assert_allclose(through_a_call(x), np.array([2.0, 3.0]) * dh,
                               rtol=1e-12)
    np.testing.assert_allclose(through_a_grad(x),
                               2 * np.tanh(x) + 2 * x * dh, rtol=1e-12)
