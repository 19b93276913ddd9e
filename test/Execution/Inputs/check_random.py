"""Runs the functions of random.mlir with tracec-run and compares them with
the NumPy model in philox_reference.py. Prints "ok ..." or "FAIL ...".

usage: check_random.py MODULE WORKDIR   (tracec-run on PATH)
"""
import math
import os
import subprocess
import sys

import numpy as np
import philox_reference as ref

module, work = sys.argv[1], sys.argv[2]


def run(name, repeat=1, tag="a"):
    """The results of the `repeat`-th call of @name in a fresh compile."""
    out = os.path.join(work, f"{name}_{tag}_{repeat}")
    proc = subprocess.run(["tracec-run", module, "--entry", name,
                           "--repeat", str(repeat), "--output-dir", out],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"FAIL {name}: {proc.stderr.strip()}")
        sys.exit(0)
    results = sorted(f for f in os.listdir(out) if f.endswith(".npy"))
    return [np.load(os.path.join(out, f)) for f in results]


def report(what, ok, detail=""):
    print(f"ok {what}" if ok else f"FAIL {what}: {detail}")


def bits(x):
    return x.view(np.uint16 if x.itemsize == 2 else
                  np.uint32 if x.itemsize == 4 else np.uint64)


cases = [  # name, run, expected, exact
    ("uniform_f32", 0, ref.uniform((3, 5), np.float32, 42, 0), True),
    ("uniform_f32", 2, ref.uniform((3, 5), np.float32, 42, 2), True),
    ("uniform_f64", 0, ref.uniform((7,), np.float64, 7, 0), True),
    ("uniform_f64", 1, ref.uniform((7,), np.float64, 7, 1), True),
    ("uniform_f16_range", 0,
     ref.uniform((4, 4), np.float16, 3, 0, -2.0, 5.0), True),
    ("normal_f32", 0, ref.normal((2, 3, 4), np.float32, 5, 0), False),
    ("normal_f32", 1, ref.normal((2, 3, 4), np.float32, 5, 1), False),
    ("normal_f64_params", 0,
     ref.normal((10,), np.float64, 9, 0, -3.0, 0.25), False),
    ("normal_f16", 0, ref.normal((6,), np.float16, 2, 0, 1.0, 2.0), False),
    ("uniform_large_seed", 0,
     ref.uniform((8,), np.float32, -6148914691236517206 & (2**64 - 1), 0),
     True),
]
for name, n, expected, exact in cases:
    got = run(name, repeat=n + 1)[0]
    if got.dtype != expected.dtype or got.shape != expected.shape:
        report(f"{name} run {n}", False, f"{got.dtype}{got.shape}")
    elif exact:
        report(f"{name} run {n}", np.array_equal(bits(got), bits(expected)),
               f"got {got.tolist()}, expected {expected.tolist()}")
    else:
        # log and cos may round differently in NumPy and libm.
        rtol = {2: 1e-3, 4: 2e-6, 8: 1e-13}[got.itemsize]
        report(f"{name} run {n}",
               np.allclose(got, expected, rtol=rtol, atol=rtol),
               f"got {got.tolist()}, expected {expected.tolist()}")

# bf16: read tracec-run's printed text, which has the digits to round-trip
# each bf16 value.
def to_bf16(x):
    """f32 -> the nearest bf16 (ties to even), as f32."""
    b = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    b = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) << 16
    return b.astype(np.uint32).view(np.float32)


proc = subprocess.run(["tracec-run", module, "--entry", "uniform_bf16"],
                      capture_output=True, text=True)
text = proc.stdout.split("\n", 1)[1].replace("[", " ").replace("]", " ")
values = to_bf16(np.array([float(v) for v in text.split()]))
x = ref.words((9,), 11, 0)[0]
expected = to_bf16(np.float32(1.0) + ref.uniform01(x, x, False) * np.float32(0.5))
expected = np.minimum(expected, np.float32(1.5 - 2.0**-7))  # bf16 below 1.5
report("uniform_bf16 run 0", np.array_equal(values, expected),
       f"got {values.tolist()}, expected {expected.tolist()}")

first, second = run("uniform_f32", tag="a")[0], run("uniform_f32", tag="b")[0]
report("fresh compiles repeat the sequence",
       np.array_equal(bits(first), bits(second)))
report("runs differ",
       not np.any(run("uniform_f32", repeat=2)[0] == first))
report("seeds differ", not np.any(run("uniform_seed_43")[0] == first))
a, b = run("two_ops")
report("two ops with different seeds differ", not np.any(a == b))
c0, c1 = run("called_twice")
report("a called function draws new numbers per call",
       np.array_equal(c0, ref.uniform((8,), np.float32, 17, 0)) and
       np.array_equal(c1, ref.uniform((8,), np.float32, 17, 1)),
       f"{c0.tolist()} {c1.tolist()}")

expected = np.zeros(5, np.float32)
for n in range(3):
    expected = expected + ref.uniform((5,), np.float32, 8, n)
got = run("loop_sum")[0]
report("each loop iteration draws a new run", np.array_equal(got, expected),
       f"got {got.tolist()}, expected {expected.tolist()}")

out = os.path.join(work, "grad")
proc = subprocess.run(["tracec-run", module, "--entry", "grad_of_masked_sum",
                       "--input", "w=[1, 2, 3, 4, 5, 6]", "--output-dir", out],
                      capture_output=True, text=True)
got = np.load(os.path.join(out, "grad_of_masked_sum_result0.npy")) \
    if proc.returncode == 0 else proc.stderr
report("the gradient through a random op is its draw",
       np.array_equal(got, ref.uniform((6,), np.float32, 6, 0)), f"{got}")

# Statistics: U(-1, 3) has mean 1, variance 16/12; N(2, 3^2). The KS
# distance of n samples exceeds 1.95/sqrt(n) with probability 0.1%.
u = run("uniform_large")[0].astype(np.float64)
ks = ref.ks_statistic(u, lambda x: np.clip((x + 1) / 4, 0, 1))
report("uniform statistics",
       u.min() >= -1 and u.max() < 3 and abs(u.mean() - 1) < 0.02 and
       abs(u.var() - 16 / 12) < 0.02 and ks < 1.95 / math.sqrt(u.size),
       f"min {u.min()} max {u.max()} mean {u.mean()} var {u.var()} ks {ks}")
z = run("normal_large")[0].ravel()
ks = ref.ks_statistic(z, lambda x: ref.normal_cdf(x, 2.0, 3.0))
report("normal statistics",
       abs(z.mean() - 2) < 0.05 and abs(z.std() - 3) < 0.05 and
       ks < 1.95 / math.sqrt(z.size),
       f"mean {z.mean()} std {z.std()} ks {ks}")
