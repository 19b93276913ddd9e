#!/usr/bin/env python3
"""Where a bench workload's time goes at a thread count: parallel regions
forked per call, the share of cycles in libomp (workers waiting at joins
and for the next region), in compiled kernels and elsewhere, and the
kernels that take most.

  /usr/bin/python3 bench/profile_parallel.py "CNN train step" --threads 2 \
      [--calls 300] [--adaptive-parallel 0]

Needs `perf` and root (a uprobe on libomp's __kmpc_fork_call counts the
forks); the JIT describes its kernels to perf with TRACEC_PERF_JIT=1.
A profile, not a benchmark: run it on a quiet machine all the same."""
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

LIBOMP = "/usr/lib/llvm-22/lib/libomp.so.5"


def run(cmd, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if proc.returncode != 0:
        sys.exit("%s failed:\n%s" % (" ".join(cmd), proc.stderr))
    return proc


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("workload")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--calls", type=int, default=300)
    p.add_argument("--adaptive-parallel", default="1")
    p.add_argument("--build-dir", default=os.path.join(HERE, "..", "build"))
    args = p.parse_args()
    w = next((w for w in workloads.WORKLOADS if w.name == args.workload),
             None)
    if w is None:
        sys.exit("no workload %r; one of: %s" % (
            args.workload, ", ".join(x.name for x in workloads.WORKLOADS)))
    tmp = tempfile.mkdtemp(prefix="tracec-profile-")
    cmd = [os.path.join(args.build_dir, "bin", "tracec-run"),
           os.path.join(HERE, "workloads", w.module), "--entry", w.entry,
           "--threads", str(args.threads),
           "--adaptive-parallel=%s" % args.adaptive_parallel]
    # Results go to files: printed, their formatting took a third of a
    # short workload's cycles, counted as libc.
    cmd += ["--output-dir", tmp]
    for i, a in enumerate(w.inputs(np.random.default_rng(0))):
        path = os.path.join(tmp, "arg%d.npy" % i)
        np.save(path, a)
        cmd.append("--input=a%d=@%s" % (i, path))
    # Compile once first (into the compile cache), so that the profile
    # holds calls, not compiling.
    run(cmd + ["--benchmark=1"])
    cmd += ["--benchmark=%d" % args.calls, "--benchmark-warmup=0"]

    run(["perf", "probe", "-q", "-x", LIBOMP, "--add", "__kmpc_fork_call"])
    try:
        stat = run(["perf", "stat", "-x,", "-e",
                    "probe_libomp:__kmpc_fork_call"] + cmd)
    finally:
        run(["perf", "probe", "-q", "--del", "probe_libomp:*"])
    forks = int(next(line for line in stat.stderr.splitlines()
                     if "__kmpc_fork_call" in line).split(",")[0])
    median = re.search(r"median\s+(.*)", stat.stdout).group(1)

    data, injected = os.path.join(tmp, "perf.data"), os.path.join(
        tmp, "perf.jit.data")
    env = dict(os.environ, TRACEC_PERF_JIT="1", JITDUMPDIR=tmp)
    run(["perf", "record", "-k", "1", "-q", "-o", data] + cmd, env=env)
    run(["perf", "inject", "--jit", "-i", data, "-o", injected])
    report = run(["perf", "report", "-i", injected, "--no-children",
                  "--sort", "dso,sym", "-n", "--stdio"]).stdout
    shares, kernels, total = {}, {}, 0
    for line in report.splitlines():
        m = re.match(r"\s*[\d.]+%\s+(\d+)\s+(\S+)\s+\[.\]\s+(.*)", line)
        if not m:
            continue
        n, dso, sym = int(m.group(1)), m.group(2), m.group(3).strip()
        total += n
        if "libomp" in dso:
            group = "libomp"
        elif dso.startswith("jitted-") or dso.startswith("[JIT]"):
            group = "compiled code"
            name = re.sub(r"\.\.omp_par.*", "", sym)
            kernels[name] = kernels.get(name, 0) + n
        elif "kernel" in dso:
            group = "kernel"
        elif "libc" in dso:
            group = "libc"
        else:
            group = "other"
        shares[group] = shares.get(group, 0) + n
    print("%s, %d threads, adaptive %s: median %s a call, %.1f forks a call"
          % (w.name, args.threads, args.adaptive_parallel, median,
             forks / args.calls))
    for group, n in sorted(shares.items(), key=lambda kv: -kv[1]):
        print("  %-24s %5.1f%% of cycles" % (group, 100.0 * n / total))
    print("  top kernels:")
    for name, n in sorted(kernels.items(), key=lambda kv: -kv[1])[:8]:
        print("    %-40s %5.1f%%" % (name, 100.0 * n / total))


if __name__ == "__main__":
    main()
