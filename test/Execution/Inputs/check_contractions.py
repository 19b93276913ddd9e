"""Runs the functions of contractions.mlir with tracec-run and compares the
results with NumPy (float64 references). Prints "ok NAME" or "FAIL NAME".

usage: check_contractions.py MODULE WORKDIR   (tracec-run on PATH)
"""
import sys

import numpy as np
from tracec_cases import run_cases

module, work = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(12)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def mm(a, b):
    return np.matmul(a.astype(np.float64), b.astype(np.float64))


def conv(x, w, strides=(1, 1), padding=(0, 0, 0, 0), dilations=(1, 1)):
    """NHWC x HWCF correlation, an explicit loop over the window."""
    x = np.pad(x.astype(np.float64),
               ((0, 0), padding[0:2], padding[2:4], (0, 0)))
    kh, kw, _, f = w.shape
    sh, sw = strides
    dh, dw = dilations
    oh = (x.shape[1] - dh * (kh - 1) - 1) // sh + 1
    ow = (x.shape[2] - dw * (kw - 1) - 1) // sw + 1
    y = np.zeros((x.shape[0], oh, ow, f))
    for i in range(kh):
        for j in range(kw):
            patch = x[:, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                      j * dw:j * dw + sw * (ow - 1) + 1:sw, :]
            y += patch @ w[i, j].astype(np.float64)
    return y


a, b = f32(37, 29), f32(29, 41)
big_a, big_b = f32(300, 300), f32(300, 290)
ba, bb = f32(3, 37, 29), f32(3, 29, 41)
da = rng.standard_normal((19, 23))
db = rng.standard_normal((23, 45))
x, w, w2 = f32(2, 9, 11, 5), f32(3, 3, 5, 7), f32(3, 2, 5, 33)
cases = {
    "mm_odd": ([a, b], mm(a, b)),
    "mm_ta_tb": ([a.T.copy(), b.T.copy()], mm(a, b)),
    "mm_1x1": ([a[:1, :1].copy(), b[:1, :1].copy()], mm(a[:1, :1], b[:1, :1])),
    "mm_row_col": ([f32(1, 67), f32(67, 1)], None),
    "mm_blocks": ([big_a, big_b], mm(big_a, big_b)),
    "bmm_tb": ([ba, np.swapaxes(bb, 1, 2).copy()], mm(ba, bb)),
    "mm_f64": ([da, db], da @ db),
    "conv": ([x, w], conv(x, w)),
    "conv_strided": ([x, w2], conv(x, w2, (2, 2), (1, 0, 0, 1), (1, 2))),
}
r, c = cases["mm_row_col"][0]
cases["mm_row_col"] = ([r, c], mm(r, c))
run_cases(module, work, cases, rtol=1e-4, atol=1e-4)
