"""JAX's transforms beyond grad and jvp: custom_vjp (checked against
finite differences and PyTorch), scan (against a Python loop, with
gradients), linearize and eval_shape."""
import functools

import numpy as np
import pytest
import torch

import tracec
import tracec.numpy as tnp


def test_custom_vjp_rule_is_used_and_composes():
    @tracec.custom_vjp
    def f(x, y):
        return tnp.sin(x) * y

    def f_fwd(x, y):
        return f(x, y), (tnp.cos(x), tnp.sin(x), y)

    def f_bwd(res, g):
        cos_x, sin_x, y = res
        return (cos_x * g * y, sin_x * g)

    f.defvjp(f_fwd, f_bwd)
    x, y = np.array([0.3, -1.2]), np.array([2.0, 0.5])
    np.testing.assert_allclose(f(x, y), np.sin(x) * y)
    gx, gy = tracec.grad(lambda x, y: tnp.sum(f(x, y)), (0, 1))(x, y)
    np.testing.assert_allclose(gx, np.cos(x) * y, rtol=1e-12)
    np.testing.assert_allclose(gy, np.sin(x), rtol=1e-12)
    # Inside jit, and differentiated again (the rule's own derivative).
    h = tracec.jit(tracec.grad(lambda x: tnp.sum(tracec.grad(
        lambda x: tnp.sum(f(x, y)))(x))))(x)
    np.testing.assert_allclose(h, -np.sin(x) * y, rtol=1e-10)


def test_custom_vjp_changes_the_gradient():
    # The JAX docs' clip_gradient: identity forward, clipped backward.
    @functools.partial(tracec.custom_vjp, nondiff_argnums=(0, 1))
    def clip_gradient(lo, hi, x):
        return x

    clip_gradient.defvjp(lambda lo, hi, x: (x, None),
                         lambda lo, hi, _, g: (tnp.clip(g, lo, hi),))
    x = np.array([1.0, 2.0, 3.0])
    g = tracec.grad(lambda x: tnp.sum(clip_gradient(-0.5, 0.5, x * x)))(x)
    # The cotangent 1 is clipped to 0.5 before d(x*x)/dx = 2x.
    np.testing.assert_allclose(g, 0.5 * 2 * x)


