"""Runs the functions of conv2d-backprop.mlir (or conv2d-direct.mlir) with
tracec-run and compares them with PyTorch's torch.nn.functional.conv2d and
its gradients (float64). Each function holds one trace.conv2d,
trace.conv2d_backprop_input or _filter op; its geometry is read from the op. Each runs from a module of its own (a
compile of the whole module per run would take long). Prints "ok NAME" or
"FAIL NAME: why".

usage: check_conv2d_backprop.py MODULE WORKDIR   (tracec-run on PATH)
"""
import re
import sys

import numpy as np
import torch
from tracec_cases import run_cases

module, work = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(7)
DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64}
FUNC = re.compile(
    r"(func\.func @(\w+)\(.*?\n\s*%0 = trace\.conv2d(_backprop_input|"
    r"_backprop_filter|) "
    r"%\w+, %\w+ \{(.*?)\} : \((tensor<[^>]*>), (tensor<[^>]*>)\) -> "
    r"(tensor<[^>]*>).*?\n}\n)", re.S)


def tensor_type(text):
    *dims, dtype = text[len("tensor<"):-1].split("x")
    return tuple(int(d) for d in dims), DTYPES[dtype]


def attr(attrs, name, default):
    found = re.search(name + r" = array<i64: ([^>]*)>", attrs)
    return [int(v) for v in found.group(1).split(",")] if found else default


def gradients(x, w, dy, strides, padding, dilations):
    """(dx, dw, y) of y = conv2d(x, w) for the cotangent dy; NHWC, HWCF."""
    tx = torch.from_numpy(x.astype(np.float64)).permute(0, 3, 1, 2)
    tx.requires_grad_(True)
    tw = torch.from_numpy(w.astype(np.float64)).permute(3, 2, 0, 1)
    tw.requires_grad_(True)
    top, bottom, left, right = padding
    padded = torch.nn.functional.pad(tx, (left, right, top, bottom))
    y = torch.nn.functional.conv2d(padded, tw, stride=strides,
                                   dilation=dilations)
    tdy = torch.from_numpy(dy.astype(np.float64)).permute(0, 3, 1, 2)
    assert y.shape == tdy.shape, (y.shape, tdy.shape)
    y.backward(tdy)
    return (tx.grad.permute(0, 2, 3, 1).numpy(),
            tw.grad.permute(2, 3, 1, 0).numpy(),
            y.detach().permute(0, 2, 3, 1).numpy())


cases = {}
text = {}
for func, name, kind, attrs, lhs, rhs, result in FUNC.findall(
        open(module).read()):
    text[name] = func
    strides = attr(attrs, "strides", [1, 1])
    padding = attr(attrs, "padding", [0, 0, 0, 0])
    dilations = attr(attrs, "dilations", [1, 1])
    (lhs_shape, dtype), (dy_shape, _) = tensor_type(lhs), tensor_type(rhs)
    result_shape, _ = tensor_type(result)
    if kind == "":  # the forward op: (x, w) -> y
        x = rng.standard_normal(lhs_shape).astype(dtype)
        w = rng.standard_normal(dy_shape).astype(dtype)
        y_like = np.zeros(result_shape, dtype)
        _, _, y = gradients(x, w, y_like, strides, padding, dilations)
        cases[name] = ([x, w], y)
        continue
    dy = rng.standard_normal(dy_shape).astype(dtype)
    if kind == "_backprop_input":
        w = rng.standard_normal(lhs_shape).astype(dtype)
        x = np.zeros(result_shape, dtype)
        dx, _, _ = gradients(x, w, dy, strides, padding, dilations)
        cases[name] = ([w, dy], dx)
    else:
        x = rng.standard_normal(lhs_shape).astype(dtype)
        w = np.zeros(result_shape, dtype)
        _, dw, _ = gradients(x, w, dy, strides, padding, dilations)
        cases[name] = ([x, dy], dw)

# f16 results are rounded to 11 bits (and accumulated in f16).
tolerances = {np.float16: 3e-2, np.float32: 1e-4, np.float64: 1e-10}
for name, case in cases.items():
    path = f"{work}/{name}.mlir"
    with open(path, "w") as f:
        f.write(text[name])
    tol = tolerances[case[0][0].dtype.type]
    run_cases(path, work, {name: case}, rtol=tol, atol=tol)
