#!/usr/bin/python3
"""Elementwise chains, softmax and layer norm: tracec against PyTorch eager
and NumPy, single-threaded on both sides, interleaved in one run.

    /usr/bin/python3 bench/math_peers.py [--build build] [--rounds 3]
        [--json out.json] [--workloads gelu_tanh,softmax,...]

Each round times every workload with tracec (build/bin/tracec_bench_math on
bench/math.mlir: JIT, preallocated outputs, median per call) and then with
its peers (bench/timing.py), so load changes hit both sides alike; a
tracec time counts only if its result agrees with PyTorch's. Prints a
table of medians over the rounds and the ratios, and writes them as JSON
for the bench command. Nothing is asserted.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import time_per_call  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULE = os.path.join(ROOT, "bench", "math.mlir")


def torch_gelu_tanh(x):
    return 0.5 * x * (1 + torch.tanh(0.7978845608 * (x + 0.044715 * x**3)))


def workloads():
    rng = np.random.RandomState(0)
    x16m = (rng.randn(16 * 1024 * 1024) * 3).astype(np.float32)
    x2d = (rng.randn(4096, 1024) * 3).astype(np.float32)
    gamma = rng.randn(1024).astype(np.float32)
    beta = rng.randn(1024).astype(np.float32)
    t16m, t2d = torch.from_numpy(x16m), torch.from_numpy(x2d)
    tg, tb = torch.from_numpy(gamma), torch.from_numpy(beta)
    out16m = np.empty_like(x16m)
    return {
        "gelu_tanh": ([x16m], {
            "torch eager": lambda: torch_gelu_tanh(t16m),
            "np.tanh alone": lambda: np.tanh(x16m, out=out16m),
            "copy 64 MB": lambda: np.copyto(out16m, x16m),
        }, lambda: torch_gelu_tanh(t16m.double()).numpy()),
        "copy": ([x16m], {"copy 64 MB": lambda: np.copyto(out16m, x16m)},
                 lambda: x16m),
        "softmax": ([x2d], {"torch": lambda: torch.softmax(t2d, -1)},
                    lambda: torch.softmax(t2d.double(), -1).numpy()),
        "log_softmax": ([x2d], {"torch": lambda: torch.log_softmax(t2d, -1)},
                        lambda: torch.log_softmax(t2d.double(), -1).numpy()),
        "layer_norm": ([x2d, gamma, beta], {
            "torch": lambda: torch.nn.functional.layer_norm(
                t2d, (1024,), tg, tb, 1e-5)
        }, lambda: torch.nn.functional.layer_norm(
            t2d.double(), (1024,), tg.double(), tb.double(), 1e-5).numpy()),
    }


def run_tracec(bench, entry, inputs, tmp):
    paths = []
    for i, array in enumerate(inputs):
        path = os.path.join(tmp, "%s_in%d.npy" % (entry, i))
        if not os.path.exists(path):
            np.save(path, array)
        paths.append(path)
    out = os.path.join(tmp, entry)
    line = subprocess.run(
        [bench, MODULE, entry, *paths, "--out", out, "--repeat", "5",
         "--min-time", "0.1"],
        check=True, capture_output=True, text=True).stdout
    return json.loads(line)["median_s"], np.load(os.path.join(out, "result0.npy"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json")
    parser.add_argument("--workloads")
    args = parser.parse_args()
    torch.set_num_threads(1)
    bench = os.path.join(args.build, "bin", "tracec_bench_math")
    if not os.path.exists(bench):
        sys.exit("math_peers.py: %s not found: build tracec_bench_math" % bench)

    cases = workloads()
    if args.workloads:
        cases = {k: v for k, v in cases.items() if k in args.workloads.split(",")}
    times = {name: {"tracec": []} for name in cases}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.rounds):
            for name, (inputs, peers, reference) in cases.items():
                seconds, result = run_tracec(bench, name, inputs, tmp)
                expected = reference()
                if not np.allclose(result, expected, rtol=1e-4, atol=1e-5):
                    sys.exit("math_peers.py: %s: tracec's result differs from "
                             "PyTorch's by %g" % (name, np.abs(result - expected).max()))
                times[name]["tracec"].append(seconds)
                for peer, fn in peers.items():
                    times[name].setdefault(peer, []).append(
                        time_per_call(fn, 0.1, 5))

    report = {"torch": torch.__version__, "threads": 1, "workloads": {}}
    print("single thread, medians over %d rounds (torch %s)" % (args.rounds, torch.__version__))
    print("%-12s %-14s %10s %12s" % ("workload", "peer", "peer ms", "peer/tracec"))
    for name, by in times.items():
        tracec = statistics.median(by["tracec"])
        entry = {"tracec_s": tracec, "peers": {}}
        print("%-12s %-14s %10.3f" % (name, "tracec", tracec * 1e3))
        for peer, values in by.items():
            if peer == "tracec":
                continue
            t = statistics.median(values)
            entry["peers"][peer] = t
            print("%-12s %-14s %10.3f %12.2f" % ("", peer, t * 1e3, t / tracec))
        report["workloads"][name] = entry
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)


if __name__ == "__main__":
    main()
