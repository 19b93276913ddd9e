#!/usr/bin/python3
"""vmap workloads of bench/run, traced with the tracec package as users
write them:

- `--what grads`: per-example gradients of the MLP 784-512-512-10
  (softmax cross-entropy, f32) at batch 256,
  `tracec.vmap(tracec.grad(loss), in_axes=(None, 0, 0))`;
- `--what hessian`: the Hessian of bench/hessians_bench.py's loss (224
  weights, batch 32) as `tracec.vmap` of Hessian-vector products over the
  identity's rows.

    PYTHONPATH=build/python /usr/bin/python3 bench/workloads/vmap.py \\
        --what grads --out grads.mlir

writes the module and prints the name of its entry function.
"""
import argparse
import os

import numpy as np

SIZES, BATCH = (784, 512, 512, 10), 256
H_IN, H_HIDDEN, H_OUT, H_BATCH = 12, 16, 2, 32
H_N1 = H_IN * H_HIDDEN
H_N = H_N1 + H_HIDDEN * H_OUT


def mlp_params(rng):
    """The weights by name (a dict: its leaves in sorted order, b0 ... w2)."""
    params = {}
    for i, (m, n) in enumerate(zip(SIZES, SIZES[1:])):
        params["w%d" % i] = (rng.standard_normal((m, n)) /
                             np.sqrt(m)).astype(np.float32)
        params["b%d" % i] = (rng.standard_normal(n) * 0.1).astype(np.float32)
    return params


def grads_inputs(rng):
    params = mlp_params(rng)
    x = rng.standard_normal((BATCH, SIZES[0])).astype(np.float32)
    labels = np.eye(SIZES[-1], dtype=np.float32)[
        rng.integers(0, SIZES[-1], BATCH)]
    return params, x, labels


def mlp_loss(params, x, label):
    import tracec
    import tracec.numpy as tnp
    h = x
    for i in range(3):
        h = tnp.dot(h, params["w%d" % i]) + params["b%d" % i]
        if i < 2:
            h = tracec.nn.relu(h)
    return -tnp.sum(tracec.nn.log_softmax(h) * label)


def hessian_inputs(rng):
    w = (rng.standard_normal(H_N) * 0.3).astype(np.float32)
    x = rng.standard_normal((H_BATCH, H_IN)).astype(np.float32)
    y = rng.standard_normal((H_BATCH, H_OUT)).astype(np.float32)
    return w, x, y, np.eye(H_N, dtype=np.float32)


def hessian_loss(w, x, y):
    import tracec.numpy as tnp
    w1 = tnp.reshape(w[0:H_N1], (H_IN, H_HIDDEN))
    w2 = tnp.reshape(w[H_N1:H_N], (H_HIDDEN, H_OUT))
    r = tnp.matmul(tnp.tanh(tnp.matmul(x, w1)), w2) - y
    return tnp.mean(r * r)


def trace(what):
    import tracec
    rng = np.random.default_rng(0)
    if what == "grads":
        step = tracec.function(tracec.vmap(tracec.grad(mlp_loss),
                                           in_axes=(None, 0, 0)))
        return step.get_concrete_function(*grads_inputs(rng))

    @tracec.function
    def hessian(w, x, y, eye):
        def row(t):
            return tracec.hvp(lambda w: hessian_loss(w, x, y), (w,), (t,))[0]
        return tracec.vmap(row)(eye)
    return hessian.get_concrete_function(*hessian_inputs(rng))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--what", choices=["grads", "hessian"], required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.environ.setdefault("TRACEC_DISABLE_CACHE", "1")
    concrete = trace(args.what)
    with open(args.out, "w") as f:
        f.write(concrete.ir())
    print(concrete.name)


if __name__ == "__main__":
    main()
