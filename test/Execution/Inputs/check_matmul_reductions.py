"""Runs the functions of matmul-reductions.mlir with tracec-run and compares
the results with NumPy. Prints "ok NAME" or "FAIL NAME: why".

usage: check_matmul_reductions.py MODULE WORKDIR   (tracec-run on PATH)
"""
import subprocess
import sys

import numpy as np

module, work = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(3)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


a, b = f32(3, 4), f32(4, 2)
a4, b5 = f32(2, 1, 3, 4), f32(5, 4, 2)
ai = rng.integers(-5, 5, (3, 4)).astype(np.int64)
bi = rng.integers(-5, 5, (4, 2)).astype(np.int64)
x = f32(2, 3, 4)
xi = rng.integers(-100, 100, (2, 3, 4)).astype(np.int32)
cases = {
    "matmul": ([a, b], a @ b),
    "matmul_ta": ([a.T.copy(), b], a @ b),
    "matmul_tb": ([a, b.T.copy()], a @ b),
    "matmul_batched_broadcast": ([a4, b5], np.matmul(a4, b5)),
    "matmul_i64": ([ai, bi], ai @ bi),
    "reduce_sum": ([x], x.sum((0, 2))),
    "reduce_mean_keepdims": ([x], x.mean(1, keepdims=True)),
    "reduce_max_negative_axis": ([x], x.max(-1)),
    "reduce_min_all": ([x], np.array(x.min())),
    "reduce_sum_i32": ([xi], xi.sum(1, dtype=np.int32)),
}
for name, (inputs, expected) in cases.items():
    args = []
    for i, value in enumerate(inputs):
        path = f"{work}/{name}_{i}.npy"
        np.save(path, value)
        args += ["--input", f"a{i}=@{path}"]
    run = subprocess.run(["tracec-run", module, "--entry", name, *args,
                          "--output-dir", work], capture_output=True, text=True)
    if run.returncode != 0:
        print(f"FAIL {name}: {run.stderr.strip()}")
        continue
    got = np.load(f"{work}/{name}_result0.npy")
    ok = got.shape == expected.shape and (
        np.allclose(got, expected, rtol=1e-5, atol=1e-6)
        if expected.dtype.kind == "f" else np.array_equal(got, expected))
    print(f"ok {name}" if ok else f"FAIL {name}: got {got.tolist()}, expected {expected.tolist()}")
