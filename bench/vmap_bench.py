#!/usr/bin/python3
"""vmap against tracec's own loops: per-example gradients and a Hessian.

The workloads of bench/workloads/vmap.py (bench/run's vmap rows), from
Python:
1. Per-example gradients of the MLP 784-512-512-10 at batch 256:
   `tracec.vmap(tracec.grad(loss), (None, 0, 0))`, one compiled function,
   against a Python loop of the compiled per-example gradient (256 calls);
   checked against PyTorch's per-example backward passes. PyTorch's time
   is bench/run's row "per-example gradients, MLP b256", in a process of
   its own (here, beside tracec's threads and buffers, it ran 10x slower).
2. The Hessian of a 224-weight MLP loss (batch 32) as `tracec.vmap` of
   Hessian-vector products over the identity's rows and as
   `tracec.hessian` (jacfwd of grad, itself vmap of jvp), against the
   columns in a fori_loop (how tracec.hessian ran before).

Prints the median time per call of each and the ratios (above 1: vmap is
faster); checks that the results agree first. Asserts nothing about time.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE PYTHONPATH=build/python \\
        /usr/bin/python3 bench/vmap_bench.py [--threads 1] [--repeats 5]
"""
import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "workloads"))
from timing import time_per_call  # noqa: E402
import vmap as workloads  # noqa: E402

import tracec  # noqa: E402
import tracec.numpy as tnp  # noqa: E402


def per_example_gradients(args, rng):
    params, x, labels = workloads.grads_inputs(rng)
    batched = tracec.jit(tracec.vmap(tracec.grad(workloads.mlp_loss),
                                     (None, 0, 0)))
    single = tracec.jit(tracec.grad(workloads.mlp_loss))

    def loop():
        return [single(params, x[k], labels[k]) for k in range(len(x))]

    got, ref = batched(params, x, labels), loop()
    import torch
    tp = {k: torch.tensor(v, requires_grad=True) for k, v in params.items()}
    for k in range(len(x)):
        h = torch.tensor(x[k])
        for i in range(3):
            h = h @ tp[f"w{i}"] + tp[f"b{i}"]
            h = torch.relu(h) if i < 2 else h
        loss = -(torch.log_softmax(h, -1) * torch.tensor(labels[k])).sum()
        grads = torch.autograd.grad(loss, list(tp.values()))
        for name, g in zip(tp, grads):
            np.testing.assert_allclose(got[name][k], g.numpy(), rtol=1e-3,
                                       atol=1e-4)
    for name in params:
        np.testing.assert_allclose(got[name], np.stack([r[name] for r in ref]),
                                   rtol=1e-4, atol=1e-5)
    t_vmap = time_per_call(lambda: batched(params, x, labels), 0.3,
                           args.repeats)
    t_loop = time_per_call(loop, 0.3, args.repeats)
    sizes = "-".join(map(str, workloads.SIZES))
    print(f"per-example gradients, MLP {sizes}, batch {len(x)}:")
    print(f"  tracec vmap(grad)      {t_vmap * 1e3:9.2f} ms")
    print(f"  tracec loop of grad    {t_loop * 1e3:9.2f} ms   "
          f"ratio {t_loop / t_vmap:5.2f}x")


def hessian(args, rng):
    w, x, y, eye = workloads.hessian_inputs(rng)
    loss = workloads.hessian_loss

    @tracec.jit
    def by_vmap(w, x, y, eye):
        def row(t):
            return tracec.hvp(lambda w: loss(w, x, y), (w,), (t,))[0]
        return tracec.vmap(row)(eye)

    @tracec.jit
    def by_loop(w, x, y, eye):
        # The columns in a fori_loop (how tracec.hessian ran before it
        # became vmap of jvp of grad).
        def column(k, hess):
            t = tnp.take(eye, k, axis=0)
            col = tracec.hvp(lambda w: loss(w, x, y), (w,), (t,))[0]
            return tnp.scatter_add(hess, tnp.reshape(k, (1,)),
                                   tnp.reshape(col, (-1, 1)), axis=1)
        return tracec.fori_loop(0, len(eye), column, tnp.zeros_like(eye))

    by_hessian = tracec.jit(tracec.hessian(loss))
    expected = by_vmap(w, x, y, eye)
    for got in (by_loop(w, x, y, eye), by_hessian(w, x, y)):
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)
    t_vmap = time_per_call(lambda: by_vmap(w, x, y, eye), 0.3, args.repeats)
    t_hessian = time_per_call(lambda: by_hessian(w, x, y), 0.3, args.repeats)
    t_loop = time_per_call(lambda: by_loop(w, x, y, eye), 0.3, args.repeats)
    print(f"Hessian, {len(w)} weights, batch {len(x)}:")
    print(f"  tracec vmap(hvp)       {t_vmap * 1e3:9.3f} ms")
    print(f"  tracec.hessian         {t_hessian * 1e3:9.3f} ms   "
          f"ratio {t_loop / t_hessian:5.2f}x the loop")
    print(f"  fori_loop of hvp       {t_loop * 1e3:9.3f} ms   "
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
