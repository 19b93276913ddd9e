"""Inputs and PyTorch (torch.autograd) references for sparse-grads-torch.test.

    sparse_grads_torch.py inputs DIR N   writes the .npy inputs (batch N)
    sparse_grads_torch.py check DIR N    compares DIR/<entry>_result<k>.npy
"""
import numpy as np
import torch

from results_check import main


def inputs(n):
    rng = np.random.RandomState(10 + n)
    rows = 6 + n
    x = rng.permutation(2 * 5 * 5 * 3).reshape(2, 5, 5, 3) / 150.0 - 0.5
    return {
        "table": rng.randn(rows, 8),
        # Repeated ids in every sequence.
        "ids": rng.randint(0, rows, (n, 5)).astype(np.int32),
        "labels": rng.randint(0, 4, n).astype(np.int32),
        "w": rng.randn(8, 4), "b": rng.randn(4),
        "x": x, "v": rng.randn(2, 5, 5, 3), "u": rng.randn(2, 5, 5, 3),
    }


def embedding_reference(i):
    emb = torch.nn.Embedding(*i["table"].shape, dtype=torch.float64)
    with torch.no_grad():
        emb.weight.copy_(torch.tensor(i["table"]))
    w = torch.tensor(i["w"], requires_grad=True)
    b = torch.tensor(i["b"], requires_grad=True)
    ids = torch.tensor(i["ids"].astype(np.int64))
    logits = emb(ids).mean(1) @ w + b
    loss = torch.nn.functional.cross_entropy(
        logits, torch.tensor(i["labels"].astype(np.int64)))
    loss.backward()
    return [loss.detach().numpy(), emb.weight.grad.numpy(), w.grad.numpy(),
            b.grad.numpy()]


def third_reference(i):
    nchw = lambda a: torch.tensor(a).permute(0, 3, 1, 2).contiguous()
    x = nchw(i["x"]).requires_grad_(True)
    v = nchw(i["v"]).requires_grad_(True)
    u = nchw(i["u"]).requires_grad_(True)
    p = torch.nn.functional.max_pool2d(x, 3, 2, 1)
    f = (p ** 4).sum()
    (g,) = torch.autograd.grad(f, x, create_graph=True)
    h = (g * v).sum()
    (gx,) = torch.autograd.grad(h, x, create_graph=True)
    k = (gx * u).sum()
    grads = torch.autograd.grad(k, (x, v, u))
    return [t.permute(0, 2, 3, 1).numpy() for t in grads]


def expected(i):
    return {"embedding_grads": embedding_reference(i),
            "third": third_reference(i)}


main(inputs, expected, rtol=1e-9, atol=1e-9)
