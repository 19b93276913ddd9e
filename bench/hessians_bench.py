#!/usr/bin/python3
"""tracec.hessians forward-over-reverse (jvps of the sliced gradient
function) against the old reverse-over-reverse form (a gradients() of each
gradient element), on an MLP loss with respect to one 1-D weight vector.

The loss: mean((tanh(x W1) W2 - y)^2), W1 and W2 slices of w (IN*HIDDEN +
HIDDEN*OUT entries), batch 32. Prints, for each: the gradient ops in the
traced function (trace.jvp / trace.vjp: the sweeps it makes), trace and
compile seconds, and the median time per call; checks both give the same
Hessian. Asserts nothing about time.

    PYTHONPATH=build/python /usr/bin/python3 bench/hessians_bench.py [--hidden 16] [--repeats 7] [--skip-reverse]
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import time_per_call  # noqa: E402

import tracec  # noqa: E402
import tracec.numpy as tnp  # noqa: E402
from tracec.symbolic_gradients import _hessians_reverse  # noqa: E402

BATCH, IN, OUT = 32, 12, 2


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hidden", type=int, default=16)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--skip-reverse", action="store_true",
                        help="time forward-over-reverse only")
    args = parser.parse_args()
    hidden = args.hidden
    n1, n = IN * hidden, IN * hidden + hidden * OUT

    def loss(w, x, y):
        w1 = tnp.reshape(w[0:n1], (IN, hidden))
        w2 = tnp.reshape(w[n1:n], (hidden, OUT))
        r = tnp.matmul(tnp.tanh(tnp.matmul(x, w1)), w2) - y
        return tnp.mean(r * r)

    @tracec.function
    def forward_over_reverse(w, x, y):
        return tracec.hessians(loss(w, x, y), w)[0]

    @tracec.function
    def reverse_over_reverse(w, x, y):
        return _hessians_reverse(loss(w, x, y), w)[0]

    rng = np.random.default_rng(0)
    w = (rng.standard_normal(n) * 0.3).astype(np.float32)
    x = rng.standard_normal((BATCH, IN)).astype(np.float32)
    y = rng.standard_normal((BATCH, OUT)).astype(np.float32)
    print(f"w: {n} entries (hidden {hidden}), batch {BATCH}")
    results = {}
    runs = [("forward-over-reverse", forward_over_reverse),
            ("reverse-over-reverse", reverse_over_reverse)]
    for name, fn in runs[:1] if args.skip_reverse else runs:
        concrete = fn.get_concrete_function(w, x, y)
        ir = concrete.ir()
        results[name] = fn(w, x, y)
        t = time_per_call(lambda: fn(w, x, y), 0.2, args.repeats)
        print(f"{name}: {ir.count('trace.jvp @')} trace.jvp, "
              f"{ir.count('trace.vjp @')} trace.vjp; trace "
              f"{concrete.trace_seconds:.2f} s, compile "
              f"{concrete.compile_seconds:.2f} s; {t * 1e3:.3f} ms per call")
    if args.skip_reverse:
        return
    a, b = results.values()
    print("max |difference|:", float(np.abs(a - b).max()),
          "max |H|:", float(np.abs(b).max()))


if __name__ == "__main__":
    main()
