"""bf16 mixed precision against f32 on the MLP 784-512-512-10 training
step at batch 256: the time per step and the loss curve of each, tracec
and PyTorch side by side.

    PYTHONPATH=build/python /usr/bin/python3 bench/mixed_precision.py
        [--steps 200] [--every 20] [--threads 1] [--min-time 1]

Mixed precision is what torch.autocast(dtype=torch.bfloat16) does on a CPU:
f32 master weights, each matmul's operands cast to bf16 and its products
summed in f32 (rounded to bf16), everything else in f32. tracec's step
writes the casts itself (tnp.astype to tnp.bfloat16 around each matmul);
its gradients go through the same casts. Both train by SGD (lr 0.1) from
the same initial weights on the same data: 8192 inputs labelled by a fixed
random teacher network, a fresh batch of 256 per step.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import time_per_call  # noqa: E402

SIZES = (784, 512, 512, 10)
BATCH = 256
LR = 0.1


def data(rng, count=8192):
    x = rng.standard_normal((count, SIZES[0])).astype(np.float32)
    teacher = rng.standard_normal((SIZES[0], SIZES[-1])).astype(np.float32)
    return x, np.argmax(x @ teacher, axis=1).astype(np.int32)


def initial_weights(rng):
    return [(rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
            for a, b in zip(SIZES[:-1], SIZES[1:])] + \
        [np.zeros(b, np.float32) for b in SIZES[1:]]


def tracec_step(bf16):
    import tracec
    import tracec.nn  # noqa: F401
    import tracec.numpy as tnp

    def matmul(a, b):
        if not bf16:
            return a @ b
        return tnp.astype(tnp.astype(a, tnp.bfloat16) @
                          tnp.astype(b, tnp.bfloat16), tnp.float32)

    def loss(params, x, y):
        h = x
        ws, bs = params[:3], params[3:]
        for i, (w, b) in enumerate(zip(ws, bs)):
            h = matmul(h, w) + b
            if i < 2:
                h = tracec.nn.relu(h)
        return tnp.mean(
            tracec.nn.sparse_softmax_cross_entropy_with_logits(y, h))

    grad = tracec.value_and_grad(loss)

    @tracec.function
    def step(params, x, y):
        value, grads = grad(params, x, y)
        return value, [p - LR * g for p, g in zip(params, grads)]
    return step


def torch_step(bf16):
    import torch

    def step(params, x, y):
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
            h = x
            ws, bs = params[:3], params[3:]
            for i, (w, b) in enumerate(zip(ws, bs)):
                h = torch.addmm(b, h, w)
                if i < 2:
                    h = torch.relu(h)
            value = torch.nn.functional.cross_entropy(h.float(), y)
        grads = torch.autograd.grad(value, params)
        with torch.no_grad():
            return value.item(), [(p - LR * g).requires_grad_()
                                  for p, g in zip(params, grads)]
    return step


def train(step, params, x, y, steps, every, to_input):
    curve = []
    for s in range(steps):
        rows = slice((s * BATCH) % len(x), (s * BATCH) % len(x) + BATCH)
        value, params = step(params, to_input(x[rows]), to_input(y[rows]))
        if s % every == 0 or s == steps - 1:
            curve.append((s, float(value)))
    return curve


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--every", type=int, default=20)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--min-time", type=float, default=1.0)
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", str(args.threads))
    import torch
    torch.set_num_threads(args.threads)

    rng = np.random.default_rng(0)
    x, y = data(rng)
    weights = initial_weights(rng)
    xb, yb = x[:BATCH], y[:BATCH]
    rows = {}
    for name, bf16 in (("f32", False), ("bf16", True)):
        t_step = tracec_step(bf16)
        t_time = time_per_call(lambda: t_step(weights, xb, yb),
                               args.min_time, 3)
        t_curve = train(t_step, weights, x, y, args.steps, args.every,
                        lambda a: a)
        p_step = torch_step(bf16)
        p_params = [torch.tensor(w, requires_grad=True) for w in weights]
        txb, tyb = torch.from_numpy(xb), torch.from_numpy(yb).long()
        p_time = time_per_call(lambda: p_step(p_params, txb, tyb),
                               args.min_time, 3)
        p_curve = train(p_step, p_params, x, y.astype(np.int64), args.steps,
                        args.every, torch.from_numpy)
        rows[name] = (t_time, t_curve, p_time, p_curve)

    print(f"MLP 784-512-512-10 training step, batch {BATCH}, "
          f"{args.threads} thread(s): median time per step")
    print(f"{'':6}{'tracec':>10}{'torch':>10}{'ratio':>8}")
    for name, (t_time, _, p_time, _) in rows.items():
        print(f"{name:6}{t_time * 1e3:>8.2f}ms{p_time * 1e3:>8.2f}ms"
              f"{p_time / t_time:>7.2f}x")
    t32, t16 = rows["f32"][0], rows["bf16"][0]
    print(f"tracec bf16 / f32 speed-up: {t32 / t16:.2f}x")
    print("\nloss curves (step: tracec f32, tracec bf16, torch f32, "
          "torch bf16)")
    curves = [rows["f32"][1], rows["bf16"][1], rows["f32"][3], rows["bf16"][3]]
    for points in zip(*curves):
        print(f"  {points[0][0]:>4}: " +
              "  ".join(f"{value:.4f}" for _, value in points))


if __name__ == "__main__":
    main()
