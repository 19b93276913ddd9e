"""sort, argsort, quantile/percentile/median, searchsorted and nn.top_k on
trace.sort (a stable merge sort): against NumPy over dtypes, axes, NaN,
ties and empty dims, eager and compiled; gradients and tangents against
PyTorch at f64."""
import numpy as np
import pytest
import torch

import tracec
import tracec.numpy as tnp

RNG = np.random.default_rng(17)


def ties(shape, dtype):
    return RNG.integers(-3, 4, size=shape).astype(dtype)


CASES = [
    ("f32 rows", RNG.normal(size=(5, 37)).astype(np.float32), -1),
    ("f64 axis 0", RNG.normal(size=(33, 4)), 0),
    ("i32 ties", ties((4, 50), np.int32), 1),
    ("i64 3-D middle", ties((3, 9, 2), np.int64), 1),
    ("bool", RNG.integers(0, 2, size=(19,)).astype(bool), 0),
    ("f64 NaN and inf", np.array([3.0, np.nan, -np.inf, 1.0, np.nan, np.inf,
                                  -0.0, 0.0, 1.0]), 0),
    ("one element", np.array([[2.5]]), 1),
    ("empty rows", np.zeros((0, 5), np.float32), 1),
    ("empty axis", np.zeros((3, 0), np.float32), 1),
]


@pytest.mark.parametrize("name, x, axis", CASES, ids=[c[0] for c in CASES])
def test_sort_and_argsort_match_numpy(name, x, axis):
    want = np.sort(x, axis=axis)
    want_order = np.argsort(x, axis=axis, kind="stable")
    for got, order in ((tnp.sort(x, axis=axis), tnp.argsort(x, axis=axis)),
                       tracec.jit(lambda x: (tnp.sort(x, axis=axis),
                                             tnp.argsort(x, axis=axis)))(x)):
        assert got.dtype == x.dtype and order.dtype == np.int64
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(order, want_order)


def test_descending_is_stable_with_nan_first():
    x = np.array([1.0, np.nan, 3.0, 1.0, 3.0, -2.0])
    got = tnp.argsort(x, descending=True)
    # NaN is the largest; among equals the first comes first.
    np.testing.assert_array_equal(got, [1, 2, 4, 0, 3, 5])
    np.testing.assert_array_equal(tnp.sort(x, descending=True)[1:],
                                  [3.0, 3.0, 1.0, 1.0, -2.0])


def test_axis_none_flattens():
    x = RNG.normal(size=(3, 4))
    np.testing.assert_array_equal(tnp.sort(x, axis=None), np.sort(x, axis=None))
    np.testing.assert_array_equal(tnp.argsort(x, axis=None),
                                  np.argsort(x, axis=None, kind="stable"))
    with pytest.raises(ValueError, match="out of bounds"):
        tnp.sort(x, axis=2)


def test_a_long_row():
    x = RNG.normal(size=100_003).astype(np.float32)
    np.testing.assert_array_equal(tracec.jit(lambda x: tnp.sort(x))(x),
                                  np.sort(x))


@pytest.mark.parametrize("q", [0.5, 0.0, 1.0, 0.37, [0.1, 0.9]])
def test_quantiles_match_numpy(q):
    x = RNG.normal(size=(6, 11))
    np.testing.assert_allclose(tnp.quantile(x, q), np.quantile(x, q),
                               rtol=1e-14)
    np.testing.assert_allclose(tnp.quantile(x, q, axis=1, keepdims=True),
                               np.quantile(x, q, axis=1, keepdims=True),
                               rtol=1e-14)
    np.testing.assert_allclose(tnp.median(x, axis=0), np.median(x, axis=0),
                               rtol=1e-14)
    np.testing.assert_allclose(tnp.percentile(x, 25.0, axis=1),
                               np.percentile(x, 25.0, axis=1), rtol=1e-14)
    with pytest.raises(ValueError, match="in \\[0, 1\\]"):
        tnp.quantile(x, 1.5)


def test_searchsorted():
    a = np.array([1.0, 2.0, 2.0, 5.0])
    v = np.array([[0.0, 2.0], [2.5, 9.0]])
    for side in ("left", "right"):
        np.testing.assert_array_equal(tnp.searchsorted(a, v, side=side),
                                      np.searchsorted(a, v, side=side))


def test_top_k_matches_pytorch():
    x = RNG.normal(size=(4, 30))
    values, indices = tracec.nn.top_k(x, 5)
    want = torch.topk(torch.tensor(x), 5)
    np.testing.assert_array_equal(values, want.values.numpy())
    np.testing.assert_array_equal(indices, want.indices.numpy())
    assert indices.dtype == np.int32
    # Ties: the lower index first (tf.math.top_k).
    _, idx = tracec.nn.top_k(np.array([1.0, 3.0, 3.0, 2.0, 3.0]), 3)
    np.testing.assert_array_equal(idx, [1, 2, 4])
    with pytest.raises(ValueError, match="out of range"):
        tracec.nn.top_k(x, 31)


X = RNG.normal(size=(3, 7))
W = RNG.normal(size=(3, 7))


def loss(x):
    return (tnp.sum(tnp.sort(x, axis=1) * W) +
            tnp.sum(tnp.sort(x, axis=0, descending=True) ** 3) +
            tnp.sum(tracec.nn.top_k(x, 2)[0] * 2.0) +
            tnp.median(x))


def torch_loss(x):
    return (torch.sum(torch.sort(x, dim=1).values * torch.tensor(W)) +
            torch.sum(torch.sort(x, dim=0, descending=True).values ** 3) +
            torch.sum(torch.topk(x, 2).values * 2.0) +
            torch.quantile(x.reshape(-1), 0.5))


def test_gradients_match_pytorch():
    got = tracec.grad(loss)(X)
    t = torch.tensor(X, requires_grad=True)
    torch_loss(t).backward()
    np.testing.assert_allclose(got, t.grad.numpy(), rtol=1e-12, atol=1e-13)


def test_tangents_and_second_order_match_pytorch():
    tangent = RNG.normal(size=X.shape)
    _, got = tracec.jvp(loss, (X,), (tangent,))
    _, want = torch.autograd.functional.jvp(torch_loss, torch.tensor(X),
                                            torch.tensor(tangent))
    np.testing.assert_allclose(got, want.numpy(), rtol=1e-12)
    h = tracec.hessian(lambda x: tnp.sum(tnp.sort(x) ** 3 * W[0]))(X[0])
    th = torch.autograd.functional.hessian(
        lambda x: torch.sum(torch.sort(x).values ** 3 * torch.tensor(W[0])),
        torch.tensor(X[0]))
    np.testing.assert_allclose(h, th.numpy(), rtol=1e-12, atol=1e-13)


def test_vmap():
    f = lambda x: (tnp.sort(x), tnp.argsort(x))
    got = tracec.vmap(f)(X)
    np.testing.assert_array_equal(got[0], np.sort(X, axis=1))
    np.testing.assert_array_equal(got[1], np.argsort(X, axis=1))
