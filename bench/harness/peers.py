#!/usr/bin/python3
"""Runs the peers of one workload of bench/run in a process of their own
(so each gets the thread count and OpenBLAS settings it is started with).

  peers.py --workload NAME --inputs DIR --outputs DIR --threads N
           [--min-time S] [--peers a,b]

Loads the inputs DIR/arg<i>.npy, times every peer (warm-up, then samples
of at least --min-time in all; each sample is the mean of a batch of calls
lasting at least a millisecond), writes each peer's results as
DIR/<peer>_result<i>.npy and prints one JSON object: per peer, the median,
min and max seconds per call; and the versions and BLAS kernel in use.
"""

import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import workloads  # noqa: E402


def blas_info():
    """Which OpenBLAS kernel runs: threadpoolctl if present, else
    openblas_get_corename() of the library loaded in this process."""
    info = {}
    try:
        from threadpoolctl import threadpool_info
        for lib in threadpool_info():
            if lib.get("internal_api") == "openblas":
                info = {"library": lib.get("filepath"),
                        "version": lib.get("version"),
                        "corename": lib.get("architecture"),
                        "threads": lib.get("num_threads"),
                        "source": "threadpoolctl"}
                break
    except ImportError:
        pass
    if not info:
        import ctypes
        for line in open("/proc/self/maps"):
            path = line.split()[-1]
            if "openblas" in path and path.endswith(".so"):
                try:
                    lib = ctypes.CDLL(path)
                    lib.openblas_get_corename.restype = ctypes.c_char_p
                    info = {"library": path,
                            "corename": lib.openblas_get_corename().decode(),
                            "source": "openblas_get_corename"}
                except (OSError, AttributeError):
                    pass
                break
    info["OPENBLAS_CORETYPE"] = os.environ.get("OPENBLAS_CORETYPE")
    info["OPENBLAS_L2_SIZE"] = os.environ.get("OPENBLAS_L2_SIZE")
    return info


def time_calls(call, min_time, warmup=2):
    for _ in range(warmup):
        call()
    # Calls per sample: enough for a millisecond, so the timer's own cost
    # does not count for tiny calls.
    start = time.perf_counter()
    call()
    once = time.perf_counter() - start
    batch = max(1, int(1e-3 / max(once, 1e-9)))
    samples, total = [], 0.0
    while len(samples) < 5 or total < min_time:
        start = time.perf_counter()
        for _ in range(batch):
            call()
        elapsed = time.perf_counter() - start
        samples.append(elapsed / batch)
        total += elapsed
        if len(samples) >= 10000:
            break
    return {"median_s": statistics.median(samples), "min_s": min(samples),
            "max_s": max(samples), "samples": len(samples), "batch": batch}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workload", required=True)
    parser.add_argument("--inputs", required=True)
    parser.add_argument("--outputs", required=True)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--min-time", type=float, default=0.5)
    parser.add_argument("--peers", default="")
    args = parser.parse_args()

    import torch
    torch.set_num_threads(args.threads)
    try:
        from threadpoolctl import threadpool_limits
        threadpool_limits(args.threads)
    except ImportError:
        pass  # OPENBLAS_NUM_THREADS, set by bench/run, does it.

    workload = workloads.by_name(args.workload)
    inputs = [np.load(os.path.join(args.inputs, "arg%d.npy" % i))
              for i in range(len(workload.inputs(np.random.default_rng(0))))]
    wanted = [p for p in args.peers.split(",") if p] or list(workload.peers)
    report = {"torch": torch.__version__, "numpy": np.__version__,
              "torch_threads": torch.get_num_threads(), "peers": {}}
    os.makedirs(args.outputs, exist_ok=True)
    for name in wanted:
        call, results = workload.peers[name](*inputs)
        report["peers"][name] = time_calls(call, args.min_time)
        for i, r in enumerate(results()):
            # np.array keeps a 0-d result 0-d (ascontiguousarray would not).
            np.save(os.path.join(args.outputs, "%s_result%d.npy" % (name, i)),
                    np.array(r, order="C"))
    report["blas"] = blas_info()
    json.dump(report, sys.stdout)
    print()


if __name__ == "__main__":
    main()
