"""Inputs and NumPy/PyTorch references for vectorized-execution.test.

    vectorized_check.py inputs DIR     writes the .npy inputs
    vectorized_check.py check DIR      compares DIR/<entry>_result0.npy
"""
import os
import sys

import numpy as np
import torch

rng = np.random.RandomState(7)
X1 = (rng.randn(1000) * 4).astype(np.float32)
X2 = (rng.randn(23, 37) * 3).astype(np.float32)
B = rng.randn(37).astype(np.float32)
G = rng.randn(37).astype(np.float32)
X64 = rng.randn(1001)
Y2 = rng.randn(23, 37).astype(np.float32)
INPUTS = {"x1": X1, "x2": X2, "y2": Y2, "b": B, "g": G, "x64": X64}


def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(0.7978845608 * (x + 0.044715 * x**3)))


def chain(x, b):
    t = torch.from_numpy(x.astype(np.float64) + b)
    e = np.exp(x.astype(np.float64))
    return (torch.sigmoid(t).numpy() * torch.erf(torch.log1p(torch.from_numpy(e))).numpy()
            + torch.nn.functional.gelu(t).numpy())


def layer_norm(x, g, b):
    return torch.nn.functional.layer_norm(
        torch.from_numpy(x.astype(np.float64)), (37,), torch.from_numpy(g.astype(np.float64)),
        torch.from_numpy(b.astype(np.float64)), 1e-5).numpy()


EXPECTED = {
    "gelu_tanh": lambda: gelu_tanh(X1.astype(np.float64)),
    "chain": lambda: chain(X2, B),
    "row_sum": lambda: X2.astype(np.float64).sum(1),
    "column_max": lambda: X2.max(0),
    "row_dot": lambda: (X2.astype(np.float64) * Y2).sum(1),
    "matvec": lambda: X2.astype(np.float64) @ B,
    "total_mean": lambda: X2.astype(np.float64).mean(),
    "f64_sum": lambda: np.exp(X64).sum(),
    "softmax": lambda: torch.softmax(torch.from_numpy(X2.astype(np.float64)), -1).numpy(),
    "log_softmax": lambda: torch.log_softmax(torch.from_numpy(X2.astype(np.float64)), -1).numpy(),
    "layer_norm": lambda: layer_norm(X2, G, B),
}

if sys.argv[1] == "inputs":
    for name, array in INPUTS.items():
        np.save(os.path.join(sys.argv[2], name + ".npy"), array)
else:
    bad = 0
    for entry, expected in EXPECTED.items():
        got = np.load(os.path.join(sys.argv[2], entry + "_result0.npy"))
        ok = got.shape == np.shape(expected()) and np.allclose(
            got, expected(), rtol=2e-5, atol=2e-5)
        print(("ok " if ok else "MISMATCH ") + entry)
        bad += not ok
    sys.exit(bad)
