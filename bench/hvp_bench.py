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

    PYTHONPATH=build/python /usr/bin/python3 bench/hvp_bench.py [--repeats 7] [--no-timing]
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
    """The trace.matmul ops one call runs (its IR after trace-autodiff,
    following calls from the entry), and the generated derivative functions
    it calls (its sweeps over the loss)."""
    ir = function.get_concrete_function(*args).ir(after_autodiff=True)
    bodies, current = {}, None
    for line in ir.splitlines():
        header = re.match(r"\s*func\.func (?:private )?@([\w$.]+)\(", line)
        if header:
            current = bodies[header.group(1)] = []
        elif current is not None:
            current += [("call", c) for c in re.findall(r"call @([\w$.]+)\(",
                                                         line)]
            current += [("matmul", None)] * line.count("trace.matmul")
    sweeps = []

    def count(name):
        total = 0
        for kind, callee in bodies.get(name, []):
            if kind == "matmul":
                total += 1
                continue
            if callee.startswith("__jvp___") or callee.startswith(
                    ("__forward___", "__backward___")):
                sweeps.append(callee.split("_hvp")[0])
            total += count(callee)
        return total
    entry = next(name for name in bodies if re.fullmatch(r"hvp_\w+_\d+", name))
    return count(entry), sweeps


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--min-time", type=float, default=0.5)
    parser.add_argument("--no-timing", action="store_true",
                        help="only the matmul counts and the agreement check "
                        "(for a loaded machine)")
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

    print(f"MLP loss, {count} parameters, batch {BATCH} (f32), load "
          f"{os.getloadavg()[0]:.2f}")
    for name, fn in (("forward-over-reverse", hvp_forward_over_reverse),
                     ("reverse-over-reverse", hvp_reverse_over_reverse)):
        count, sweeps = matmuls(fn, args)
        print(f"  {name}: {count} matmuls, {len(sweeps)} sweeps over the "
              f"loss ({', '.join(sweeps)})")
    print(f"  max relative difference of the products: {worst:.2e}")
    if options.no_timing:
        return
    t_fr = time_per_call(lambda: hvp_forward_over_reverse(*args),
                         options.min_time, options.repeats)
    t_rr = time_per_call(lambda: hvp_reverse_over_reverse(*args),
                         options.min_time, options.repeats)
    print(f"  forward-over-reverse (tracec.hvp):  {t_fr * 1e3:8.3f} ms")
    print(f"  reverse-over-reverse (grad of g.v): {t_rr * 1e3:8.3f} ms")
    print(f"  ratio reverse-over-reverse / forward-over-reverse: "
          f"{t_rr / t_fr:.2f} (load {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
