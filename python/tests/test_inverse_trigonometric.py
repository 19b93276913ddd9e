"""arcsin, arccos, arctan, arcsinh, arccosh, arctanh and arctan2 (trace.asin,
..., trace.atan2): values against NumPy at f32 and f64, eager and compiled,
at the edges of their domains; gradients and tangents against PyTorch at
f64."""
import numpy as np
import pytest
import torch

import tracec
import tracec.numpy as tnp

RNG = np.random.default_rng(5)
UNIT = np.concatenate([RNG.uniform(-0.999, 0.999, 40),
                       [-1.0, 1.0, 0.0, -0.0, 1e-8, 0.9999999]])
WIDE = np.concatenate([RNG.normal(scale=3.0, size=40),
                       [0.0, -0.0, 1e-8, 1e30, -1e30, np.inf, -np.inf]])
ABOVE_ONE = np.concatenate([1.0 + RNG.exponential(2.0, 40), [1.0, 1e30]])

UNARY = [
    ("arcsin", UNIT), ("arccos", UNIT), ("arctan", WIDE),
    ("arcsinh", WIDE), ("arccosh", ABOVE_ONE), ("arctanh", UNIT),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name, x", UNARY, ids=[u[0] for u in UNARY])
def test_unary_matches_numpy(name, x, dtype):
    x = x.astype(dtype)
    with np.errstate(all="ignore"):
        want = getattr(np, name)(x)
    fn = getattr(tnp, name)
    # f32: the CPU's polynomial approximations, a few ulp (atan's up to 8).
    rtol = 1e-6 if dtype == np.float32 else 1e-15
    for got in (fn(x), tracec.jit(fn)(x)):
        assert got.dtype == dtype
        np.testing.assert_allclose(got, want, rtol=rtol, atol=0)


def test_outside_the_domain_is_nan():
    with np.errstate(all="ignore"):
        for name, x in [("arcsin", [1.5, -2.0]), ("arccos", [1.0001]),
                        ("arccosh", [0.5, -1.0]), ("arctanh", [1.5])]:
            got = tracec.jit(getattr(tnp, name))(np.array(x))
            assert np.isnan(got).all(), name
    np.testing.assert_array_equal(tnp.arctanh(np.array([1.0, -1.0])),
                                  [np.inf, -np.inf])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_arctan2_matches_numpy(dtype):
    y = np.concatenate([RNG.normal(size=30), [0.0, -0.0, 0.0, -0.0, 1.0,
                                               -1.0, np.inf, np.inf, 2.0]])
    x = np.concatenate([RNG.normal(size=30), [0.0, 0.0, -0.0, -0.0, 0.0,
                                               -np.inf, np.inf, 3.0, -np.inf]])
    y, x = y.astype(dtype), x.astype(dtype)
    want = np.arctan2(y, x)
    rtol = 1e-6 if dtype == np.float32 else 1e-15
    for got in (tnp.arctan2(y, x), tracec.jit(tnp.arctan2)(y, x)):
        assert got.dtype == dtype
        np.testing.assert_allclose(got, want, rtol=rtol, atol=0)
        # The signs of zero results as NumPy gives them.
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_integers_and_broadcasting():
    got = tnp.arctan2(np.array([[1], [-2]], np.int32), np.array([3, -4, 0]))
    np.testing.assert_allclose(
        got, np.arctan2(np.array([[1], [-2]]), np.array([3, -4, 0])),
        rtol=1e-15)
    assert got.dtype == np.float64
    np.testing.assert_allclose(tnp.arctan(np.array([1, 2])), np.arctan([1, 2]),
                               rtol=1e-7)
    # NumPy's functions dispatch on traced values.
    f = tracec.jit(lambda a, b: np.arcsin(a) + np.arctan2(a, b))
    a, b = UNIT[:8], WIDE[:8]
    np.testing.assert_allclose(f(a, b), np.arcsin(a) + np.arctan2(a, b),
                               rtol=1e-14)


def loss(a, b, c):
    return (tnp.sum(tnp.arcsin(a) * tnp.arccos(a * 0.5)) +
            tnp.sum(tnp.arctan(b) ** 2 + tnp.arcsinh(b) * b) +
            tnp.sum(tnp.arccosh(c) * tnp.arctanh(a * 0.9)) +
            tnp.sum(tnp.arctan2(a, b) * tnp.arctan2(b[:, :1], c)))


def torch_loss(a, b, c):
    return (torch.sum(torch.asin(a) * torch.acos(a * 0.5)) +
            torch.sum(torch.atan(b) ** 2 + torch.asinh(b) * b) +
            torch.sum(torch.acosh(c) * torch.atanh(a * 0.9)) +
            torch.sum(torch.atan2(a, b) * torch.atan2(b[:, :1], c)))


A = RNG.uniform(-0.95, 0.95, (3, 4))
B = RNG.normal(size=(3, 4))
C = 1.0 + RNG.exponential(size=(3, 4)) + 0.05


def test_gradients_match_pytorch():
    got = tracec.grad(loss, (0, 1, 2))(A, B, C)
    ts = [torch.tensor(v, requires_grad=True) for v in (A, B, C)]
    torch_loss(*ts).backward()
    for g, t in zip(got, ts):
        np.testing.assert_allclose(g, t.grad.numpy(), rtol=1e-12, atol=1e-13)


def test_tangents_match_pytorch():
    tangents = [RNG.normal(size=(3, 4)) for _ in range(3)]
    _, got = tracec.jvp(loss, (A, B, C), tuple(tangents))
    _, want = torch.func.jvp(torch_loss, tuple(torch.tensor(v) for v in
                                               (A, B, C)),
                             tuple(torch.tensor(t) for t in tangents)) \
        if hasattr(torch, "func") else torch.autograd.functional.jvp(
            torch_loss, tuple(torch.tensor(v) for v in (A, B, C)),
            tuple(torch.tensor(t) for t in tangents))
    np.testing.assert_allclose(got, want.numpy(), rtol=1e-12)


def test_second_derivatives_match_pytorch():
    x = np.array([0.3, -0.6, 0.1])
    f = lambda x: tnp.sum(tnp.arcsin(x) + tnp.arctan(x * 2) + tnp.arctanh(x))
    got = tracec.hessian(f)(x)
    want = torch.autograd.functional.hessian(
        lambda x: torch.sum(torch.asin(x) + torch.atan(x * 2) +
                            torch.atanh(x)), torch.tensor(x))
    np.testing.assert_allclose(got, want.numpy(), rtol=1e-12, atol=1e-14)


def test_vmap():
    f = lambda a, b: tnp.arctan2(a, b) + tnp.arcsinh(a)
    np.testing.assert_allclose(tracec.vmap(f)(A, B), f(A, B), rtol=1e-15)
