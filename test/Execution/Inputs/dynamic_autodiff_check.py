"""Inputs and torch.autograd references for dynamic-autodiff.test.

    dynamic_autodiff_check.py inputs DIR N   the .npy inputs with batch N
    dynamic_autodiff_check.py check DIR N    DIR/d<f>_result<k>.npy against
                                             torch.autograd in float64
"""
import os
import sys

import numpy as np
import torch


def inputs(n):
    rng = np.random.RandomState(n)
    f32 = lambda *shape: rng.randn(*shape).astype(np.float32)
    return {"x": f32(n, 6), "labels": rng.randint(0, 5, n).astype(np.int32),
            "w1": f32(6, 8), "b1": f32(8), "w2": f32(8, 5), "b2": f32(5),
            "bx": f32(n, 4), "gamma4": f32(4), "w4": f32(4),
            "lx": f32(n, 8), "gamma8": f32(8), "beta8": f32(8),
            "fx": f32(n, 3, 4), "fy": f32(n, n % 5 + 1, 4), "fw": f32(12, 2),
            "fv": f32(4, 2)}


def mlp(x, labels, w1, b1, w2, b2):
    logp = torch.log_softmax(torch.tanh(x @ w1 + b1) @ w2 + b2, dim=1)
    return -logp[torch.arange(len(labels)), labels.long()].mean()


def batchnorm(x, gamma, w):
    c = x - x.mean(0, keepdim=True)
    n = c * torch.rsqrt((c * c).mean(0) + 1e-3)
    return (torch.sin(n * gamma) * w).sum()


def layernorm(x, gamma, beta):
    c = x - x.mean(1, keepdim=True)
    n = c * torch.rsqrt((c * c).mean(1, keepdim=True) + 1e-3)
    return torch.softmax(n * gamma + beta, dim=1).max(1).values.sum()


def flat(x, y, w, v):
    a = torch.tanh(x.reshape(-1, 12) @ w).sum()
    return a + torch.exp(y.reshape(-1, 4) @ v).mean()


# entry: (function, argument names, which arguments get gradients)
CASES = {
    "dmlp": (mlp, ["x", "labels", "w1", "b1", "w2", "b2"], [0, 2, 3, 4, 5]),
    "dbatchnorm": (batchnorm, ["bx", "gamma4", "w4"], [0, 1]),
    "dlayernorm": (layernorm, ["lx", "gamma8", "beta8"], [0, 1, 2]),
    "dflat": (flat, ["fx", "fy", "fw", "fv"], [0, 1, 2, 3]),
}

directory, n = sys.argv[2], int(sys.argv[3])
given = inputs(n)
if sys.argv[1] == "inputs":
    for name, array in given.items():
        np.save(os.path.join(directory, name + ".npy"), array)
    sys.exit(0)
for entry, (function, names, wrt) in CASES.items():
    args = [torch.tensor(given[name].astype(np.float64)
                         if given[name].dtype == np.float32 else given[name],
                         requires_grad=i in wrt)
            for i, name in enumerate(names)]
    grads = torch.autograd.grad(function(*args), [args[i] for i in wrt])
    for k, want in enumerate(grads):
        got = np.load(os.path.join(directory, "%s_result%d.npy" % (entry, k)))
        want = want.numpy()
        ok = got.shape == want.shape and np.allclose(got, want, rtol=1e-4,
                                                     atol=1e-5)
        print(("ok " if ok else "MISMATCH ") + "%s result %d n=%d" %
              (entry, k, n) + ("" if ok else " got %s want %s, max error %g" % (
                  got.shape, want.shape,
                  np.abs(got - want).max() if got.shape == want.shape
                  else -1)))
