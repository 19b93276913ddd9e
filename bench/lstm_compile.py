#!/usr/bin/python3
"""Compile time against graph size: an LSTM language model's training step
(hidden 256, batch 32; bench/workloads/lstm.py) unrolled in Python for 8, 16, 32 and 64 steps, as a
user writes it (the state starts at zeros), traced and compiled cold (no
compile cache). Prints trace and compile seconds per step count, the
growth from one size to the next (2.0 is linear) and where the compile
went (MLIR pipeline, LLVM's optimizer, machine code); asserts nothing.

    PYTHONPATH=build/python /usr/bin/python3 bench/lstm_compile.py [--steps 8,16,32,64] [--form unrolled|autograph|loop] [--dump DIR]

`--dump DIR` writes each traced module to DIR/lstm_<steps>.mlir, to time
the pipeline's passes with `tracec-opt --mlir-timing`.
"""
import argparse
import os
import sys
import time

os.environ["TRACEC_DISABLE_CACHE"] = "1"

import numpy as np  # noqa: E402

import tracec  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "workloads"))
from lstm import LOSSES, inputs  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", default="8,16,32,64")
    parser.add_argument("--dump", metavar="DIR")
    parser.add_argument("--form", choices=sorted(LOSSES), default="unrolled",
                        help="bench/workloads/lstm.py's form (default: "
                             "unrolled; autograph: the same code converted)")
    args = parser.parse_args()
    lstm_loss = LOSSES[args.form]
    rng = np.random.default_rng(0)
    print(f"LSTM LM training step (hidden 256, batch 32), {args.form}, "
          "cold:")
    print(f"{'steps':>6} {'trace s':>8} {'compile s':>10} {'growth':>7}"
          f" {'pipeline s':>10} {'LLVM opt s':>10} {'codegen s':>9}")
    previous = None
    for steps in [int(s) for s in args.steps.split(",")]:
        params, xs, labels = inputs(steps, rng)
        step = tracec.function(tracec.value_and_grad(lstm_loss))
        start = time.perf_counter()
        concrete = step.get_concrete_function(params, xs, labels)
        total = time.perf_counter() - start
        growth = f"{total / previous:.2f}x" if previous else ""
        stats = concrete.compile_stats()
        print(f"{steps:>6} {concrete.trace_seconds:>8.2f} "
              f"{concrete.compile_seconds:>10.2f} {growth:>7} "
              f"{stats['pipeline_seconds']:>10.2f} "
              f"{stats['optimize_seconds']:>10.2f} "
              f"{stats['codegen_seconds']:>9.2f}", flush=True)
        previous = total
        if args.dump:
            with open(os.path.join(args.dump, f"lstm_{steps}.mlir"), "w") as f:
                f.write(concrete.ir())


if __name__ == "__main__":
    main()
