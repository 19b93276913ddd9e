"""Checks test/Execution/threads.mlir's results against NumPy."""
import sys

import numpy as np

out = sys.argv[1]
i, j = np.meshgrid(np.arange(256.0), np.arange(64.0), indexing="ij")
k, n = np.meshgrid(np.arange(64.0), np.arange(128.0), indexing="ij")
x = np.sin((i * j).astype(np.float32).astype(np.float64))
w = np.cos((k + n).astype(np.float64))
y = np.tanh(x @ w)
got_y = np.load(f"{out}/f_result0.npy")
got_s = np.load(f"{out}/f_result1.npy")
assert got_y.shape == (256, 128) and got_s.shape == (128,)
np.testing.assert_allclose(got_y, y, rtol=0, atol=2e-5)
np.testing.assert_allclose(got_s, y.sum(0), rtol=0, atol=2e-3)
print("ok")
