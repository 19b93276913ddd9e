"""Contractions with a constant operand: the values and gradients of the
sum they are rewritten into (lib/Conversion/TraceToLinalg/
SplatContractions.cpp) match NumPy's at f64."""
import numpy as np

import tracec
import tracec.numpy as tnp


def test_ones_matmul_as_in_an_unrolled_rnn():
    rng = np.random.default_rng(0)
    xs = rng.standard_normal((4, 32, 256))
    w = rng.standard_normal((256, 256)) / 16

    def step(xs, w):
        return tnp.sum(tnp.tanh(xs[0] + tnp.ones((32, 256), np.float64) @ w))

    value, grad = tracec.value_and_grad(step, argnums=1)(xs, w)
    pre = xs[0] + np.ones((32, 256)) @ w
    np.testing.assert_allclose(value, np.sum(np.tanh(pre)), rtol=1e-12)
    want = np.ones((32, 256)).T @ (1 - np.tanh(pre) ** 2)
    np.testing.assert_allclose(grad, want, rtol=1e-12)


def test_splat_on_either_side_and_batched():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((3, 8, 16))
    f64 = np.float64
    f = tracec.function(lambda x: (
        tnp.full((3, 5, 8), 0.5, f64) @ x,
        x @ tnp.full((16, 4), -2.0, f64),
        tnp.zeros((7, 3), f64) @ x[0, :3, :]))
    a, b, c = f(x)
    np.testing.assert_allclose(a, np.full((3, 5, 8), 0.5) @ x, rtol=1e-12)
    np.testing.assert_allclose(b, x @ np.full((16, 4), -2.0), rtol=1e-12)
    np.testing.assert_array_equal(c, np.zeros((7, 16)))


def test_zeros_matmul_keeps_nan_and_inf_as_numpy_does():
    w = np.array([[1.0, np.inf], [np.nan, 2.0]], np.float32)
    got = tracec.function(lambda w: tnp.zeros((2, 2), np.float32) @ w)(w)
    with np.errstate(invalid="ignore"):
        want = np.zeros((2, 2), np.float32) @ w
    np.testing.assert_array_equal(got, want)
