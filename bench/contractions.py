#!/usr/bin/env python3
"""Times tracec's CPU contractions against NumPy (OpenBLAS), one thread.

    /usr/bin/python3 bench/contractions.py [--build build] [--rounds 5]
        [--only sgemm1024,...]

Each workload is a small module run by `tracec-run --repeat`: the time per
call is (cpu(--repeat=R+1) - cpu(--repeat=1)) / R, so compiling and
reading inputs cancel out. Times are CPU time of one thread (the machine
this was written on is shared by several jobs; wall time there measures
the other jobs). Results are checked against NumPy before a time
counts. The peer runs in its own process with OPENBLAS_NUM_THREADS=1 and
OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE unset (its native kernel), interleaved
with tracec, round by round; medians are printed with GFLOP/s and the
ratio tracec / peer (> 1: tracec is faster), and the wall time of one
--repeat=1 run (compile + inputs + one call).

Until compiled code keeps its packed operands in a planned workspace (issue
12 item 4), each call mallocs them; glibc returns large blocks to the
kernel on free, and every call then page-faults them back in, which on
this VM costs more than the arithmetic. By default tracec-run is timed
with glibc's mmap/trim thresholds raised (GLIBC_TUNABLES), which keeps
freed blocks in the heap, as a workspace would; --malloc-default times it
with glibc's defaults.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def matmul_module(b, m, n, k, ta=False, tb=False):
    batch = [b] if b else []
    a = batch + ([k, m] if ta else [m, k])
    bb = batch + ([n, k] if tb else [k, n])
    c = batch + [m, n]
    t = lambda s: "tensor<" + "x".join(map(str, s)) + "xf32>"
    attrs = [x for x, on in (("transpose_a", ta), ("transpose_b", tb)) if on]
    attr = (" {" + ", ".join(attrs) + "}") if attrs else ""
    text = (f"func.func @main(%a: {t(a)}, %b: {t(bb)}) -> {t(c)} {{\n"
            f"  %0 = trace.matmul %a, %b{attr} : ({t(a)}, {t(bb)}) -> {t(c)}\n"
            f"  return %0 : {t(c)}\n}}\n")
    return text, a, bb


def workloads():
    out = {}
    for s in (256, 1024, 2048):
        out[f"sgemm{s}"] = (0, s, s, s, False, False)
    out["sgemm1024_ta"] = (0, 1024, 1024, 1024, True, False)
    out["sgemm1024_tb"] = (0, 1024, 1024, 1024, False, True)
    out["bmm16x256"] = (16, 256, 256, 256, False, False)
    # The matmuls of an MLP 784-512-512-10 step at batch 256 (forward,
    # then the backward's x^T dy and dy w^T).
    out["mlp_fwd_784x512"] = (0, 256, 512, 784, False, False)
    out["mlp_bwd_dw_784x512"] = (0, 784, 512, 256, True, False)
    out["mlp_bwd_dx_512x784"] = (0, 256, 784, 512, False, True)
    return out


PEER = r"""
import sys, time, statistics, numpy as np
a = np.load(sys.argv[1]); b = np.load(sys.argv[2]); ta, tb = sys.argv[3] == '1', sys.argv[4] == '1'
reps = int(sys.argv[5])
A = np.swapaxes(a, -1, -2) if ta else a
B = np.swapaxes(b, -1, -2) if tb else b
for _ in range(3): A @ B
ts = []
for _ in range(reps):
    t = time.process_time(); A @ B; ts.append(time.process_time() - t)
print(statistics.median(ts))
"""


def wall(cmd, env):
    """CPU seconds (user + system) the command used: on a machine shared
    with other jobs, less noisy than its wall time, and the same for
    single-threaded work on an idle machine."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise RuntimeError(f"{cmd[0]} failed ({status})")
    return usage.ru_utime + usage.ru_stime


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--only", default="")
    p.add_argument("--malloc-default", action="store_true")
    p.add_argument("--flops-per-round", type=float, default=2e10)
    args = p.parse_args()
    ours_env = dict(os.environ)
    if not args.malloc_default:
        ours_env["GLIBC_TUNABLES"] = ("glibc.malloc.mmap_threshold=4294967296:"
                                      "glibc.malloc.trim_threshold=4294967296")
    run = os.path.join(args.build, "bin", "tracec-run")
    peer_env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    for var in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        peer_env.pop(var, None)
    rng = np.random.default_rng(0)
    tmp = tempfile.mkdtemp()
    rows = []
    for name, (b, m, n, k, ta, tb) in workloads().items():
        if args.only and name not in args.only.split(","):
            continue
        text, ashape, bshape = matmul_module(b, m, n, k, ta, tb)
        mod = os.path.join(tmp, name + ".mlir")
        open(mod, "w").write(text)
        a = rng.standard_normal(ashape, dtype=np.float32)
        bb = rng.standard_normal(bshape, dtype=np.float32)
        np.save(os.path.join(tmp, "a.npy"), a)
        np.save(os.path.join(tmp, "b.npy"), bb)
        # Results go to .npy files: printing a large one takes longer than
        # many calls.
        outdir = os.path.join(tmp, "out")
        os.makedirs(outdir, exist_ok=True)
        base = [run, mod, "--entry", "main", "--input",
                f"a=@{tmp}/a.npy", "--input", f"b=@{tmp}/b.npy",
                "--output-dir", outdir]
        subprocess.run(base, check=True, stdout=subprocess.DEVNULL)
        got = np.load(os.path.join(outdir, os.listdir(outdir)[0]))
        A = np.swapaxes(a, -1, -2) if ta else a
        B = np.swapaxes(bb, -1, -2) if tb else bb
        want = A.astype(np.float64) @ B.astype(np.float64)
        err = np.abs(got - want).max() / max(1.0, np.abs(want).max())
        if err > 1e-4:
            print(f"{name}: WRONG RESULT (max rel err {err:.2e})")
            continue
        flops = 2.0 * max(b, 1) * m * n * k
        reps = max(5, int(args.flops_per_round / flops))
        ours, theirs, compile_s = [], [], []
        for _ in range(args.rounds):
            one = wall(base + ["--repeat=1"], ours_env)
            many = wall(base + [f"--repeat={reps + 1}"], ours_env)
            ours.append((many - one) / reps)
            compile_s.append(one)
            out = subprocess.run(
                [sys.executable, "-c", PEER, f"{tmp}/a.npy", f"{tmp}/b.npy",
                 "1" if ta else "0", "1" if tb else "0", str(reps)],
                check=True, capture_output=True, text=True, env=peer_env)
            theirs.append(float(out.stdout))
        t, q = statistics.median(ours), statistics.median(theirs)
        rows.append((name, t, flops / t / 1e9, q, flops / q / 1e9, q / t,
                     statistics.median(compile_s)))
        r = rows[-1]
        print(f"{r[0]:22s} tracec {r[1]*1e3:8.3f} ms {r[2]:7.1f} GFLOP/s | "
              f"numpy {r[3]*1e3:8.3f} ms {r[4]:7.1f} GFLOP/s | "
              f"ratio {r[5]:5.2f} | run(1) {r[6]:.2f} s", flush=True)


if __name__ == "__main__":
    main()
