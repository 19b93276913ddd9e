"""trace.scatter_add from Python (tracec.numpy.scatter_add) against
np.add.at, and gradients through take (gather), whose rule is now a
scatter_add, against PyTorch's nn.Embedding."""
import numpy as np
import pytest
import torch

import tracec
import tracec.numpy as tnp


def f32(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def add_at(a, indices, updates, axis=0):
    """np.add.at on a copy, negative indices wrapped (as NumPy's) and
    out-of-range ones clamped (what traced indices get)."""
    out = a.copy()
    n = a.shape[axis]
    clamped = np.clip(np.where(indices < 0, indices + n, indices), 0, n - 1)
    np.add.at(out, (slice(None),) * axis + (clamped,), updates)
    return out


def test_scatter_add_eager_matches_np_add_at():
    a, u = f32(6, 4), f32(7, 4, seed=1)
    ids = np.array([3, 0, 3, -2, 5, 1, 3], np.int32)
    np.testing.assert_allclose(tnp.scatter_add(a, ids, u), add_at(a, ids, u),
                               rtol=1e-6)
    # An index out of range is NumPy's IndexError when known; traced, it
    # is clamped.
    ids[5] = 9
    with pytest.raises(IndexError, match="index 9 is out of bounds"):
        tnp.scatter_add(a, ids, u)
    np.testing.assert_allclose(
        tracec.function(tnp.scatter_add)(a, ids, u), add_at(a, ids, u),
        rtol=1e-6)
    b, v = f32(3, 5), f32(3, 2, 2, seed=2)
    ids2 = np.array([[1, 1], [4, 0]], np.int32)
    np.testing.assert_allclose(tnp.scatter_add(b, ids2, v, axis=1),
                               add_at(b, ids2, v, axis=1), rtol=1e-6)


def test_scatter_add_in_a_function_with_dynamic_batch():
    @tracec.function(input_signature=[
        tracec.TensorSpec((None, 4), np.float32),
        tracec.TensorSpec((None,), np.int32),
        tracec.TensorSpec((None, 4), np.float32)])
    def update(table, ids, rows):
        return tnp.scatter_add(table, ids, rows)

    for n in (3, 8):
        table, rows = f32(n, 4), f32(2 * n, 4, seed=n)
        ids = np.random.default_rng(n).integers(0, n, 2 * n).astype(np.int32)
        np.testing.assert_allclose(update(table, ids, rows),
                                   add_at(table, ids, rows), rtol=1e-6)


def test_embedding_gradient_matches_torch():
    table, w = f32(50, 8), f32(8, 3, seed=1)
    ids = np.random.default_rng(2).integers(0, 50, (4, 6)).astype(np.int32)
    ids[0, :3] = 7  # repeats

    def loss(table, w):
        e = tnp.take(table, ids, axis=0)          # [4, 6, 8]
        return tnp.sum(tnp.tanh(tnp.matmul(tnp.mean(e, axis=1), w)))

    gt, gw = tracec.grad(loss, argnums=(0, 1))(table, w)
    emb = torch.nn.Embedding(50, 8)
    with torch.no_grad():
        emb.weight.copy_(torch.from_numpy(table))
    tw = torch.tensor(w, requires_grad=True)
    torch.tanh(emb(torch.from_numpy(ids.astype(np.int64))).mean(1) @ tw).sum().backward()
    np.testing.assert_allclose(gt, emb.weight.grad.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gw, tw.grad.numpy(), rtol=1e-5, atol=1e-6)
    # Rows no id looked up get exactly zero.
    untouched = np.setdiff1d(np.arange(50), ids)
    assert not gt[untouched].any()


def test_scatter_add_gradient_matches_torch_index_add():
    a, u = f32(5, 3), f32(4, 3, seed=1)
    ids = np.array([1, 4, 1, 0], np.int32)

    def loss(a, u):
        return tnp.sum(tnp.sin(tnp.scatter_add(a, ids, u)))

    ga, gu = tracec.grad(loss, argnums=(0, 1))(a, u)
    ta = torch.tensor(a, requires_grad=True)
    tu = torch.tensor(u, requires_grad=True)
    torch.sin(ta.index_add(0, torch.from_numpy(ids.astype(np.int64)), tu)).sum().backward()
    np.testing.assert_allclose(ga, ta.grad.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gu, tu.grad.numpy(), rtol=1e-5, atol=1e-6)
