"""Forward mode: tracec.jvp against finite differences, jacfwd == jacrev ==
torch.autograd.functional.jacobian on an MLP, and Hessian-vector products
(forward-over-reverse) against torch.autograd.functional.hvp."""
import numpy as np
import pytest
import torch
from torch.autograd.functional import hvp as torch_hvp
from torch.autograd.functional import jacobian as torch_jacobian

import tracec
import tracec.numpy as tnp


def f64(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def mlp(x, w1, b1, w2):
    return tnp.matmul(tnp.tanh(tnp.matmul(x, w1) + b1), w2)


def torch_mlp(x, w1, b1, w2):
    return torch.tanh(x @ w1 + b1) @ w2


def test_jvp_matches_finite_differences():
    x, w = f64(3, 4), f64(4, 2, seed=1)
    vx, vw = f64(3, 4, seed=2), f64(4, 2, seed=3)

    def f(x, w):
        return tnp.sin(tnp.matmul(x, w)), tnp.sum(tnp.exp(x))
    (y, s), (ty, ts) = tracec.jvp(f, (x, w), (vx, vw))
    h = 1e-6

    def numpy_f(x, w):
        return np.sin(x @ w), np.sum(np.exp(x))
    plus, minus = numpy_f(x + h * vx, w + h * vw), numpy_f(x - h * vx, w - h * vw)
    np.testing.assert_allclose(y, np.sin(x @ w), rtol=1e-12)
    np.testing.assert_allclose(ty, (plus[0] - minus[0]) / (2 * h), rtol=1e-6,
                               atol=1e-8)
    np.testing.assert_allclose(ts, (plus[1] - minus[1]) / (2 * h), rtol=1e-6)


def test_jvp_of_one_output_and_float32():
    x = np.array([1.0, 2.0, 3.0], np.float32)
    y, t = tracec.jvp(lambda x: x * x, (x,), (np.ones(3, np.float32),))
    assert t.dtype == np.float32
    np.testing.assert_allclose(t, 2 * x)


def test_jvp_inside_a_function():
    @tracec.function
    def directional(x, v):
        y, t = tracec.jvp(tnp.tanh, (x,), (v,))
        return t
    x, v = f64(5), f64(5, seed=1)
    np.testing.assert_allclose(directional(x, v), (1 - np.tanh(x) ** 2) * v,
                               rtol=1e-12)


@pytest.mark.parametrize("argnum", [0, 1, 2, 3])
def test_jacfwd_equals_jacrev_equals_torch_on_an_mlp(argnum):
    args = [f64(2, 3), f64(3, 4, seed=1), f64(4, seed=2), f64(4, 2, seed=3)]
    fwd = tracec.jacfwd(mlp, argnums=argnum)(*args)
    rev = tracec.jacrev(mlp, argnums=argnum)(*args)
    expected = torch_jacobian(torch_mlp, tuple(torch.tensor(a) for a in args))
    expected = expected[argnum].numpy()
    # JAX's layout: out.shape + in.shape.
    assert fwd.shape == (2, 2) + args[argnum].shape
    assert rev.shape == fwd.shape
    np.testing.assert_allclose(fwd, expected, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(rev, expected, rtol=1e-10, atol=1e-12)


def test_jacobians_of_several_arguments():
    args = [f64(2, 3), f64(3, 4, seed=1), f64(4, seed=2), f64(4, 2, seed=3)]
    fwd = tracec.jacfwd(mlp, argnums=(1, 3))(*args)
    rev = tracec.jacrev(mlp, argnums=(1, 3))(*args)
    assert isinstance(fwd, tuple) and len(fwd) == 2
    for a, b in zip(fwd, rev):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def mlp_loss(w1, b1, w2, x, y):
    logits = mlp(x, w1, b1, w2)
    return tnp.mean((logits - y) ** 2)


def torch_mlp_loss(w1, b1, w2, x, y):
    return ((torch_mlp(x, w1, b1, w2) - y) ** 2).mean()


def test_hvp_matches_torch():
    params = [f64(3, 5), f64(5, seed=1), f64(5, 2, seed=2)]
    data = [f64(6, 3, seed=3), f64(6, 2, seed=4)]
    vs = [f64(3, 5, seed=5), f64(5, seed=6), f64(5, 2, seed=7)]

    def loss(w1, b1, w2):
        return mlp_loss(w1, b1, w2, *data)
    got = tracec.hvp(loss, tuple(params), tuple(vs))
    _, expected = torch_hvp(
        lambda w1, b1, w2: torch_mlp_loss(w1, b1, w2,
                                          *(torch.tensor(d) for d in data)),
        tuple(torch.tensor(p) for p in params),
        tuple(torch.tensor(v) for v in vs))
    assert len(got) == 3
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e.numpy(), rtol=1e-10, atol=1e-12)


def test_hessian_is_forward_over_reverse_and_symmetric():
    w = f64(4)

    def f(w):
        return tnp.sum(tnp.sin(w) * w) * tnp.sum(w * w)
    hess = tracec.hessian(f)(w)
    expected = torch.autograd.functional.hessian(
        lambda w: torch.sum(torch.sin(w) * w) * torch.sum(w * w),
        torch.tensor(w)).numpy()
    np.testing.assert_allclose(hess, expected, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(hess, hess.T, rtol=1e-12, atol=1e-14)


def test_errors_name_the_argument():
    x = np.ones(3)
    with pytest.raises(TypeError, match="one tangent per primal"):
        tracec.jvp(tnp.sin, (x,), (x, x))
    with pytest.raises(ValueError, match="tangent 0 has shape"):
        tracec.jvp(tnp.sin, (x,), (np.ones(2),))
    with pytest.raises(TypeError, match="only floating-point arrays"):
        tracec.jvp(lambda n: n * 2, (np.arange(3),), (np.arange(3),))
