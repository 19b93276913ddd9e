#!/usr/bin/env python3
"""A/B of the contraction micro-kernels: tracec-run --ukernels=true vs
false on bench workloads, interleaved, cold compiles (TRACEC_DISABLE_CACHE=1).
Prints, per run, the compile time (and its pipeline/optimize/codegen
split) and the median time per call, as tracec-run --benchmark reports
them.

  /usr/bin/python3 bench/ukernels_ab.py [--build build] [--rounds 3]
      [--only "MLP train step,attention fwd+bwd"]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "harness"))
import workloads  # noqa: E402

DEFAULT = ["MLP train step", "attention fwd+bwd", "CNN train step",
           "sgemm 1024", "conv2d 3x3 64ch 56x56"]


def run(tracec_run, w, inputs, ukernels, threads):
    cmd = [tracec_run, os.path.join(HERE, "workloads", w.module),
           "--entry", w.entry, "--benchmark", "--threads=%d" % threads,
           "--ukernels=%s" % ("true" if ukernels else "false"),
           "--output-dir", tempfile.mkdtemp()]
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
        for r in range(args.rounds):
            for uk in (True, False):
                c, m, _ = run(tracec_run, w, inputs, uk, args.threads)
                print("%-24s ukernels=%-5s | %s | %s" % (w.name, uk, c, m),
                      flush=True)


if __name__ == "__main__":
    main()
