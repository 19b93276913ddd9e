#!/usr/bin/python3
"""NumPy and PyTorch (CPU) peers of bench/random_bench.cpp: 2^20 f32
uniform and normal numbers, into preallocated outputs where the API allows.
NumPy: Generator(Philox) (Philox4x64-10; normals by the ziggurat method).
PyTorch: torch.rand/torch.randn (mt19937) on one thread.
Prints one JSON object: median seconds per call of each.
"""
import json
import statistics
import time

import numpy as np
import torch

N = 1 << 20


def median_time(fn, repeats=7, number=20):
    fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return statistics.median(times)


torch.set_num_threads(1)
gen = np.random.Generator(np.random.Philox(1))
out = np.empty(N, np.float32)
tout = torch.empty(N)
print(json.dumps({
    "numpy_uniform_s": median_time(lambda: gen.random(dtype=np.float32, out=out)),
    "numpy_normal_s": median_time(
        lambda: gen.standard_normal(dtype=np.float32, out=out)),
    "torch_uniform_s": median_time(lambda: torch.rand(N, out=tout)),
    "torch_normal_s": median_time(lambda: torch.randn(N, out=tout)),
    "numpy": np.__version__, "torch": torch.__version__,
}))
