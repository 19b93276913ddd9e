"""tracec.fori_loop with bounds that are traced values (the trip count is
known only when the compiled function runs): values against NumPy loops,
gradients against PyTorch, and the errors."""
import numpy as np
import pytest
import torch

import tracec
import tracec.numpy as tnp


def horner_numpy(x, lower, upper):
    acc = np.zeros_like(x)
    for i in range(lower, upper):
        acc = acc * x + i
    return acc


@tracec.function
def horner(x, bounds):
    # bounds: int32[2], read inside the trace: one compiled loop for all.
    return tracec.fori_loop(bounds[0], bounds[1],
                            lambda i, acc: acc * x + tnp.astype(i, np.float32),
                            tnp.zeros_like(x))


@pytest.mark.parametrize("lower,upper", [(0, 4), (2, 7), (3, 3), (5, 1)])
def test_traced_bounds_match_numpy(lower, upper):
    x = np.array([0.5, -1.25, 2.0], np.float32)
    out = horner(x, np.array([lower, upper], np.int32))
    np.testing.assert_allclose(out, horner_numpy(x, lower, upper), rtol=1e-6)


def test_traced_bounds_do_not_retrace():
    x = np.ones(3, np.float32)
    before = horner.trace_count
    for upper in range(4):
        horner(x, np.array([0, upper], np.int32))
    assert horner.trace_count - before <= 1
    ir = horner.get_concrete_function(x, np.zeros(2, np.int32)).ir()
    assert "arith.index_cast" in ir and "scf.for" in ir, ir


def test_gradient_through_a_loop_with_traced_bounds_matches_torch():
    @tracec.function
    def grads(x, n):
        def loss(x):
            h = tracec.fori_loop(0, n, lambda i, h: tnp.tanh(h * x + 0.5), x)
            return tnp.sum(h * h)
        return tracec.grad(loss)(x)

    x = np.array([0.3, -0.7, 1.1], np.float32)
    for n in (0, 1, 4):
        tx = torch.tensor(x, requires_grad=True)
        h = tx
        for _ in range(n):
            h = torch.tanh(h * tx + 0.5)
        (h * h).sum().backward()
        np.testing.assert_allclose(grads(x, np.asarray(n, np.int64)),
                                   tx.grad.numpy(), rtol=1e-5, atol=1e-6)


def test_bad_bounds_are_errors():
    @tracec.function
    def float_bound(x):
        return tracec.fori_loop(0, tnp.sum(x), lambda i, v: v + 1.0, x)

    with pytest.raises(tracec.TraceError, match="fori_loop's upper bound "
                       "must be a rank-0 int32 or int64 tensor, got "
                       r"tensor<f32>"):
        float_bound(np.ones(2, np.float32))

    @tracec.function
    def vector_bound(x, n):
        return tracec.fori_loop(n, 3, lambda i, v: v + 1.0, x)

    with pytest.raises(tracec.TraceError, match="fori_loop's lower bound "
                       r"must be a rank-0 int32 or int64 tensor, got "
                       r"tensor<2xi32>"):
        vector_bound(np.ones(2, np.float32), np.ones(2, np.int32))

    with pytest.raises(TypeError, match="fori_loop's upper bound must be an "
                       "integer scalar"):
        tracec.fori_loop(0, 2.5, lambda i, v: v, np.ones(2, np.float32))


def test_while_loop_eagerly_and_traced():
    def halve_until_small(x, limit):
        # (value, count): halve x until its sum is below limit.
        return tracec.while_loop(
            lambda s: tnp.sum(s[0]) > limit,
            lambda s: (tnp.multiply(s[0], 0.5), tnp.add(s[1], 1)),
            (x, np.asarray(0, np.int32)))

    x = np.array([40.0, 24.0], np.float32)
    for limit in (1.0, 10.0, 100.0):
        value, count = x, 0
        while value.sum() > limit:
            value, count = value * 0.5, count + 1
        eager = halve_until_small(x, limit)
        traced = tracec.function(halve_until_small)(x, limit)
        for out in (eager, traced):
            np.testing.assert_allclose(out[0], value, rtol=1e-6)
            assert int(out[1]) == count
    ir = tracec.function(halve_until_small).get_concrete_function(
        x, 1.0).ir()
    assert "scf.while" in ir

    @tracec.function
    def single(x):
        return tracec.while_loop(lambda v: tnp.max(v) < 100.0,
                                 lambda v: v * 3.0, x)

    np.testing.assert_allclose(single(np.array([1.0, 2.0], np.float32)),
                               [81.0, 162.0])


