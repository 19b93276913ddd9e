"""tracec.numpy's compositions against NumPy (values) and PyTorch
(gradients at f64): flip, roll, tile, repeat, split, cumsum, cumprod, any,
all, isnan/isinf/isfinite, linalg.norm, einsum."""
import numpy as np
import pytest
import torch

import tracec
import tracec.numpy as tnp

RNG = np.random.default_rng(5)
X = RNG.normal(size=(3, 4, 5))


@pytest.mark.parametrize("name, fn, expected", [
    ("flip", lambda m: m.flip(X, 1), np.flip(X, 1)),
    ("flip all", lambda m: m.flip(X), np.flip(X)),
    ("flip two", lambda m: m.flip(X, (0, 2)), np.flip(X, (0, 2))),
    ("roll", lambda m: m.roll(X, 2, 1), np.roll(X, 2, 1)),
    ("roll negative", lambda m: m.roll(X, -7, 2), np.roll(X, -7, 2)),
    ("roll flat", lambda m: m.roll(X, 5), np.roll(X, 5)),
    ("roll axes", lambda m: m.roll(X, (1, -1), (0, 2)),
     np.roll(X, (1, -1), (0, 2))),
    ("tile", lambda m: m.tile(X, (2, 1, 3)), np.tile(X, (2, 1, 3))),
    ("tile more dims", lambda m: m.tile(X, (2, 1, 1, 2)),
     np.tile(X, (2, 1, 1, 2))),
    ("tile int", lambda m: m.tile(X, 2), np.tile(X, 2)),
    ("repeat", lambda m: m.repeat(X, 3, axis=1), np.repeat(X, 3, axis=1)),
    ("repeat flat", lambda m: m.repeat(X, 2), np.repeat(X, 2)),
    ("repeat counts", lambda m: m.repeat(X, [1, 0, 2], axis=0),
     np.repeat(X, [1, 0, 2], axis=0)),
    ("cumsum", lambda m: m.cumsum(X, axis=2), np.cumsum(X, axis=2)),
    ("cumsum flat", lambda m: m.cumsum(X), np.cumsum(X)),
    ("cumprod", lambda m: m.cumprod(X, axis=1), np.cumprod(X, axis=1)),
    ("norm", lambda m: m.linalg.norm(X), np.linalg.norm(X)),
    ("norm axis", lambda m: m.linalg.norm(X, axis=1), np.linalg.norm(X, axis=1)),
    ("norm 1", lambda m: m.linalg.norm(X, 1, axis=2),
     np.linalg.norm(X, 1, axis=2)),
    ("norm inf", lambda m: m.linalg.norm(X, np.inf, axis=0),
     np.linalg.norm(X, np.inf, axis=0)),
    ("norm 3", lambda m: m.linalg.norm(X, 3, axis=0, keepdims=True),
     np.linalg.norm(X, 3, axis=0, keepdims=True)),
    ("norm fro", lambda m: m.linalg.norm(X[0], "fro"),
     np.linalg.norm(X[0], "fro")),
    ("einsum matmul", lambda m: m.einsum("ijk,ikl->ijl", X, X.transpose(0, 2, 1)),
     np.einsum("ijk,ikl->ijl", X, X.transpose(0, 2, 1))),
    ("einsum outer", lambda m: m.einsum("i,j->ij", X[0, 0], X[1, 1]),
     np.einsum("i,j->ij", X[0, 0], X[1, 1])),
    ("einsum transpose", lambda m: m.einsum("ijk->kji", X),
     np.einsum("ijk->kji", X)),
    ("einsum sum", lambda m: m.einsum("ijk->j", X), np.einsum("ijk->j", X)),
    ("einsum implicit", lambda m: m.einsum("ij,jk", X[0], X[1].T),
     np.einsum("ij,jk", X[0], X[1].T)),
    ("einsum three", lambda m: m.einsum("ab,bc,cd->ad", X[0], X[1].T, X[2]),
     np.einsum("ab,bc,cd->ad", X[0], X[1].T, X[2])),
    ("einsum batch and sum", lambda m: m.einsum("bij,bkj->bik", X, X),
     np.einsum("bij,bkj->bik", X, X)),
    ("einsum dot", lambda m: m.einsum("i,i", X[0, 0], X[0, 1]),
     np.einsum("i,i", X[0, 0], X[0, 1])),
])
def test_values_match_numpy(name, fn, expected):
    eager = fn(tnp)
    traced = tracec.function(lambda: fn(tnp))()
    for got in (eager, traced):
        assert got.shape == expected.shape
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


