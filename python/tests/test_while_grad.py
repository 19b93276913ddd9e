"""Gradients through tracec.while_loop (scf.while, whose trip count depends
on the data): Newton's square root against its analytic derivative, and
loops whose trip count depends on the input against PyTorch autograd of
the same Python loop."""
import numpy as np
import pytest
import torch

import tracec
import tracec.numpy as tnp


def newton_sqrt(a):
    # x <- (x + a / x) / 2 from x = 1 until |x^2 - a| <= 1e-12 a.
    return tracec.while_loop(lambda x: tnp.abs(x * x - a) > 1e-12 * a,
                             lambda x: (x + a / x) * 0.5,
                             tnp.ones_like(a))


def newton_sqrt_torch(a):
    x = torch.ones_like(a)
    while torch.abs(x * x - a) > 1e-12 * a:
        x = (x + a / x) * 0.5
    return x


@pytest.mark.parametrize("a", [0.01, 0.5, 2.0, 9.0, 1.0e4])
def test_newton_sqrt_gradient_is_the_analytic_derivative(a):
    grad = tracec.grad(newton_sqrt)(np.asarray(a, np.float64))
    np.testing.assert_allclose(grad, 1 / (2 * np.sqrt(a)), rtol=1e-9)
    ta = torch.tensor(a, dtype=torch.float64, requires_grad=True)
    newton_sqrt_torch(ta).backward()
    np.testing.assert_allclose(grad, ta.grad.numpy(), rtol=1e-12)


def test_newton_sqrt_inside_a_function_has_one_compiled_gradient():
    @tracec.function
    def value_and_slope(a):
        return tracec.value_and_grad(newton_sqrt)(a)

    for a in (0.25, 3.0, 400.0):
        value, slope = value_and_slope(np.asarray(a, np.float64))
        np.testing.assert_allclose(value, np.sqrt(a), rtol=1e-12)
        np.testing.assert_allclose(slope, 0.5 / np.sqrt(a), rtol=1e-9)
    assert value_and_slope.trace_count == 1


def shrink(x, w):
    # v <- tanh(v) * w / 2 while |v|^2 > 0.5, counting the steps; the loss
    # reads the result and x.
    v, steps = tracec.while_loop(
        lambda s: tnp.sum(s[0] * s[0]) > 0.5,
        lambda s: (tnp.tanh(s[0]) * w * 0.5, s[1] + 1),
        (x, np.asarray(0, np.int32)))
    return tnp.sum(tnp.exp(v) * x), steps


def shrink_torch(x, w):
    v, steps = x, 0
    while (v * v).sum() > 0.5:
        v, steps = torch.tanh(v) * w * 0.5, steps + 1
    return (torch.exp(v) * x).sum(), steps


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_data_dependent_trip_count_matches_torch(seed):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.5, 3.0, 4).astype(np.float32)
    w = rng.uniform(0.5, 1.5, 4).astype(np.float32)

    def loss(x, w):
        return shrink(x, w)[0]

    gx, gw = tracec.grad(loss, argnums=(0, 1))(x, w)
    tx = torch.tensor(x, requires_grad=True)
    tw = torch.tensor(w, requires_grad=True)
    tloss, steps = shrink_torch(tx, tw)
    tloss.backward()
    assert steps >= 2  # the loop does run, a data-dependent number of times
    _, traced_steps = tracec.function(shrink)(x, w)
    assert int(traced_steps) == steps
    np.testing.assert_allclose(gx, tx.grad.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gw, tw.grad.numpy(), rtol=1e-5, atol=1e-6)


def test_gradient_tape_through_a_traced_while_loop():
    @tracec.function
    def grads(x, w):
        with tracec.GradientTape() as tape:
            tape.watch(x)
            loss = shrink(x, w)[0]
        return tape.gradient(loss, x)

    x = np.array([2.0, -1.5, 0.7], np.float32)
    w = np.array([1.2, 0.9, 1.1], np.float32)
    tx = torch.tensor(x, requires_grad=True)
    shrink_torch(tx, torch.tensor(w))[0].backward()
    np.testing.assert_allclose(grads(x, w), tx.grad.numpy(), rtol=1e-5,
                               atol=1e-6)


def test_many_iterations_grow_the_tape():
    # 1000 iterations: the tape doubles from 16 rows to 1024.
    def loss(x, n):
        v, _ = tracec.while_loop(
            lambda s: s[1] < n,
            lambda s: (s[0] + tnp.sin(s[0]) * 1e-3, s[1] + 1),
            (x, np.asarray(0, np.int64)))
        return tnp.sum(v * v)

    x = np.array([0.3, -1.2, 2.0], np.float64)
    g = tracec.grad(loss)(x, np.asarray(1000, np.int64))
    tx = torch.tensor(x, requires_grad=True)
    v = tx
    for _ in range(1000):
        v = v + torch.sin(v) * 1e-3
    (v * v).sum().backward()
    np.testing.assert_allclose(g, tx.grad.numpy(), rtol=1e-12)


