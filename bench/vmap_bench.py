#!/usr/bin/python3
"""vmap against tracec's own loops: per-example gradients and a Hessian.

1. Per-example gradients of the MLP 784-512-512-10 (softmax cross-entropy,
   f32) at batch 256: `tracec.vmap(tracec.grad(loss), (None, 0, 0))`, one
   compiled function, against a Python loop of the compiled per-example
   gradient (256 calls), both from Python (arrays crossing); checked
   against PyTorch's per-example backward passes. PyTorch's time is
   bench/run's row "per-example gradients, MLP b256", in a process of its
   own (here, beside tracec's threads and buffers, it ran 10x slower).
2. The Hessian of hessians_bench.py's loss (224 weights, batch 32):
   `tracec.vmap` of Hessian-vector products over the identity's rows,
   against `tracec.hessian` (jacfwd of grad: its columns in a fori_loop).

Prints the median time per call of each and the ratios (above 1: vmap is
faster); checks that the results agree first. Asserts nothing about time.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE PYTHONPATH=build/python \\
        /usr/bin/python3 bench/vmap_bench.py [--threads 1] [--repeats 5]
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import time_per_call  # noqa: E402

import tracec  # noqa: E402
import tracec.numpy as tnp  # noqa: E402

BATCH, SIZES = 256, (784, 512, 512, 10)


def mlp_loss(params, x, label):
    h = x
    for i in range(3):
        h = tnp.dot(h, params[f"w{i}"]) + params[f"b{i}"]
        if i < 2:
            h = tracec.nn.relu(h)
    return -tnp.sum(tracec.nn.log_softmax(h) * label)


def per_example_gradients(args, rng):
    params = {}
    for i, (m, n) in enumerate(zip(SIZES, SIZES[1:])):
        params[f"w{i}"] = (rng.standard_normal((m, n)) /
                           np.sqrt(m)).astype(np.float32)
        params[f"b{i}"] = np.zeros(n, np.float32)
    x = rng.standard_normal((BATCH, SIZES[0])).astype(np.float32)
    labels = np.eye(SIZES[-1], dtype=np.float32)[
        rng.integers(0, SIZES[-1], BATCH)]

    batched = tracec.jit(tracec.vmap(tracec.grad(mlp_loss), (None, 0, 0)))
    single = tracec.jit(tracec.grad(mlp_loss))

    def loop():
        return [single(params, x[k], labels[k]) for k in range(BATCH)]

    import torch
    torch.set_num_threads(args.threads)
    tp = {k: torch.tensor(v, requires_grad=True) for k, v in params.items()}
    tx, tl = torch.tensor(x), torch.tensor(labels)

    def torch_loop():
        grads = []
        for k in range(BATCH):
            h = tx[k]
            for i in range(3):
                h = h @ tp[f"w{i}"] + tp[f"b{i}"]
                if i < 2:
                    h = torch.relu(h)
            loss = -(torch.log_softmax(h, -1) * tl[k]).sum()
            grads.append(torch.autograd.grad(loss, list(tp.values())))
        return grads

    got, ref, tref = batched(params, x, labels), loop(), torch_loop()
    del torch_loop
    for i, name in enumerate(params):
        want = np.stack([r[name] for r in ref])
        np.testing.assert_allclose(got[name], want, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(
            got[name], np.stack([t[i].numpy() for t in tref]), rtol=1e-3,
            atol=1e-4)
    t_vmap = time_per_call(lambda: batched(params, x, labels), 0.3,
                           args.repeats)
    t_loop = time_per_call(loop, 0.3, args.repeats)
    print(f"per-example gradients, MLP {'-'.join(map(str, SIZES))}, "
          f"batch {BATCH}:")
    print(f"  tracec vmap(grad)      {t_vmap * 1e3:9.2f} ms")
    print(f"  tracec loop of grad    {t_loop * 1e3:9.2f} ms   "
          f"ratio {t_loop / t_vmap:5.2f}x")


def hessian(args, rng):
    hidden, n_in, n_out, batch = 16, 12, 2, 32
    n1, n = n_in * hidden, n_in * hidden + hidden * n_out

    def loss(w, x, y):
        w1 = tnp.reshape(w[0:n1], (n_in, hidden))
        w2 = tnp.reshape(w[n1:n], (hidden, n_out))
        r = tnp.matmul(tnp.tanh(tnp.matmul(x, w1)), w2) - y
        return tnp.mean(r * r)

    w = (rng.standard_normal(n) * 0.3).astype(np.float32)
    x = rng.standard_normal((batch, n_in)).astype(np.float32)
    y = rng.standard_normal((batch, n_out)).astype(np.float32)
    eye = np.eye(n, dtype=np.float32)

    @tracec.jit
    def by_vmap(w, x, y, eye):
        def row(t):
            return tracec.hvp(lambda w: loss(w, x, y), (w,), (t,))[0]
        return tracec.vmap(row)(eye)

    by_loop = tracec.jit(tracec.hessian(loss))
    np.testing.assert_allclose(by_vmap(w, x, y, eye), by_loop(w, x, y),
                               rtol=1e-4, atol=1e-5)
    t_vmap = time_per_call(lambda: by_vmap(w, x, y, eye), 0.3, args.repeats)
    t_loop = time_per_call(lambda: by_loop(w, x, y), 0.3, args.repeats)
    print(f"Hessian, {n} weights (hessians_bench.py's loss), batch {batch}:")
    print(f"  tracec vmap(hvp)       {t_vmap * 1e3:9.3f} ms")
    print(f"  tracec.hessian (loop)  {t_loop * 1e3:9.3f} ms   "
          f"ratio {t_loop / t_vmap:5.2f}x")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    tracec.set_num_threads(args.threads)
    rng = np.random.default_rng(0)
    print(f"threads: {args.threads}")
    per_example_gradients(args, rng)
    hessian(args, rng)


if __name__ == "__main__":
    main()