def test_split():
    for sections in (3, [1, 3], [-2, 10]):
        got = tnp.split(X, sections, axis=0 if sections == 3 else 1)
        want = np.split(X, sections, axis=0 if sections == 3 else 1)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)
    with pytest.raises(ValueError, match="equal division"):
        tnp.split(X, 2, axis=0)


def test_integer_and_boolean_scans_and_tests():
    a = np.array([[1, 0, 3], [4, 5, 0]], np.int32)
    np.testing.assert_array_equal(tnp.cumsum(a, 1), np.cumsum(a, 1))
    np.testing.assert_array_equal(tnp.cumprod(a, 0), np.cumprod(a, 0))
    np.testing.assert_array_equal(tnp.cumsum(a > 0, 1), np.cumsum(a > 0, 1))
    for axis in (None, 0, 1):
        np.testing.assert_array_equal(tnp.any(a, axis), np.any(a, axis))
        np.testing.assert_array_equal(tnp.all(a, axis), np.all(a, axis))
    assert tnp.all(a > -1).dtype == np.bool_
    v = np.array([1.0, np.nan, np.inf, -np.inf, 0.0], np.float32)
    np.testing.assert_array_equal(tnp.isnan(v), np.isnan(v))
    np.testing.assert_array_equal(tnp.isinf(v), np.isinf(v))
    np.testing.assert_array_equal(tnp.isfinite(v), np.isfinite(v))
    np.testing.assert_array_equal(
        tracec.function(lambda x: (np.isnan(x), np.any(x > 1)))(v)[0],
        np.isnan(v))


def test_numpy_names_dispatch_on_traced_values():
    got = tracec.function(lambda x: (np.flip(x, 0), np.cumsum(x, axis=1),
                                     np.einsum("ijk->ik", x),
                                     np.linalg.norm(x, axis=2),
                                     np.tile(x, 2), np.roll(x, 1)))(X)
    expected = (np.flip(X, 0), np.cumsum(X, axis=1), np.einsum("ijk->ik", X),
                np.linalg.norm(X, axis=2), np.tile(X, 2), np.roll(X, 1))
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-12)


