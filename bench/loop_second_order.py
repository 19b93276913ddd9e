#!/usr/bin/python3
"""Grad of grad (reverse-over-reverse) through loops scales linearly with
the trip count: the time per iteration of a Hessian-vector product through
tracec.while_loop and tracec.fori_loop at growing trip counts, next to the
first gradient's. A second gradient that taped the first one's tapes again
(a tape of tapes) would grow per iteration with the trip count.

The loop: v <- v + sin(v * x) / 1000 over a 64-float carry; the loss is
sum(v^2). Prints the median time per call divided by the trip count.
Asserts nothing about time.

    PYTHONPATH=build/python /usr/bin/python3 bench/loop_second_order.py [--repeats 5]
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import time_per_call  # noqa: E402

import tracec  # noqa: E402
import tracec.numpy as tnp  # noqa: E402


def make_loss(kind):
    def step(v, x):
        return v + tnp.sin(v * x) * 1e-3

    def loss(x, n):
        if kind == "fori_loop":
            v = tracec.fori_loop(0, n, lambda i, v: step(v, x), x)
        else:
            v, _ = tracec.while_loop(lambda s: s[1] < n,
                                     lambda s: (step(s[0], x), s[1] + 1),
                                     (x, np.asarray(0, np.int64)))
        return tnp.sum(v * v)
    return loss


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--min-time", type=float, default=0.2)
    args = parser.parse_args()
    x = np.linspace(-1.0, 1.0, 64)
    u = np.linspace(1.0, -1.0, 64)
    print(f"{'loop':<11} {'trips':>6} {'gradient':>12} {'grad of grad':>14}"
          "   (time per iteration)")
    for kind in ("while_loop", "fori_loop"):
        loss = make_loss(kind)
        gradient = tracec.function(lambda x, n: tracec.grad(loss)(x, n))
        hessian_u = tracec.function(lambda x, n: tracec.grad(
            lambda x: tnp.sum(tracec.grad(loss)(x, n) * u))(x))
        for trips in (1000, 4000, 16000):
            n = np.asarray(trips, np.int64)
            first = time_per_call(lambda: gradient(x, n), args.min_time,
                                  args.repeats)
            second = time_per_call(lambda: hessian_u(x, n), args.min_time,
                                   args.repeats)
            print(f"{kind:<11} {trips:>6} {1e6 * first / trips:>9.2f} us"
                  f" {1e6 * second / trips:>11.2f} us")


if __name__ == "__main__":
    main()