def test_a_numpy_float64_scalar_keeps_its_dtype_under_grad():
    # np.float64 is a subclass of float: it is not turned into float32 as a
    # Python float is (Newton to 1e-12 would never stop in float32).
    grad = tracec.grad(newton_sqrt)(np.float64(2.0))
    assert np.asarray(grad).dtype == np.float64
    np.testing.assert_allclose(grad, 0.5 / np.sqrt(2.0), rtol=1e-9)


# Grad of grad (reverse-over-reverse) through loops: the outer gradient
# differentiates the inner one's tapes.

@pytest.mark.parametrize("a", [0.01, 2.0, 1.0e4])
def test_newton_sqrt_second_derivative_is_the_analytic_one(a):
    second = tracec.grad(tracec.grad(newton_sqrt))(np.asarray(a, np.float64))
    np.testing.assert_allclose(second, -0.25 * a ** -1.5, rtol=1e-8)


def test_grad_of_grad_through_a_long_while_loop_matches_torch():
    # 100 iterations: the inner gradient's tape grows from 16 rows three
    # times. d/dx of (d loss/dx . u), against torch double backward.
    def loss(x, n):
        v, _ = tracec.while_loop(
            lambda s: s[1] < n,
            lambda s: (s[0] + tnp.sin(s[0] * x) * 1e-2, s[1] + 1),
            (x, np.asarray(0, np.int64)))
        return tnp.sum(v * v)

    u = np.array([0.5, -1.0, 2.0])

    def directional(x, n):
        return tnp.sum(tracec.grad(loss)(x, n) * u)

    x = np.array([0.3, -1.2, 2.0], np.float64)
    hu = tracec.grad(directional)(x, np.asarray(100, np.int64))
    tx = torch.tensor(x, requires_grad=True)
    v = tx
    for _ in range(100):
        v = v + torch.sin(v * tx) * 1e-2
    (g,) = torch.autograd.grad((v * v).sum(), tx, create_graph=True)
    (g * torch.tensor(u)).sum().backward()
    np.testing.assert_allclose(hu, tx.grad.numpy(), rtol=1e-10)


def test_grad_of_grad_through_fori_loop_matches_torch():
    w0 = np.random.default_rng(5).normal(size=(4, 4)) * 0.5

    def loss(w, h):
        h = tracec.fori_loop(0, 5, lambda i, h: tnp.tanh(h @ w), h)
        return tnp.sum(h * h)

    def grad_norm(w, h):
        g = tracec.grad(loss)(w, h)
        return tnp.sum(g * g)

    h0 = np.linspace(-1.0, 1.0, 8).reshape(2, 4)
    gw = tracec.grad(grad_norm)(w0, h0)
    tw = torch.tensor(w0, requires_grad=True)
    h = torch.tensor(h0)
    for _ in range(5):
        h = torch.tanh(h @ tw)
    (g,) = torch.autograd.grad((h * h).sum(), tw, create_graph=True)
    (g * g).sum().backward()
    np.testing.assert_allclose(gw, tw.grad.numpy(), rtol=1e-10)


def test_third_derivatives_through_loops():
    # d3/da3 sqrt(a) = 3/8 a^-2.5 through Newton's while loop (one value:
    # the third gradient of a while loop takes seconds to compile); through
    # a fori_loop, against torch's triple backward.
    third = tracec.grad(tracec.grad(tracec.grad(newton_sqrt)))(
        np.asarray(2.0, np.float64))
    np.testing.assert_allclose(third, 0.375 * 2.0 ** -2.5, rtol=1e-8)

    def loss(x):
        return tnp.sum(tracec.fori_loop(0, 4, lambda i, v: tnp.sin(v) * x, x))

    third = tracec.grad(tracec.grad(tracec.grad(loss)))(np.asarray(0.7))
    tx = torch.tensor(0.7, dtype=torch.float64, requires_grad=True)
    v = tx
    for _ in range(4):
        v = torch.sin(v) * tx
    (g,) = torch.autograd.grad(v, tx, create_graph=True)
    (g2,) = torch.autograd.grad(g, tx, create_graph=True)
    (g3,) = torch.autograd.grad(g2, tx)
    np.testing.assert_allclose(third, g3.item(), rtol=1e-12)
