"""Runs the functions of matmul-reductions.mlir with tracec-run and compares
the results with NumPy. Prints "ok NAME" or "FAIL NAME: why".

usage: check_matmul_reductions.py MODULE WORKDIR   (tracec-run on PATH)
"""
import sys

import numpy as np
from tracec_cases import run_cases

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
xs = rng.integers(-9, 9, (2, 3, 4)).astype(np.int32)
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
    "reduce_prod_keepdims": ([x], x.prod((1, 2), keepdims=True)),
    "reduce_prod_i32": ([xs], xs.prod(1, dtype=np.int32)),
}
run_cases(module, work, cases, rtol=1e-5, atol=1e-6)