def test_cond_eagerly_and_traced():
    def f(x, p):
        return tracec.cond(p, lambda v: tnp.exp(v), lambda v: -v, x)

    x = np.array([0.5, -1.0], np.float32)
    for p in (True, False):
        expected = np.exp(x) if p else -x
        np.testing.assert_allclose(f(x, np.asarray(p)), expected, rtol=1e-6)
        np.testing.assert_allclose(tracec.function(f)(x, np.asarray(p)),
                                   expected, rtol=1e-6)
    assert "scf.if" in tracec.function(f).get_concrete_function(
        x, np.asarray(True)).ir()


# --- tapes through control flow (issue 30) ----------------------------------


def lstm_torch(x, w, u, b, steps):
    """The loss of an LSTM cell run `steps` times on x (torch, f64)."""
    h, c = torch.zeros(1, w.shape[1] // 4, dtype=torch.float64), 0.0
    for _ in range(steps):
        z = x @ w + h @ u + b
        i, f, g, o = torch.chunk(z, 4, dim=1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
    return (h * h).sum()


def lstm_step(x, w, u, b, h, c):
    n = h.shape[1]
    z = x @ w + h @ u + b
    i, f, g, o = (z[:, k * n:(k + 1) * n] for k in range(4))
    sigmoid = tracec.nn.sigmoid
    c = sigmoid(f) * c + sigmoid(i) * tnp.tanh(g)
    return sigmoid(o) * tnp.tanh(c), c


def test_a_tape_differentiates_an_lstm_loop_with_respect_to_its_variables():
    # Variables read before the loop and closed over, or read in the body:
    # inputs of the scf region, so the tape's gradients flow through it
    # (they were None: an LSTM written so trained nothing).
    rng = np.random.default_rng(7)
    arrays = [rng.standard_normal(s) * 0.5 for s in ((1, 3), (3, 8), (2, 8),
                                                     (8,))]
    x, (w, u, b) = arrays[0], [tracec.Variable(a) for a in arrays[1:]]
    zeros = np.zeros((1, 2))

    def closed_over(x):
        wv, uv, bv = w.read_value(), u.read_value(), b.read_value()
        return tracec.fori_loop(
            0, 3, lambda i, hc: lstm_step(x, wv, uv, bv, *hc), (zeros, zeros))

    def read_in_body(x):
        return tracec.fori_loop(
            0, 3, lambda i, hc: lstm_step(x, w, u, b, *hc), (zeros, zeros))

    def while_loop(x):
        return tracec.while_loop(
            lambda s: s[0] < 3,
            lambda s: (s[0] + 1, *lstm_step(x, w, u, b, s[1], s[2])),
            (np.int32(0), zeros, zeros))[1:]

    tensors = [torch.tensor(a, requires_grad=True) for a in arrays[1:]]
    lstm_torch(torch.tensor(x), *tensors, 3).backward()
    for loop in (closed_over, read_in_body, while_loop):
        @tracec.function
        def grads(x):
            with tracec.GradientTape() as tape:
                h, _ = loop(x)
                loss = tnp.sum(h * h)
            return tape.gradient(loss, [w, u, b])

        for g, t in zip(grads(x), tensors):
            np.testing.assert_allclose(g, t.grad.numpy(), rtol=1e-10,
                                       atol=1e-12, err_msg=loop.__name__)


def test_a_cond_body_reading_a_variable_under_a_tape_matches_torch():
    v = tracec.Variable(np.array([0.5, -2.0]))

    @tracec.function
    def grads(x):
        with tracec.GradientTape() as tape:
            y = tracec.cond(tnp.sum(x) > 0, lambda a: tnp.sin(a * v),
                            lambda a: a * v * v, x)
            loss = tnp.sum(y)
        return tape.gradient(loss, v)

    for x in (np.array([1.0, 2.0]), np.array([-1.0, -2.0])):
        tv = torch.tensor(v.numpy(), requires_grad=True)
        tx = torch.tensor(x)
        (torch.sin(tx * tv) if x.sum() > 0 else tx * tv * tv).sum().backward()
        np.testing.assert_allclose(grads(x), tv.grad.numpy(), rtol=1e-12)


def test_what_a_body_closes_over_from_before_the_watch_is_a_constant():
    # TensorFlow's tape: y was computed before watch(x), so it is a
    # constant: d(y x)/dx = y = x^2, not 3 x^2 (the tape went through the
    # region to y's producer).
    x = np.array([3.0, -0.5])

    @tracec.function
    def grads(x):
        with tracec.GradientTape(persistent=True) as tape:
            y = x * x
            tape.watch(x)
            by_loop = tracec.fori_loop(0, 1, lambda i, h: h * y, x)
            by_cond = tracec.cond(tnp.sum(x) > -100, lambda a: a * y,
                                  lambda a: a, x)
        return tape.gradient(by_loop, x), tape.gradient(by_cond, x)

    for g in grads(x):
        np.testing.assert_array_equal(g, x * x)


def test_functions_with_control_flow_under_an_eager_tape_match_torch():
    # A compiled function called under an eager tape runs its forward
    # function, whose residuals include a cond's predicate and a loop's
    # trip count: scalars the host passes as 0-d arrays (they were a
    # compile error).
    @tracec.function
    def branchy(x):
        return tracec.cond(tnp.sum(x) > 0, lambda: tnp.sin(x) * x,
                           lambda: -x)

    @tracec.function
    def cubed_sum(x, n):
        _, y = tracec.while_loop(lambda v: v[0] < n,
                                 lambda v: (v[0] + 1, v[1] * x),
                                 (np.int64(1), x))
        return tnp.sum(y)

    x = np.array([0.3, -1.2, 2.5])
    with tracec.GradientTape(persistent=True) as tape:
        tape.watch(x)
        b = branchy(x)
        c = cubed_sum(x, np.int64(3))
    gb = tape.gradient(b, x, output_gradients=np.array([1.0, 2.0, 3.0]))
    gc = tape.gradient(c, x)

    tx = torch.tensor(x, requires_grad=True)
    (torch.sin(tx) * tx).backward(torch.tensor([1.0, 2.0, 3.0],
                                               dtype=torch.float64))
    np.testing.assert_allclose(gb, tx.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(gc, 3 * x ** 2, rtol=1e-12)


def test_nested_control_flow_uses_outer_values_and_assigns_variables():
    # A cond or loop inside a cond's branch uses the function's arguments
    # and assigns a variable (it failed to trace: 'operand #0 does not
    # dominate this use', verified before its enclosing body was in place).
    v = tracec.Variable(np.array(0.0))

    @tracec.function
    def f(x):
        def positive():
            def big():
                v.assign(x * 2.0)
                return tnp.sin(x) * x
            return tracec.cond(x > 1.0, big, lambda: x * x)

        def negative():
            _, y = tracec.while_loop(lambda s: s[0] < 3,
                                     lambda s: (s[0] + 1, s[1] * x),
                                     (np.int64(0), tnp.ones_like(x)))
            return y
        return tracec.cond(x > 0.0, positive, negative) + v.read_value()

    def reference(x, assigned):
        if x > 0:
            return (np.sin(x) * x + 2 * x) if x > 1 else x * x + assigned
        return x ** 3 + assigned

    for x in [2.0, 0.5, -1.5]:
        before = float(v.numpy())
        np.testing.assert_allclose(f(np.array(x)), reference(x, before),
                                   rtol=1e-12)
    assert float(v.numpy()) == 4.0

    # And the gradient through both levels, against PyTorch.
    @tracec.function
    def grad_f(x):
        with tracec.GradientTape() as tape:
            tape.watch(x)
            y = tracec.cond(x > 0.0,
                            lambda: tracec.cond(x > 1.0,
                                                lambda: tnp.sin(x) * x,
                                                lambda: x * x),
                            lambda: -x)
        return tape.gradient(y, x)

    tx = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
    (torch.sin(tx) * tx).backward()
    np.testing.assert_allclose(grad_f(np.array(2.0)), tx.grad.numpy(),
                               rtol=1e-12)
