"""Inputs and NumPy references for dynamic-shapes.test.

    dynamic_check.py inputs DIR N   writes the .npy inputs with batch N
    dynamic_check.py check DIR N    compares DIR/<entry>_result0.npy
"""
import os
import sys

import numpy as np


def inputs(n):
    rng = np.random.RandomState(n)
    f32 = lambda *shape: rng.randn(*shape).astype(np.float32)
    return {"x": f32(n, 4), "y": f32(n, 4), "s": f32(n, 1), "b4": f32(4),
            "w": f32(4, 3), "b3": f32(3),
            "i": rng.randint(0, 4, n).astype(np.int32),
            "a": f32(n, 2, 4), "bm": f32(n, 4, 3)}


def expected(i):
    x, y, s = (i[k].astype(np.float64) for k in ("x", "y", "s"))
    return {
        "bias_tanh": np.tanh(x + i["b4"]),
        "mul_scale": np.exp(x * y - s),
        "column_sum": x.sum(0),
        "row_mean": x.mean(1, keepdims=True),
        "total_mean": x.mean(),
        "row_max": x.max(1),
        "dense": np.maximum(x @ i["w"] + i["b3"], 0),
        "gram": x.T @ y,
        "softmax": np.exp(x) / np.exp(x).sum(1, keepdims=True),
        "log_softmax": x - np.log(np.exp(x).sum(1, keepdims=True)),
        "transpose": x.T,
        "row_broadcast": np.broadcast_to(x.sum(1, keepdims=True), x.shape),
        "one_hot": np.eye(4)[i["i"]],
        "batch_matmul": (i["a"].astype(np.float64) @ i["bm"]).reshape(-1, 3),
    }


directory, n = sys.argv[2], int(sys.argv[3])
if sys.argv[1] == "inputs":
    for name, array in inputs(n).items():
        np.save(os.path.join(directory, name + ".npy"), array)
else:
    for entry, want in expected(inputs(n)).items():
        got = np.load(os.path.join(directory, entry + "_result0.npy"))
        ok = got.shape == np.shape(want) and np.allclose(got, want, rtol=1e-5,
                                                         atol=1e-5)
        print(("ok " if ok else "MISMATCH ") + entry + " n=" + str(n) +
              ("" if ok else " got %s want %s" % (got.shape, np.shape(want))))
