"""tracec.nn's layers against PyTorch's: layer norm, batch norm (training
with running statistics as Variables, inference), dropout, embeddings and
conv2d with PyTorch's integer padding; values and gradients at f64."""
import numpy as np
import pytest
import torch
import torch.nn.functional as F

import tracec
import tracec.numpy as tnp

RNG = np.random.default_rng(3)


def grads(fn, *args):
    return tracec.gradients_function(fn, list(range(len(args))))(*args)


def torch_grads(fn, *args):
    tensors = [torch.tensor(a, requires_grad=True) for a in args]
    fn(*tensors).backward()
    return [t.grad.numpy() for t in tensors]


def test_layer_norm_matches_pytorch():
    x = RNG.normal(size=(4, 3, 8))
    scale, offset = RNG.normal(size=8), RNG.normal(size=8)
    weights = RNG.normal(size=(4, 3, 8))
    np.testing.assert_allclose(
        tracec.nn.layer_norm(x, scale, offset),
        F.layer_norm(torch.tensor(x), (8,), torch.tensor(scale),
                     torch.tensor(offset)).numpy(), rtol=1e-10, atol=1e-12)

    def loss(x, s, b):
        return tnp.sum(tracec.nn.layer_norm(x, s, b) * weights)

    def torch_loss(x, s, b):
        return torch.sum(F.layer_norm(x, (8,), s, b) * torch.tensor(weights))

    for got, want in zip(grads(loss, x, scale, offset),
                         torch_grads(torch_loss, x, scale, offset)):
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-11)
    # Over the last two dims, traced.
    got = tracec.function(lambda v: tracec.nn.layer_norm(v, axis=(-2, -1),
                                                         epsilon=1e-3))(x)
    np.testing.assert_allclose(
        got, F.layer_norm(torch.tensor(x), (3, 8), eps=1e-3).numpy(),
        rtol=1e-10, atol=1e-12)


def test_batch_norm_training_updates_running_statistics_as_pytorch():
    x = RNG.normal(size=(6, 5, 5, 4)) * 3 + 1   # NHWC
    scale, offset = RNG.normal(size=4), RNG.normal(size=4)
    mean = tracec.Variable(np.zeros(4))
    var = tracec.Variable(np.ones(4))

    @tracec.function
    def step(x):
        return tracec.nn.batch_norm(x, scale, offset, mean, var,
                                    training=True, momentum=0.2)

    torch_mean, torch_var = torch.zeros(4, dtype=torch.float64), \
        torch.ones(4, dtype=torch.float64)
    for _ in range(3):
        y = step(x)
        want = F.batch_norm(torch.tensor(x).permute(0, 3, 1, 2), torch_mean,
                            torch_var, torch.tensor(scale),
                            torch.tensor(offset), training=True,
                            momentum=0.2).permute(0, 2, 3, 1).numpy()
        np.testing.assert_allclose(y, want, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(mean.numpy(), torch_mean.numpy(),
                                   rtol=1e-12)
        np.testing.assert_allclose(var.numpy(), torch_var.numpy(),
                                   rtol=1e-12)
    # Inference uses the running statistics.
    y = tracec.nn.batch_norm(x, scale, offset, mean, var, training=False)
    want = F.batch_norm(torch.tensor(x).permute(0, 3, 1, 2), torch_mean,
                        torch_var, torch.tensor(scale), torch.tensor(offset),
                        training=False).permute(0, 2, 3, 1).numpy()
    np.testing.assert_allclose(y, want, rtol=1e-10, atol=1e-12)


def test_batch_norm_gradients_match_pytorch():
    x = RNG.normal(size=(3, 4, 2, 5))   # channel axis 1 (NCHW)
    scale, offset = RNG.normal(size=4), RNG.normal(size=4)
    weights = RNG.normal(size=x.shape)

    def loss(x, s, b):
        return tnp.sum(tracec.nn.batch_norm(x, s, b, training=True, axis=1)
                       * weights)

    def torch_loss(x, s, b):
        return torch.sum(F.batch_norm(x, None, None, s, b, training=True)
                         * torch.tensor(weights))

    for got, want in zip(grads(loss, x, scale, offset),
                         torch_grads(torch_loss, x, scale, offset)):
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-11)


def test_batch_norm_inference_needs_running_statistics():
    with pytest.raises(ValueError, match="needs running_mean"):
        tracec.nn.batch_norm(np.ones((2, 3)), training=False)


def test_dropout():
    x = np.ones((200, 100), np.float32)
    y = tracec.nn.dropout(x, 0.25, seed=7)
    kept = y != 0
    assert abs(kept.mean() - 0.75) < 0.02
    np.testing.assert_allclose(y[kept], 1 / 0.75, rtol=1e-6)
    assert tracec.nn.dropout(x, 0.25, training=False) is x
    with pytest.raises(ValueError, match="rate must be in"):
        tracec.nn.dropout(x, 1.0)

    # A new mask at every call of the compiled function; the gradient is
    # the mask, scaled.
    @tracec.function
    def masked(x):
        return tracec.nn.dropout(x, 0.5, seed=1)
    assert not np.array_equal(masked(x) != 0, masked(x) != 0)
    xd = np.ones((50, 40))
    g, = tracec.gradients_function(
        lambda v: tnp.sum(tracec.nn.dropout(v, 0.5, seed=2)), [0])(xd)
    assert set(np.unique(g)) <= {0.0, 2.0} and 0.4 < (g != 0).mean() < 0.6


def test_embedding_matches_pytorch():
    table = RNG.normal(size=(10, 3))
    ids = np.array([[1, 9, 1], [-1, 0, 4]], np.int32)
    np.testing.assert_array_equal(tracec.nn.embedding(ids, table),
                                  table[ids])
    weights = RNG.normal(size=(2, 3, 3))
    g, = tracec.gradients_function(
        lambda t: tnp.sum(tracec.nn.embedding(ids, t) * weights), [0])(table)
    want, = torch_grads(
        lambda t: torch.sum(F.embedding(torch.tensor(ids % 10).long(), t)
                            * torch.tensor(weights)), table)
    np.testing.assert_allclose(g, want, rtol=1e-12)


def test_conv2d_takes_pytorch_integer_padding():
    x = RNG.normal(size=(2, 6, 5, 3))
    w = RNG.normal(size=(3, 3, 3, 4))
    got = tracec.nn.conv2d(x, w, padding=1)
    want = F.conv2d(torch.tensor(x).permute(0, 3, 1, 2),
                    torch.tensor(w).permute(3, 2, 0, 1), padding=1)
    np.testing.assert_allclose(got, want.permute(0, 2, 3, 1).numpy(),
                               rtol=1e-10, atol=1e-12)
    with pytest.raises(ValueError, match="an int or 2 or 4 ints"):
        tracec.nn.conv2d(x, w, padding=(1, 1, 1))
