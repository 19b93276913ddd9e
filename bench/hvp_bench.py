#!/usr/bin/python3
"""Hessian-vector products of an MLP loss, forward-over-reverse
(tracec.hvp: the jvp of the gradient) against reverse-over-reverse (the
gradient of <gradient, v>), both compiled by tracec, side by side.

The loss: mean((tanh(x W1 + b1) W2 + b2 - y)^2) with x of 256 x 128, W1
128 x 512, W2 512 x 64: 98,880 parameters, batch 256. Prints the median
time per call of each, their ratio, and the matmuls each compiled
function runs (from its IR after trace-autodiff: the passes over the
loss each needs); checks that both give the same product. Asserts nothing
about time.

    PYTHONPATH=build/python /usr/bin/python3 bench/hvp_bench.py [--repeats 7]
"""
import argparse
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import time_per_call  # noqa: E402

import tracec  # noqa: E402
import tracec.numpy as tnp  # noqa: E402

BATCH, IN, HIDDEN, OUT = 256, 128, 512, 64


def loss(w1, b1, w2, b2, x, y):
    h = tnp.tanh(tnp.matmul(x, w1) + b1)
    return tnp.mean((tnp.matmul(h, w2) + b2 - y) ** 2)


@tracec.function
def hvp_forward_over_reverse(w1, b1, w2, b2, v1, vb1, v2, vb2, x, y):
    return tracec.hvp(lambda *p: loss(*p, x, y), (w1, b1, w2, b2),
                      (v1, vb1, v2, vb2))


@tracec.function
def hvp_reverse_over_reverse(w1, b1, w2, b2, v1, vb1, v2, vb2, x, y):
    vs = (v1, vb1, v2, vb2)

    def directional(*p):
        g = tracec.grad(lambda *q: loss(*q, x, y), argnums=(0, 1, 2, 3))(*p)
        return sum(tnp.sum(gi * vi) for gi, vi in zip(g, vs))
    return tracec.grad(directional, argnums=(0, 1, 2, 3))(w1, b1, w2, b2)


def matmuls(function, args):
    """trace.matmul ops (and conv-free contractions) in the compiled module
    after trace-autodiff, excluding the plain loss (__inference) copies."""
    ir = function.get_concrete_function(*args).ir(after_autodiff=True)
    return len(re.findall(r"trace\.matmul", ir))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--min-time", type=float, default=0.5)
    options = parser.parse_args()
    rng = np.random.default_rng(0)
    f32 = np.float32
    params = [rng.standard_normal((IN, HIDDEN)).astype(f32) * 0.1,
              np.zeros(HIDDEN, f32),
              rng.standard_normal((HIDDEN, OUT)).astype(f32) * 0.1,
              np.zeros(OUT, f32)]
    vs = [rng.standard_normal(p.shape).astype(f32) for p in params]
    x = rng.standard_normal((BATCH, IN)).astype(f32)
    y = rng.standard_normal((BATCH, OUT)).astype(f32)
    args = (*params, *vs, x, y)
    count = sum(p.size for p in params)

    fr = hvp_forward_over_reverse(*args)
    rr = hvp_reverse_over_reverse(*args)
    worst = max(float(np.max(np.abs(a - b)) / (np.max(np.abs(b)) + 1e-30))
                for a, b in zip(fr, rr))

    t_fr = time_per_call(lambda: hvp_forward_over_reverse(*args),
                         options.min_time, options.repeats)
    t_rr = time_per_call(lambda: hvp_reverse_over_reverse(*args),
                         options.min_time, options.repeats)
    print(f"MLP loss, {count} parameters, batch {BATCH} (f32), load "
          f"{os.getloadavg()[0]:.2f}")
    print(f"  forward-over-reverse (tracec.hvp):  {t_fr * 1e3:8.3f} ms  "
          f"{matmuls(hvp_forward_over_reverse, args)} matmuls")
    print(f"  reverse-over-reverse (grad of g.v): {t_rr * 1e3:8.3f} ms  "
          f"{matmuls(hvp_reverse_over_reverse, args)} matmuls")
    print(f"  ratio reverse-over-reverse / forward-over-reverse: "
          f"{t_rr / t_fr:.2f}")
    print(f"  max relative difference of the products: {worst:.2e}")


if __name__ == "__main__":
    main()
