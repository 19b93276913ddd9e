"""Inputs and the NumPy reference for numpy-reference.mlir.

usage: dense_case.py make DIR      writes x.npy, w.npy, b.npy, expected.npy
       dense_case.py check GOT.npy EXPECTED.npy
"""
import sys

import numpy as np


def make(directory):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((8, 5)).astype(np.float32)
    w = rng.standard_normal((5, 3)).astype(np.float32)
    b = rng.standard_normal((3,)).astype(np.float32)
    y = np.maximum(x @ w + b, 0).astype(np.float32)
    for name, value in [("x", x), ("w", w), ("b", b), ("expected", y)]:
        np.save(f"{directory}/{name}.npy", value)


def check(got_path, expected_path):
    got, expected = np.load(got_path), np.load(expected_path)
    if got.dtype != expected.dtype or got.shape != expected.shape:
        sys.exit(f"mismatch: got {got.dtype}{got.shape}, expected {expected.dtype}{expected.shape}")
    if not np.allclose(got, expected, rtol=1e-5, atol=1e-6):
        sys.exit(f"values differ: max abs error {np.abs(got - expected).max()}")
    print("MATCHES NUMPY")


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    else:
        check(sys.argv[2], sys.argv[3])
