#!/usr/bin/python3
"""The Python package's overheads, side by side with NumPy and PyTorch:

- per call of a cached tracec.function on a tiny input (x + 1 on 4 floats),
  of its concrete function, and of a cached eager op (tracec.numpy.add), vs
  the same op in NumPy and PyTorch;
- the first eager call of a new op (trace + compile at the eager
  optimization level), in a fresh process after one warm-up op: with an
  empty persistent compile cache (cold) and again with the entries that
  run stored (warm: the object code is loaded, not compiled);
- the demo's training step (examples/digits_cnn.py's CNN, batch 64): trace
  time, compile time, and median time per step vs the same step in PyTorch.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_bench.py [--steps 50] [--no-cnn]

The peers run in a child process without OPENBLAS_CORETYPE/OPENBLAS_L2_SIZE
(set on this machine for tests), as the other benchmarks do. Prints medians
and ratios; asserts nothing.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import time_per_call  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def digits_batch(batch):
    sys.path.insert(0, os.path.join(ROOT, "examples"))
    from digits_cnn import load
    x_train, _, y_train, _ = load(0)
    return x_train[:batch], y_train[:batch]


def peers(args):
    import torch
    torch.set_num_threads(1)
    x = np.zeros(4, np.float32)
    t = torch.zeros(4)
    result = {
        "numpy_add_us": time_per_call(lambda: x + 1.0, 0.2, 5) * 1e6,
        "torch_add_us": time_per_call(lambda: t + 1.0, 0.2, 5) * 1e6,
    }
    sys.path.insert(0, os.path.join(ROOT, "examples"))
    from digits_cnn import CNN, torch_model
    import tracec  # only for the initial weights
    net = torch_model(CNN(np.random.default_rng(0)))
    opt = torch.optim.Adam(net.parameters(), lr=0.01)
    xb, yb = digits_batch(64)
    xt, yt = torch.from_numpy(xb), torch.from_numpy(yb).long()

    def step():
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(net(xt), yt)
        loss.backward()
        opt.step()
    times = []
    for _ in range(5):
        step()
    for _ in range(args.steps):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    result["torch_step_us"] = statistics.median(times) * 1e6
    del tracec
    return result


def first_eager_calls():
    """In a fresh process: the first call of each of a few new eager ops,
    after one op has started the JIT (ms, and where the compile went)."""
    import tracec.numpy as tnp
    from tracec import _core
    stats = {}
    trace_eager = _core._trace_eager

    def timed(kernel, values, static, name):
        function, single = trace_eager(kernel, values, static, name)
        stats[name] = function.compile_stats()
        return function, single
    _core._trace_eager = timed
    x = np.ones((3, 5), np.float32)
    tnp.add(np.zeros(4, np.float32), 1.0)  # starts the JIT
    result = {}
    for name, op in [("multiply", lambda: tnp.multiply(x, x)),
                     ("exp", lambda: tnp.exp(x)),
                     ("sum", lambda: tnp.sum(x, 1)),
                     ("matmul", lambda: tnp.matmul(x, x.T))]:
        start = time.perf_counter()
        op()
        result[name] = {"ms": (time.perf_counter() - start) * 1e3,
                        **stats[name]}
    return result


def eager_first_runs():
    """first_eager_calls() in child processes sharing an empty temporary
    compile cache: cold (compiled, stored), then warm (loaded)."""
    import tempfile
    runs = {}
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, TRACEC_CACHE_DIR=cache)
        env.pop("TRACEC_DISABLE_CACHE", None)
        for run in ("cold", "warm"):
            runs[run] = json.loads(subprocess.run(
                [sys.executable, __file__, "--eager-first"], env=env,
                check=True, capture_output=True, text=True).stdout)
    return runs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--no-cnn", action="store_true",
                        help="skip the digits CNN step (its compile is ~10 s)")
    parser.add_argument("--peer", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--eager-first", action="store_true",
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peer:
        print(json.dumps(peers(args)))
        return
    if args.eager_first:
        print(json.dumps(first_eager_calls()))
        return

    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
    peer = json.loads(subprocess.run(
        [sys.executable, __file__, "--peer", "--steps", str(args.steps)],
        env=env, check=True, capture_output=True, text=True).stdout)

    import tracec
    import tracec.numpy as tnp

    @tracec.function
    def tiny(x):
        return x + 1.0

    x = np.zeros(4, np.float32)
    tiny(x)
    concrete = tiny.get_concrete_function(x)
    tnp.add(x, 1.0)
    ours = {
        "function_us": time_per_call(lambda: tiny(x), 0.2, 5) * 1e6,
        "concrete_us": time_per_call(lambda: concrete(x), 0.2, 5) * 1e6,
        "eager_add_us": time_per_call(lambda: tnp.add(x, 1.0), 0.2, 5) * 1e6,
    }
    ours["eager_first"] = eager_first_runs()
    load = os.getloadavg()[0]
    print(f"tracec Python package overheads (load average {load:.1f}, "
          f"{os.cpu_count()} cores; medians)")
    print(f"  cached tracec.function, x + 1 on 4 floats: {ours['function_us']:7.2f} us"
          f"   ({ours['function_us'] / peer['numpy_add_us']:.2f}x NumPy, "
          f"{ours['function_us'] / peer['torch_add_us']:.2f}x PyTorch)")
    print(f"  its concrete function:                      {ours['concrete_us']:7.2f} us")
    print(f"  cached eager tracec.numpy.add:              {ours['eager_add_us']:7.2f} us")
    print(f"  NumPy x + 1.0:                              {peer['numpy_add_us']:7.2f} us")
    print(f"  PyTorch t + 1.0:                            {peer['torch_add_us']:7.2f} us")
    print("  first eager call of a new op, (3, 5) f32, ms (MLIR pipeline / "
          "LLVM optimize / codegen or cache load):")
    for run, ops in ours["eager_first"].items():
        print(f"    {run} cache: " + ", ".join(
            f"{name} {r['ms']:.1f} ({r['pipeline_seconds'] * 1e3:.1f}/"
            f"{r['optimize_seconds'] * 1e3:.1f}/{r['codegen_seconds'] * 1e3:.1f})"
            for name, r in ops.items()))
    if args.no_cnn:
        print(json.dumps({"tracec": ours, "peers": peer}))
        return

    sys.path.insert(0, os.path.join(ROOT, "examples"))
    from digits_cnn import CNN
    import tracec.nn  # noqa: F401
    model = CNN(np.random.default_rng(0))
    opt = tracec.Adam(0.01)

    @tracec.function
    def train_step(xb, yb):
        with tracec.GradientTape() as tape:
            loss = tnp.mean(tracec.nn.sparse_softmax_cross_entropy_with_logits(
                yb, model(xb)))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    xb, yb = digits_batch(64)
    step = train_step.get_concrete_function(xb, yb)
    for _ in range(5):
        train_step(xb, yb)
    times = []
    for _ in range(args.steps):
        start = time.perf_counter()
        train_step(xb, yb)
        times.append(time.perf_counter() - start)
    ours["step_trace_s"] = step.trace_seconds
    ours["step_compile_s"] = step.compile_seconds
    ours["step_us"] = statistics.median(times) * 1e6

    print("digits CNN training step (batch 64, Adam):")
    print(f"  trace {ours['step_trace_s'] * 1e3:.0f} ms, compile "
          f"{ours['step_compile_s']:.2f} s")
    print(f"  tracec {ours['step_us']:.0f} us/step, PyTorch (1 thread) "
          f"{peer['torch_step_us']:.0f} us/step: "
          f"{ours['step_us'] / peer['torch_step_us']:.2f}x")
    print(json.dumps({"tracec": ours, "peers": peer}))


if __name__ == "__main__":
    main()
