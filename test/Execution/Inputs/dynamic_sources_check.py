"""Inputs for, and NumPy checks of, dynamic-sources.test.

  dynamic_sources_check.py inputs DIR N   writes x.npy (N x 4) and v.npy
  dynamic_sources_check.py check DIR N    prints "ok ..." or "MISMATCH ..."

fill and iota are exact, and so is fill's gradient; random_uniform/random_normal `like` x at batch N
equal the static ops of shape N x 4 and the same seeds (bit for bit), and
match the independent Philox model (philox_reference.py) of run 0 (each
tracec-run is a fresh process).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import philox_reference as ref  # noqa: E402


def report(ok, what):
    print(("ok " if ok else "MISMATCH ") + what)


def main():
    mode, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if mode == "inputs":
        rng = np.random.default_rng(n)
        np.save(os.path.join(out, "x.npy"),
                rng.standard_normal((n, 4)).astype(np.float32))
        np.save(os.path.join(out, "v.npy"), np.array(2.5, np.float32))
        return
    load = lambda name: np.load(os.path.join(out, name + ".npy"))
    x = load("x")
    fill, iota0, iota1 = (load(f"sources_result{i}") for i in range(3))
    report(fill.dtype == np.float32 and fill.shape == (n, 4)
           and np.array_equal(fill, np.full((n, 4), 2.5, np.float32)),
           f"fill like {n}")
    rows, cols = np.indices((n, 4))
    report(iota0.dtype == np.int32 and np.array_equal(iota0, rows),
           f"iota like axis 0 {n}")
    report(iota1.dtype == np.float32 and np.array_equal(iota1, cols),
           f"iota like axis 1 {n}")

    y, u, z = (load(f"dropout_result{i}") for i in range(3))
    su, sz = (load(f"static{n}_result{i}") for i in range(2))
    report(u.shape == (n, 4) and np.array_equal(u.view(np.uint32),
                                                su.view(np.uint32)),
           f"uniform like {n} is the static op's draw")
    report(np.array_equal(u, ref.uniform((n, 4), np.float32, 11, 0, -1.0, 3.0)),
           f"uniform like {n} matches the Philox model")
    report(bool(np.all((u >= -1.0) & (u < 3.0))), f"uniform like {n} in [low, high)")
    report(np.array_equal(y, x * (u > 0.5).astype(np.float32)),
           f"dropout like {n}")
    report(z.dtype == np.float64 and np.array_equal(z, sz),
           f"normal like {n} is the static op's draw")
    report(np.allclose(z, ref.normal((n, 4), np.float64, 5, 0), rtol=1e-12,
                       atol=1e-12), f"normal like {n} matches the Philox model")

    dx, dv = (load(f"dscaled_result{i}") for i in range(2))
    report(np.array_equal(dx, np.full((n, 4), 2.5, np.float32)),
           f"fill like {n} gradient wrt x")
    report(np.allclose(dv, x.sum(dtype=np.float64), rtol=1e-5, atol=1e-5),
           f"fill like {n} gradient wrt the scalar is sum(x)")


if __name__ == "__main__":
    main()
