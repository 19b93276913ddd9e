#!/usr/bin/python3
"""One compile for every batch size from Python, against a compile per size.

The bench MLP's forward pass (784-256-10, relu, softmax; weights captured)
as a tracec.function with input_signature=[TensorSpec([None, 784])] (traced
and compiled once) and as one without a signature (traced and compiled per
batch size), called side by side, alternating, at batch 1, 7, 64 and 256.
Prints traces, compiles, compile seconds, and the median time per call of
each with the ratio dynamic/static; checks both against NumPy.

    PYTHONPATH=build/python OMP_NUM_THREADS=1 /usr/bin/python3 bench/python_dynamic_bench.py [--rounds 3]

Asserts nothing about time.
"""
import argparse
import os
import statistics
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import time_per_call  # noqa: E402

import tracec  # noqa: E402

BATCHES = (1, 7, 64, 256)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--min-time", type=float, default=0.2)
    args = parser.parse_args()

    rng = np.random.default_rng(0)
    w1 = (rng.standard_normal((784, 256)) * 0.05).astype(np.float32)
    b1 = np.zeros(256, np.float32)
    w2 = (rng.standard_normal((256, 10)) * 0.05).astype(np.float32)

    def forward(x):
        return tracec.nn.softmax(tracec.nn.relu(x @ w1 + b1) @ w2)

    dynamic = tracec.function(
        forward, input_signature=[tracec.TensorSpec([None, 784])],
        name="mlp_dynamic")
    static = tracec.function(forward, name="mlp_static")

    inputs = {n: rng.standard_normal((n, 784)).astype(np.float32)
              for n in BATCHES}
    compile_seconds = {"dynamic": 0.0, "static": 0.0}
    for n, x in inputs.items():
        h = np.maximum(x @ w1 + b1, 0) @ w2
        e = np.exp(h - h.max(axis=1, keepdims=True))
        want = e / e.sum(axis=1, keepdims=True)
        for name, f in (("dynamic", dynamic), ("static", static)):
            before = f.compile_count
            np.testing.assert_allclose(f(x), want, rtol=1e-4, atol=1e-6)
            if f.compile_count != before:
                compile_seconds[name] += f.get_concrete_function(x) \
                    .compile_seconds
    print(f"traces/compiles: dynamic {dynamic.trace_count}/"
          f"{dynamic.compile_count}, static {static.trace_count}/"
          f"{static.compile_count}; compile seconds: dynamic "
          f"{compile_seconds['dynamic']:.2f}, static "
          f"{compile_seconds['static']:.2f}")

    times = {(name, n): [] for name in ("dynamic", "static") for n in BATCHES}
    for _ in range(args.rounds):
        for n, x in inputs.items():
            for name, f in (("dynamic", dynamic), ("static", static)):
                times[name, n].append(
                    time_per_call(lambda: f(x), args.min_time, 3))
    print(f"{'batch':>5} {'dynamic us':>11} {'static us':>10} {'ratio':>6}")
    for n in BATCHES:
        d = statistics.median(times["dynamic", n]) * 1e6
        s = statistics.median(times["static", n]) * 1e6
        print(f"{n:>5} {d:>11.1f} {s:>10.1f} {d / s:>6.2f}")


if __name__ == "__main__":
    main()
