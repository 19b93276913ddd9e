"""Inputs for examples/mlp.mlir and NumPy's answers, for the demo.

usage: mlp_data.py DIR   writes x, labels, w1, b1, w2, b2 as .npy files in
                         DIR and prints what NumPy computes for them
"""
import sys

import numpy as np

rng = np.random.default_rng(7)
x = rng.standard_normal((8, 4)).astype(np.float32)
labels = rng.integers(0, 3, 8).astype(np.int32)
w1 = (rng.standard_normal((4, 16)) * 0.5).astype(np.float32)
b1 = (rng.standard_normal(16) * 0.1).astype(np.float32)
w2 = (rng.standard_normal((16, 3)) * 0.5).astype(np.float32)
b2 = (rng.standard_normal(3) * 0.1).astype(np.float32)
for name, value in dict(x=x, labels=labels, w1=w1, b1=b1, w2=w2, b2=b2).items():
    np.save(f"{sys.argv[1]}/{name}.npy", value)

h = np.maximum(x @ w1 + b1, 0)
logits = h @ w2 + b2
shifted = logits - logits.max(1, keepdims=True)
probs = np.exp(shifted) / np.exp(shifted).sum(1, keepdims=True)
loss = -np.log(probs[np.arange(8), labels]).mean()
dlogits = (probs - np.eye(3)[labels]) / 8
print("NumPy: classes", probs.argmax(1), " loss", np.float32(loss))
print("NumPy: d loss / d b2", dlogits.sum(0).astype(np.float32))