def test_custom_vjp_with_structures_and_errors():
    @tracec.custom_vjp
    def weighted(params, x):
        return {"y": params["w"] * x, "z": x + params["b"]}

    def fwd(params, x):
        return weighted(params, x), (params, x)

    def bwd(res, ct):
        params, x = res
        return ({"w": tnp.sum(ct["y"] * x), "b": tnp.sum(ct["z"])},
                ct["y"] * params["w"] + ct["z"])

    weighted.defvjp(fwd, bwd)
    params = {"w": np.float64(2.0), "b": np.float64(0.5)}
    x = np.array([1.0, 3.0])

    def loss(params, x):
        out = weighted(params, x)
        return tnp.sum(out["y"] ** 2) + tnp.sum(tnp.sin(out["z"]))

    gp, gx = tracec.grad(loss, (0, 1))(params, x)
    tw, tb = torch.tensor(2.0, dtype=torch.float64, requires_grad=True), \
        torch.tensor(0.5, dtype=torch.float64, requires_grad=True)
    tx = torch.tensor(x, requires_grad=True)
    (torch.sum((tw * tx) ** 2) + torch.sum(torch.sin(tx + tb))).backward()
    np.testing.assert_allclose(gp["w"], tw.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(gp["b"], tb.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(gx, tx.grad.numpy(), rtol=1e-12)

    bad = tracec.custom_vjp(lambda x: x * 2)
    with pytest.raises(TypeError, match="no VJP defined"):
        bad(x)
    bad.defvjp(lambda x: (x * 2, None), lambda res, g: g * 2)
    with pytest.raises(TypeError, match="must return a tuple of 1 "
                       "cotangent"):
        tracec.grad(lambda x: tnp.sum(bad(x)))(x)


def test_custom_vjp_refuses_forward_mode():
    f = tracec.custom_vjp(lambda x: tnp.sin(x))
    f.defvjp(lambda x: (tnp.sin(x), x), lambda x, g: (g * tnp.cos(x),))
    with pytest.raises(Exception, match="custom gradient"):
        tracec.jvp(f, (np.array([1.0]),), (np.array([1.0]),))


def python_scan(f, init, xs):
    carry, ys = init, []
    for x in xs:
        carry, y = f(carry, x)
        ys.append(y)
    return carry, np.stack(ys)


def test_scan_matches_a_python_loop():
    xs = np.random.default_rng(0).normal(size=(6, 3))
    w = np.random.default_rng(1).normal(size=(3, 3))

    def cell(h, x):
        h = tnp.tanh(h @ w + x)
        return h, tnp.sum(h)

    want_h, want_ys = python_scan(
        lambda h, x: (np.tanh(h @ w + x), np.sum(np.tanh(h @ w + x))),
        np.zeros(3), xs)
    for run in (lambda: tracec.scan(cell, np.zeros(3), xs),
                lambda: tracec.function(
                    lambda xs: tracec.scan(cell, np.zeros(3), xs))(xs)):
        h, ys = run()
        np.testing.assert_allclose(h, want_h, rtol=1e-12)
        np.testing.assert_allclose(ys, want_ys, rtol=1e-12)
    # Reversed, with structures and no xs.
    h, ys = tracec.scan(cell, np.zeros(3), xs, reverse=True)
    want_h, want_ys = python_scan(
        lambda h, x: (np.tanh(h @ w + x), np.sum(np.tanh(h @ w + x))),
        np.zeros(3), xs[::-1])
    np.testing.assert_allclose(h, want_h, rtol=1e-12)
    np.testing.assert_allclose(ys, want_ys[::-1], rtol=1e-12)
    (count, total), ys = tracec.function(lambda: tracec.scan(
        lambda c, _: ((c[0] + 1, c[1] + c[0]), {"n": c[0]}),
        (np.int32(0), np.int32(0)), None, length=5))()
    assert int(count) == 5 and int(total) == 10
    np.testing.assert_array_equal(ys["n"], [0, 1, 2, 3, 4])


def test_scan_gradients_match_pytorch():
    xs = np.random.default_rng(0).normal(size=(5, 4))
    w = np.random.default_rng(1).normal(size=(4, 4)) * 0.5

    def loss(w, xs):
        def cell(h, x):
            h = tnp.tanh(h @ w + x)
            return h, h * h
        h, ys = tracec.scan(cell, np.zeros(4), xs)
        return tnp.sum(h) + tnp.sum(ys)

    gw, gx = tracec.grad(loss, (0, 1))(w, xs)
    tw = torch.tensor(w, requires_grad=True)
    tx = torch.tensor(xs, requires_grad=True)
    h, total = torch.zeros(4, dtype=torch.float64), 0
    for t in range(5):
        h = torch.tanh(h @ tw + tx[t])
        total = total + torch.sum(h * h)
    (torch.sum(h) + total).backward()
    np.testing.assert_allclose(gw, tw.grad.numpy(), rtol=1e-10)
    np.testing.assert_allclose(gx, tx.grad.numpy(), rtol=1e-10)


def test_scan_errors():
    with pytest.raises(ValueError, match="leading sizes and length differ"):
        tracec.scan(lambda c, x: (c, x), 0.0, np.zeros(3), length=4)
    with pytest.raises(ValueError, match="zero steps"):
        tracec.scan(lambda c, x: (c, x), 0.0, np.zeros(0))
    with pytest.raises(TypeError, match="must return a pair"):
        tracec.scan(lambda c, x: c, 0.0, np.zeros(3))


def test_linearize():
    x = np.array([0.5, 1.5])
    f = lambda x: tnp.sin(x) * x  # noqa: E731
    y, f_jvp = tracec.linearize(f, x)
    np.testing.assert_allclose(y, np.sin(x) * x)
    for t in (np.array([1.0, 0.0]), np.array([0.3, -2.0])):
        np.testing.assert_allclose(f_jvp(t), (np.cos(x) * x + np.sin(x)) * t,
                                   rtol=1e-12)
        eps = 1e-6
        difference = (np.sin(x + eps * t) * (x + eps * t) -
                      np.sin(x - eps * t) * (x - eps * t)) / (2 * eps)
        np.testing.assert_allclose(f_jvp(t), difference, rtol=1e-7,
                                   atol=1e-9)


def test_eval_shape():
    def f(params, x):
        return {"out": tnp.matmul(x, params["w"]),
                "n": tnp.argmax(x, axis=1)}

    shapes = tracec.eval_shape(
        f, {"w": tracec.TensorSpec((4, 3), np.float32)},
        tracec.TensorSpec((None, 4), np.float32))
    assert shapes["out"] == tracec.TensorSpec((None, 3), np.float32)
    assert shapes["n"].shape == (None,) and \
        shapes["n"].dtype == tnp.argmax(np.zeros((2, 4)), 1).dtype
    out = tracec.eval_shape(lambda a: a.T, np.zeros((2, 5)))
    assert out.shape == (5, 2) and out.dtype == np.float64
