"""tracec.hessians forward-over-reverse (the jvp of the sliced gradient
function), against torch.autograd.functional.hessian and the old
reverse-over-reverse form; and which gradients are unconnected (None)."""
import numpy as np
import pytest
import torch
from torch.autograd.functional import hessian as torch_hessian

import tracec
import tracec.numpy as tnp
from tracec.symbolic_gradients import _hessians_reverse


def f64(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def mlp_loss(w, x, y, backend):
    """A 2-layer MLP whose weights are one 1-D vector w (8*5 + 5*2 = 50)."""
    w1, w2 = w[0:40], w[40:50]
    if backend is torch:
        w1, w2 = w1.reshape(8, 5), w2.reshape(5, 2)
        h = torch.tanh(x @ w1)
        return torch.mean((h @ w2 - y) ** 2)
    h = tnp.tanh(tnp.matmul(x, tnp.reshape(w1, (8, 5))))
    r = tnp.matmul(h, tnp.reshape(w2, (5, 2))) - y
    return tnp.mean(r * r)


def test_hessians_ir_is_forward_over_reverse():
    """The hessians of a function are trace.jvp ops of a function that holds
    the trace.vjp of the sliced gradient function (no nested gradients())."""
    @tracec.function
    def h(x):
        return tracec.hessians(tnp.sum(tnp.exp(x) * x), x)[0]

    x = f64(3)
    ir = h.get_concrete_function(x).ir()
    # One jvp, batched over the columns (a trace.vmap of the function that
    # holds it), of a function which records the vjp of the sliced gradient
    # function.
    assert ir.count("trace.jvp") == 1
    assert "trace.vmap" in ir
    callees = {c.split("(")[0] for c in ir.split("trace.jvp @")[1:]}
    assert len(callees) == 1
    jvp_callee = callees.pop()
    body = ir.split(f"func.func private @{jvp_callee}(")[1].split("func.func")[0]
    assert "trace.vjp" in body

    @tracec.function
    def old(x):
        return _hessians_reverse(tnp.sum(tnp.exp(x) * x), x)[0]
    assert "trace.jvp" not in old.get_concrete_function(x).ir()
    expected = np.diag(np.exp(x) * (x + 2))
    np.testing.assert_allclose(h(x), expected, rtol=1e-12)
    np.testing.assert_allclose(old(x), expected, rtol=1e-12)


def test_hessians_of_an_mlp_loss_match_torch_and_reverse_over_reverse():
    x, y = f64(6, 8, seed=1), f64(6, 2, seed=2)
    w = f64(50, seed=3) * 0.5

    def loss(w, x, y):
        return mlp_loss(w, x, y, tnp)

    @tracec.function
    def new(w, x, y):
        return tracec.hessians(loss(w, x, y), w)[0]

    @tracec.function
    def old(w, x, y):
        return _hessians_reverse(loss(w, x, y), w)[0]

    tx, ty = torch.from_numpy(x), torch.from_numpy(y)
    expected = torch_hessian(lambda v: mlp_loss(v, tx, ty, torch),
                             torch.from_numpy(w)).numpy()
    hn = new(w, x, y)
    assert hn.shape == (50, 50)
    np.testing.assert_allclose(hn, expected, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(hn, old(w, x, y), rtol=1e-10, atol=1e-13)


def test_hessians_of_several_2d_sources_match_torch():
    a, b = f64(2, 3, seed=4), f64(3, 2, seed=5)

    @tracec.function
    def h(a, b):
        loss = tnp.sum(tnp.sin(tnp.matmul(a, b)) * tnp.matmul(a, b))
        return tracec.hessians(loss, [a, b])

    @tracec.function
    def old(a, b):
        loss = tnp.sum(tnp.sin(tnp.matmul(a, b)) * tnp.matmul(a, b))
        return _hessians_reverse(loss, [a, b])

    ha, hb = h(a, b)
    assert ha.shape == (2, 3, 2, 3) and hb.shape == (3, 2, 3, 2)
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    (taa, _), (_, tbb) = torch_hessian(
        lambda p, q: torch.sum(torch.sin(p @ q) * (p @ q)), (ta, tb))
    np.testing.assert_allclose(ha, taa.numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(hb, tbb.numpy(), rtol=1e-10, atol=1e-12)
    oa, ob = old(a, b)
    np.testing.assert_allclose(ha, oa, rtol=1e-10, atol=1e-13)
    np.testing.assert_allclose(hb, ob, rtol=1e-10, atol=1e-13)


def test_hessians_through_a_fori_loop_match_torch():
    """Three steps of x <- x + 0.1 * tanh(W x): forward-over-reverse through
    the loop (reverse-over-reverse through scf.for is not needed)."""
    x, w = f64(4, seed=6), f64(4, 4, seed=7)

    @tracec.function
    def h(x, w):
        def body(i, v):
            return v + 0.1 * tnp.tanh(tnp.reshape(
                tnp.matmul(w, tnp.reshape(v, (4, 1))), (4,)))
        z = tracec.fori_loop(0, 3, body, x)
        return tracec.hessians(tnp.sum(z * z * z), x)[0]

    def torch_f(v):
        tw = torch.from_numpy(w)
        for _ in range(3):
            v = v + 0.1 * torch.tanh(tw @ v)
        return torch.sum(v ** 3)

    expected = torch_hessian(torch_f, torch.from_numpy(x)).numpy()
    np.testing.assert_allclose(h(x, w), expected, rtol=1e-10, atol=1e-12)


def test_hessians_through_a_while_loop_match_torch():
    x = np.array([0.3, -0.5, 0.8])

    @tracec.function
    def h(x):
        def cond(state):
            return state[1] < 4
        def body(state):
            v, k = state
            return tnp.sin(v) * 1.5 + v * v * 0.1, k + 1
        z, _ = tracec.while_loop(cond, body, (x, np.int64(0)))
        return tracec.hessians(tnp.sum(z * tnp.exp(z)), x)[0]

    def torch_f(v):
        for _ in range(4):
            v = torch.sin(v) * 1.5 + v * v * 0.1
        return torch.sum(v * torch.exp(v))

    expected = torch_hessian(torch_f, torch.from_numpy(x)).numpy()
    np.testing.assert_allclose(h(x), expected, rtol=1e-10, atol=1e-12)


def test_hessians_of_a_relu_net_are_zeros_not_none():
    """relu's gradient is piecewise constant: the Hessian of a ReLU net in
    its first-layer input is zeros (as in TensorFlow, whose ReluGrad has a
    gradient), not None: the gradient still depends on x through floats."""
    x, w = f64(2, 5, seed=8), f64(5, 3, seed=9)

    @tracec.function
    def h(x, w):
        return tracec.hessians(tnp.sum(tracec.nn.relu(tnp.matmul(x, w))), x)[0]
    hx = h(x, w)
    assert hx is not None
    np.testing.assert_array_equal(hx, np.zeros((2, 5, 2, 5)))


def test_unconnected_through_integers_and_stop_gradient_is_none():
    """An x that reaches y only through an integer value or stop_gradient has
    no gradient (None; zeros with unconnected_gradients="zero"), as the
    trace-autodiff pass decides for unconnected = none."""
    @tracec.function
    def f(x, y):
        via_int = tnp.astype(tnp.astype(x, np.int32), np.float64)
        z = tnp.sum(via_int * y + tracec.stop_gradient(x) * y)
        g = tracec.gradients(z, [x, y])
        gz = tracec.gradients(z, [x, y], unconnected_gradients="zero")
        hs = tracec.hessians(z, [x, y])
        return g[0] is None, g[1], gz[0], hs[0] is None, hs[1]

    x, y = np.array([1.5, -2.5]), np.array([0.5, 2.0])
    none, gy, zero, hnone, hy = f(x, y)
    assert none and hnone
    np.testing.assert_allclose(gy, np.trunc(x) + x)
    np.testing.assert_array_equal(zero, np.zeros(2))
    np.testing.assert_array_equal(hy, np.zeros((2, 2)))