def test_gradients_match_pytorch():
    w = RNG.normal(size=(3, 4, 5))
    b = RNG.normal(size=(5, 2))

    def loss(x, b):
        y = tnp.cumsum(x, axis=1) * tnp.flip(x, 2) + tnp.roll(x, 2, 0)
        z = tnp.einsum("ijk,kl->ijl", tnp.cumprod(x, axis=2), b)
        t = tnp.tile(x, (1, 2, 1))[:, 1:5] * tnp.repeat(x, 2, axis=0)[::2]
        return tnp.sum(y * w) + tnp.sum(z * z) + tnp.sum(t) + \
            tnp.linalg.norm(x) + tnp.sum(tnp.linalg.norm(x, 3, axis=1))

    def torch_loss(x, b):
        y = torch.cumsum(x, 1) * torch.flip(x, (2,)) + torch.roll(x, 2, 0)
        z = torch.einsum("ijk,kl->ijl", torch.cumprod(x, 2), b)
        t = x.repeat(1, 2, 1)[:, 1:5] * \
            torch.repeat_interleave(x, 2, 0)[::2]
        return torch.sum(y * torch.tensor(w)) + torch.sum(z * z) + \
            torch.sum(t) + torch.linalg.norm(x) + \
            torch.sum(torch.linalg.vector_norm(x, 3, dim=1))

    got = tracec.gradients_function(loss, [0, 1])(X, b)
    tx = torch.tensor(X, requires_grad=True)
    tb = torch.tensor(b, requires_grad=True)
    torch_loss(tx, tb).backward()
    np.testing.assert_allclose(got[0], tx.grad.numpy(), rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(got[1], tb.grad.numpy(), rtol=1e-9, atol=1e-10)


def test_cumprod_gradient_with_zeros():
    x = np.array([2.0, 0.0, 3.0, 0.0, 5.0])
    g, = tracec.gradients_function(lambda v: tnp.sum(tnp.cumprod(v)), [0])(x)
    t = torch.tensor(x, requires_grad=True)
    torch.sum(torch.cumprod(t, 0)).backward()
    np.testing.assert_allclose(g, t.grad.numpy())


def test_refusals():
    with pytest.raises(ValueError, match="repeated index"):
        tnp.einsum("ii->i", X[0, :4, :4])
    with pytest.raises(ValueError, match="has sizes 5 and 4"):
        tnp.einsum("ij,jk->ik", X[0], X[0])
    with pytest.raises(ValueError, match="'...' is not supported"):
        tnp.einsum("...j->j", X)
    with pytest.raises(ValueError, match="ord=2 over 2 axes"):
        tnp.linalg.norm(X[0], 2, axis=(0, 1))
    with pytest.raises(ValueError, match="axis 3 is out of bounds"):
        tnp.flip(X, 3)
    dynamic = tracec.function(
        lambda x: tnp.cumsum(x, 0),
        input_signature=[tracec.TensorSpec([None], np.float32)])
    with pytest.raises(ValueError, match="static size along axis 0"):
        dynamic(np.ones(3, np.float32))


def test_at_updates_match_numpy():
    x = np.arange(12, dtype=np.float64).reshape(3, 4)
    v = np.array([10.0, 20.0, 30.0])

    def numpy_set(x, index, v):
        y = x.copy()
        y[index] = v
        return y

    def numpy_add(x, index, v):
        y = x.copy()
        np.add.at(y, index, v)
        return y

    cases = [(1, 5.0), ((slice(None), 2), v), ((0, slice(1, 3)), v[:2]),
             (np.array([2, 0, 2]), 1.5), ((Ellipsis, -1), v),
             ((np.array([0, 0]), np.array([1, 1])), np.array([7.0, 8.0]))]
    for index, values in cases:
        got = tracec.function(lambda x: (
            x.at[index].set(values), x.at[index].add(values),
            x.at[index].multiply(values), x.at[index].get(),
            x.at[index].max(values)))(x)
        np.testing.assert_array_equal(got[0], numpy_set(x, index, values))
        np.testing.assert_array_equal(got[1], numpy_add(x, index, values))
        want = x.copy()
        np.multiply.at(want, index, values)
        np.testing.assert_array_equal(got[2], want)
        np.testing.assert_array_equal(got[3], x[index])
        want = x.copy()
        np.maximum.at(want, index, values)
        np.testing.assert_array_equal(got[4], want)


def test_at_with_traced_indices_and_gradients():
    x = np.arange(12, dtype=np.float64).reshape(3, 4)
    row = np.array([1.0, -1.0, 2.0, -2.0])
    got = tracec.function(lambda x, i: (x.at[i].set(row), x.at[i].add(1.0)))(
        x, np.int32(-1))
    want = x.copy()
    want[-1] = row
    np.testing.assert_array_equal(got[0], want)
    want = x.copy()
    want[-1] += 1
    np.testing.assert_array_equal(got[1], want)
    ids = np.array([0, 2, 0], np.int32)
    got = tracec.function(lambda x, i: x.at[i].add(row))(x, ids)
    want = x.copy()
    np.add.at(want, ids, row)
    np.testing.assert_array_equal(got, want)
    with pytest.raises(TypeError, match="traced array of indices"):
        tracec.function(lambda x, i: x.at[i].set(row))(x, ids)

    # Gradients: set cuts x's gradient where it writes; v gets it there.
    w = np.random.default_rng(2).normal(size=(3, 4))

    def f(x, v):
        return tnp.sum(x.at[1, 1:3].set(v * v).at[0].multiply(v[0]) * w)

    gx, gv = tracec.function(lambda x, v: tracec.grad(f, (0, 1))(x, v))(
        x, np.array([2.0, 3.0]))
    tx = torch.tensor(x, requires_grad=True)
    tv = torch.tensor([2.0, 3.0], dtype=torch.float64, requires_grad=True)
    y = tx.clone()
    y[1, 1:3] = tv * tv
    y = torch.cat([y[:1] * tv[0], y[1:]])
    torch.sum(y * torch.tensor(w)).backward()
    np.testing.assert_allclose(gx, tx.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(gv, tv.grad.numpy(), rtol=1e-12)
