"""Inputs, static modules and the comparison for dynamic-mlp.test.

    mlp_dynamic_check.py prepare DIR N   DIR/n<N>/: the .npy inputs at batch N
                                         (as bench/harness/workloads.py makes
                                         them) and static.mlir, the bench
                                         module with batch N
    mlp_dynamic_check.py check DIR N     the dynamic compile's results
                                         (DIR/n<N>/dynamic) against the static
                                         one's (DIR/n<N>/static)
"""
import math
import os
import sys

import numpy as np

NAMES = ["x", "labels", "w1", "b1", "w2", "b2", "w3", "b3"]
HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(HERE, "..", "..", "..", "bench", "workloads", "mlp.mlir")


def inputs(n):
    rng = np.random.default_rng(n)

    def normal(shape, scale=1.0):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    def dense(n_in, n_out):
        return [normal((n_in, n_out), 1 / math.sqrt(n_in)), normal((n_out,), 0.1)]
    return ([normal((n, 784)), rng.integers(0, 10, n).astype(np.int32)]
            + dense(784, 512) + dense(512, 512) + dense(512, 10))


directory, n = sys.argv[2], int(sys.argv[3])
folder = os.path.join(directory, "n%d" % n)
if sys.argv[1] == "prepare":
    os.makedirs(folder, exist_ok=True)
    for name, array in zip(NAMES, inputs(n)):
        np.save(os.path.join(folder, name + ".npy"), array)
    with open(BENCH) as f:
        text = f.read().replace("256x", "%dx" % n).replace(
            "tensor<256x", "tensor<%dx" % n).replace(
            "<256xi32>", "<%dxi32>" % n).replace("<256xf32>", "<%dxf32>" % n)
    with open(os.path.join(folder, "static.mlir"), "w") as f:
        f.write(text)
else:
    for i in range(7):
        name = "train_step_result%d.npy" % i
        want = np.load(os.path.join(folder, "static", name))
        got = np.load(os.path.join(folder, "dynamic", name))
        ok = got.shape == want.shape and np.allclose(got, want, rtol=1e-4,
                                                     atol=1e-6)
        print(("ok" if ok else "MISMATCH") + " n=%d result %d %s" %
              (n, i, got.shape))
