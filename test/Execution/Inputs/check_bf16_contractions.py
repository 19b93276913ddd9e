"""Runs the functions of bf16-contractions.mlir with tracec-run and compares
the results with NumPy. Prints "ok NAME" or "FAIL NAME".

Each function casts its f32 inputs to bf16, multiplies them and returns the
bf16 product as f32 (exactly). Small integer inputs have exact f32 sums, so
the result must be their bf16 rounding bit for bit; random inputs must be
within half a bf16 ulp of the exact sum, plus slack for the f32 sums (in
another order, they may round the other way near a tie).

usage: check_bf16_contractions.py MODULE WORKDIR   (tracec-run on PATH)
"""
import sys

import numpy as np
from tracec_cases import run_cases

module, work = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(16)


def bf16(x):
    """x rounded to the nearest bf16 (ties to even), as f32."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return bits.astype(np.uint32).view(np.float32)


def ints(*shape):
    return rng.integers(-4, 5, shape).astype(np.float32)


def floats(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def mm(a, b):
    """The bf16 product: bf16 operands, exact sums, rounded once."""
    return bf16(np.matmul(bf16(a).astype(np.float64),
                          bf16(b).astype(np.float64)))


a, b = ints(37, 67), ints(67, 45)
ba, bb = ints(3, 37, 29), ints(3, 29, 41)
exact = {
    "mm_odd": ([a, b], mm(a, b)),
    "mm_ta": ([a.T.copy(), b], mm(a, b)),
    "bmm_tb": ([ba, np.swapaxes(bb, 1, 2).copy()], mm(ba, bb)),
    "mm_1x1": ([a[:1, :1].copy(), b[:1, :1].copy()], mm(a[:1, :1], b[:1, :1])),
    # Inputs that bf16 does not hold: rounded to nearest even on the way in.
    "mm_bf16_io": ([a * (1 + 2.0**-10), b * (1 - 2.0**-10)], mm(a, b)),
    # 67 sums of integers up to 4: exact in f32, not in bf16 (beyond 256).
    "ones_mm": ([b * 4], mm(np.ones((37, 67), np.float32), b * 4)),
}
run_cases(module, work, exact, rtol=0, atol=0)

big_a, big_b = floats(300, 1100), floats(1100, 290)
exact_sums = np.matmul(bf16(big_a).astype(np.float64),
                       bf16(big_b).astype(np.float64))
run_cases(module, work, {"mm_blocks": ([big_a, big_b], exact_sums)},
          rtol=2.0**-8, atol=1e-4)
