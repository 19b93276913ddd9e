"""Contractions through the micro-kernels (tracec-run --ukernels=true),
through generated contractions with the relayout kernel (the default, at
1 and 2 threads) and through generated code only
(--ukernel-relayouts=false) against NumPy in float64: plain, transposed,
batched, remainders on every dim, relayouts split into tasks, f64
(generated either way), a conv2d (im2col). Prints `ok <case> <mode>` or
MISMATCH lines.

  ukernels_check.py <workdir>
"""

import os
import subprocess
import sys

import numpy as np


def ty(shape, dtype):
    return "tensor<%sx%s>" % ("x".join(map(str, shape)), dtype)


def matmul_case(name, a_shape, b_shape, ta=False, tb=False, dtype="f32"):
    np_dtype = np.float32 if dtype == "f32" else np.float64
    rng = np.random.default_rng(len(name))
    a = rng.standard_normal(a_shape).astype(np_dtype)
    b = rng.standard_normal(b_shape).astype(np_dtype)
    A = np.swapaxes(a, -1, -2) if ta else a
    B = np.swapaxes(b, -1, -2) if tb else b
    ref = A.astype(np.float64) @ B.astype(np.float64)
    attrs = [n for n, on in (("transpose_a", ta), ("transpose_b", tb)) if on]
    attr = (" {%s}" % ", ".join(attrs)) if attrs else ""
    module = """func.func @f(%%a: %s, %%b: %s) -> %s {
  %%c = trace.matmul %%a, %%b%s : (%s, %s) -> %s
  return %%c : %s
}""" % (ty(a.shape, dtype), ty(b.shape, dtype), ty(ref.shape, dtype), attr,
        ty(a.shape, dtype), ty(b.shape, dtype), ty(ref.shape, dtype),
        ty(ref.shape, dtype))
    return module, [a, b], ref


def conv_case(name):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 9, 10, 5)).astype(np.float32)
    w = rng.standard_normal((3, 3, 5, 19)).astype(np.float32)
    ref = np.zeros((2, 7, 8, 19))
    for kh in range(3):
        for kw in range(3):
            ref += np.einsum("nhwc,cf->nhwf",
                             x[:, kh:kh + 7, kw:kw + 8, :].astype(np.float64),
                             w[kh, kw].astype(np.float64))
    module = """func.func @f(%%x: %s, %%w: %s) -> %s {
  %%y = trace.conv2d %%x, %%w : (%s, %s) -> %s
  return %%y : %s
}""" % (ty(x.shape, "f32"), ty(w.shape, "f32"), ty(ref.shape, "f32"),
        ty(x.shape, "f32"), ty(w.shape, "f32"), ty(ref.shape, "f32"),
        ty(ref.shape, "f32"))
    return module, [x, w], ref


CASES = {
    "plain": lambda n: matmul_case(n, (100, 70), (70, 90)),
    "big_k": lambda n: matmul_case(n, (37, 600), (600, 65)),
    "transpose_a": lambda n: matmul_case(n, (48, 64), (48, 80), ta=True),
    "transpose_b": lambda n: matmul_case(n, (64, 48), (81, 48), tb=True),
    "batched": lambda n: matmul_case(n, (3, 129, 40), (3, 40, 33)),
    # An MLP's last weight gradient: at 2 threads its tasks zero their
    # accumulators and call the micro-kernel in one parallel body.
    "weight_gradient": lambda n: matmul_case(n, (256, 512), (256, 10),
                                             ta=True),
    # Packs and the unpack of 32768 elements or more: relayouts in tasks
    # (38 row tiles of 8 in 2 tasks of 19).
    "tasks": lambda n: matmul_case(n, (300, 260), (260, 200)),
    "tasks_batched": lambda n: matmul_case(n, (4, 130, 72), (4, 150, 72),
                                           tb=True),
    "f64": lambda n: matmul_case(n, (30, 40), (40, 50), dtype="f64"),
    "conv2d": conv_case,
}


MODES = {
    "true": ["--threads=1", "--ukernels=true"],
    "true-2-threads": ["--threads=2", "--ukernels=true"],
    "relayouts": ["--threads=1"],
    "relayouts-2-threads": ["--threads=2"],
    "false": ["--threads=1", "--ukernel-relayouts=false"],
}


def main():
    work = sys.argv[1]
    for name, make in CASES.items():
        module, inputs, ref = make(name)
        d = os.path.join(work, name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "m.mlir"), "w") as f:
            f.write(module)
        args = []
        for i, x in enumerate(inputs):
            np.save(os.path.join(d, "in%d.npy" % i), x)
            args.append("--input=a%d=@%s" % (i, os.path.join(d, "in%d.npy" % i)))
        for mode, flags in MODES.items():
            out = os.path.join(d, "out_" + mode)
            proc = subprocess.run(
                ["tracec-run", os.path.join(d, "m.mlir"), "--entry=f",
                 "--output-dir=" + out] + flags + args,
                capture_output=True, text=True)
            if proc.returncode:
                print("MISMATCH %s %s: tracec-run failed:\n%s"
                      % (name, mode, proc.stderr))
                continue
            got = np.load(os.path.join(out, "f_result0.npy"))
            tol = 1e-4 if got.dtype == np.float32 else 1e-10
            err = np.abs(got - ref).max() / (1 + np.abs(ref).max())
            if got.shape != ref.shape or not err < tol:
                print("MISMATCH %s %s: relative error %g" % (name, mode, err))
            else:
                print("ok %s %s" % (name, mode))


if __name__ == "__main__":
    main()
