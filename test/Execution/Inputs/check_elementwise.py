"""Runs every function of elementwise.mlir with tracec-run on fixed inputs
and compares the results with NumPy. Prints "ok NAME" or "FAIL NAME: why".

usage: check_elementwise.py MODULE WORKDIR   (tracec-run must be on PATH)
"""
import math
import sys

import numpy as np
from tracec_cases import run_cases

module, work = sys.argv[1], sys.argv[2]

# Inputs inside every op's domain where it matters (log, sqrt need x > 0
# for the f32 cases below; pow uses a positive base).
xf = np.array([[0.5, 1.25, 2.0], [0.1, 3.0, 0.75]], np.float32)
xn = np.array([[-1.5, 0.0, 2.25], [0.5, -0.25, 3.0]], np.float32)
yf = np.array([1.5, -0.5, 2.0], np.float32)
xi = np.array([[-7, 0, 5], [3, -2, 9]], np.int32)
yi = np.array([2, -3, 4], np.int32)
mask = np.array([[True, False, True], [False, True, False]])
erf = np.vectorize(math.erf)

positive = {"log", "log1p", "sqrt", "rsqrt"}
unary = {
    "neg": np.negative, "abs": np.abs, "exp": np.exp, "log": np.log,
    "log1p": np.log1p, "sqrt": np.sqrt, "rsqrt": lambda x: 1 / np.sqrt(x),
    "tanh": np.tanh, "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
    "relu": lambda x: np.maximum(x, 0),
    "gelu": lambda x: 0.5 * x * (1 + erf(x / np.sqrt(2))),
    "erf": erf, "sin": np.sin, "cos": np.cos, "sign": np.sign,
    "floor": np.floor,
}
binary = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply,
    # Integer division truncates toward zero (C, TensorFlow's truncatediv).
    "div": lambda a, b: (np.trunc(a / b).astype(a.dtype)
                         if a.dtype.kind == "i" else a / b),
    # rem: C's fmod, with the sign of the dividend.
    "rem": np.fmod,
    "pow": np.power, "max": np.maximum, "min": np.minimum,
}
compare = {"eq": np.equal, "ne": np.not_equal, "lt": np.less,
           "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}

cases = {}
for name, fn in unary.items():
    x = xf if name in positive else xn
    cases[f"{name}_f32"] = ([x], fn(x.astype(np.float64)))
for name in ["neg", "abs", "relu", "sign"]:
    cases[f"{name}_i32"] = ([xi], unary[name](xi))
for name, fn in binary.items():
    base = np.abs(xn) + 0.5 if name == "pow" else xn
    cases[f"{name}_f32"] = ([base, yf], fn(base.astype(np.float64), yf.astype(np.float64)))
    exponent = np.abs(yi) if name == "pow" else yi
    cases[f"{name}_i32"] = ([xi, exponent], fn(xi, exponent))
for name, fn in compare.items():
    cases[f"{name}_f32"] = ([xn, yf], fn(xn, yf))
    cases[f"{name}_i32"] = ([xi, yi], fn(xi, yi))
# log1p keeps the digits of tiny x, where log(1 + x) would return 0.
tiny = np.array([[1e-8, -1e-7, 1e-5], [-0.5, 1e30, 0.0]], np.float32)
cases["log1p_small_f32"] = ([tiny], np.log1p(tiny.astype(np.float64)))
cases["select_f32"] = ([mask, xn, yf], np.where(mask, xn, yf))
cases["cast_f32_i32"] = ([xn], np.trunc(xn).astype(np.int32))
cases["cast_i32_f64"] = ([xi], xi.astype(np.float64))
cases["cast_i1_f32"] = ([mask], mask.astype(np.float32))
cases["cast_f32_i1"] = ([xn], xn != 0)

run_cases(module, work, cases, rtol=2e-6, atol=1e-7)
