"""Inputs and torch.autograd references for dynamic-autodiff.test.

    dynamic_autodiff_check.py inputs DIR N   the .npy inputs with batch N
    dynamic_autodiff_check.py check DIR N    DIR/d<f>_result<k>.npy against
                                             torch.autograd in float64
                                             (entries not run at N are
                                             skipped: the test's CHECK
                                             lines say which ran)
"""
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F


def inputs(n):
    rng = np.random.RandomState(n)
    f32 = lambda *shape: rng.randn(*shape).astype(np.float32)
    return {"x": f32(n, 6), "labels": rng.randint(0, 5, n).astype(np.int32),
            "w1": f32(6, 8), "b1": f32(8), "w2": f32(8, 5), "b2": f32(5),
            "bx": f32(n, 4), "gamma4": f32(4), "w4": f32(4),
            "lx": f32(n, 8), "gamma8": f32(8), "beta8": f32(8),
            "fx": f32(n, 3, 4), "fy": f32(n, n % 5 + 1, 4), "fw": f32(12, 2),
            "fv": f32(4, 2), "cx": f32(n, 6, 6, 2), "cw": f32(3, 3, 2, 4),
            "cv": f32(40, 3)}


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


def convnet(x, w, v):
    nchw = x.permute(0, 3, 1, 2)
    c = torch.tanh(F.conv2d(nchw, w.permute(3, 2, 0, 1), padding=1))
    p = F.avg_pool2d(c, 2, 2).permute(0, 2, 3, 1)  # back to NHWC
    e = F.pad(p.reshape(-1, 36), (2, 2))
    h = e @ v
    r = x[0:1, 1:3, 1:4, :].reshape(4, 3)
    j = torch.cat([h, r, h], 0)
    return (torch.sin(j) * torch.arange(3, dtype=j.dtype)).sum()


# entry: (function, argument names, which arguments get gradients)
CASES = {
    "dmlp": (mlp, ["x", "labels", "w1", "b1", "w2", "b2"], [0, 2, 3, 4, 5]),
    "dbatchnorm": (batchnorm, ["bx", "gamma4", "w4"], [0, 1]),
    "dlayernorm": (layernorm, ["lx", "gamma8", "beta8"], [0, 1, 2]),
    "dflat": (flat, ["fx", "fy", "fw", "fv"], [0, 1, 2, 3]),
    "dconvnet": (convnet, ["cx", "cw", "cv"], [0, 1, 2]),
}

directory, n = sys.argv[2], int(sys.argv[3])
given = inputs(n)
if sys.argv[1] == "inputs":
    for name, array in given.items():
        np.save(os.path.join(directory, name + ".npy"), array)
    sys.exit(0)
for entry, (function, names, wrt) in CASES.items():
    if not os.path.exists(os.path.join(directory, entry + "_result0.npy")):
        continue
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
