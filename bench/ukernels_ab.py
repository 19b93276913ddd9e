#!/usr/bin/env python3
"""A/B of the micro-kernel routes on bench workloads, interleaved, cold
compiles (TRACEC_DISABLE_CACHE=1): contractions and relayouts through the
micro-kernels (tracec-run --ukernels=true), relayouts only (the default)
and everything generated (--ukernel-relayouts=false). Prints, per run, the
compile time (and its pipeline/optimize/codegen split) and the median
time per call, as tracec-run --benchmark reports them, then per workload
and route the medians over the rounds.

  /usr/bin/python3 bench/ukernels_ab.py [--build build] [--rounds 3]
      [--threads 1] [--only "MLP train step,attention fwd+bwd"]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "harness"))
import workloads  # noqa: E402

DEFAULT = ["MLP train step", "attention fwd+bwd", "CNN train step",
           "ResNet block train step", "transformer layer train step",
           "sgemm 1024", "conv2d 3x3 64ch 56x56"]


ROUTES = {
    "ukernels": ["--ukernels=true"],
    "relayouts": ["--ukernels=false"],
    "generated": ["--ukernels=false", "--ukernel-relayouts=false"],
}


def seconds(line):
    """The first time in `line` (`compile  1.2 s`, `median   350 us`)."""
    m = re.search(r"([\d.]+) (s|ms|us)\b", line)
    return float(m.group(1)) * {"s": 1, "ms": 1e-3, "us": 1e-6}[m.group(2)]


def run(tracec_run, w, inputs, flags, threads):
    cmd = [tracec_run, os.path.join(HERE, "workloads", w.module),
           "--entry", w.entry, "--benchmark", "--threads=%d" % threads,
           "--output-dir", tempfile.mkdtemp()] + flags
    cmd += ["--input=a%d=@%s" % (i, p) for i, p in enumerate(inputs)]
    env = dict(os.environ, TRACEC_DISABLE_CACHE="1")
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if out.returncode:
        raise RuntimeError(out.stderr)
    text = out.stdout + out.stderr
    compile_line = next(l for l in text.splitlines() if "compile" in l)
    per_call = next(l for l in text.splitlines() if "median" in l)
    return compile_line.strip(), per_call.strip(), text


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--only", default=",".join(DEFAULT))
    args = parser.parse_args()
    tracec_run = os.path.join(args.build, "bin", "tracec-run")
    names = args.only.split(",")
    tmp = tempfile.mkdtemp()
    for w in workloads.WORKLOADS:
        if w.name not in names:
            continue
        inputs = []
        for i, a in enumerate(w.inputs(np.random.default_rng(0))):
            p = os.path.join(tmp, "%s%d.npy" % (re.sub(r"\W+", "_", w.name), i))
            np.save(p, a)
            inputs.append(p)
        times = {route: ([], []) for route in ROUTES}
        for r in range(args.rounds):
            for route, flags in ROUTES.items():
                c, m, _ = run(tracec_run, w, inputs, flags, args.threads)
                times[route][0].append(seconds(c))
                times[route][1].append(seconds(m))
                print("%-24s %-9s | %s | %s" % (w.name, route, c, m),
                      flush=True)
        for route, (compiles, calls) in times.items():
            print("median %-24s %-9s | compile %7.0f ms | per call %8.3f ms"
                  % (w.name, route, 1e3 * statistics.median(compiles),
                     1e3 * statistics.median(calls)), flush=True)


if __name__ == "__main__":
    main()
