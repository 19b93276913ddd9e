"""Run by test_distributed.py under `mpirun -np 2`: every rank checks the
collectives against NumPy and prints "rank R ok <check>" per check."""
import sys

import numpy as np

import tracec
import tracec.numpy as tnp
from tracec import distributed as dist


def main():
    dist.init()
    rank, size = dist.rank(), dist.size()
    checks = []

    def ok(name):
        checks.append(name)
        print(f"rank {rank} ok {name}", flush=True)

    # Eager collectives: rank r holds r + arange.
    x = np.arange(6, dtype=np.float32).reshape(2, 3) + rank
    every = [np.arange(6, dtype=np.float32).reshape(2, 3) + r
             for r in range(size)]
    np.testing.assert_array_equal(dist.all_reduce(x), sum(every))
    np.testing.assert_allclose(dist.all_reduce(x, "mean"), sum(every) / size)
    np.testing.assert_array_equal(dist.all_reduce(x, "max"), every[-1])
    np.testing.assert_array_equal(
        dist.all_reduce(np.array([rank, -rank], np.int64), "min"),
        [0, -(size - 1)])
    ok("eager")

    # Compiled, in program order with a second collective.
    @tracec.jit
    def twice(x):
        return dist.all_reduce(x * 2.0), dist.all_reduce(x, "max")
    s, m = twice(x.astype(np.float64))
    np.testing.assert_allclose(s, 2 * sum(every))
    np.testing.assert_allclose(m, every[-1])
    ok("compiled")

    # The gradient of sum_r <all_reduce(x_r), c_r> wrt x_r is sum_r c_r.
    c = np.full((2, 3), rank + 1.0)
    g = tracec.grad(lambda x: tnp.sum(dist.all_reduce(x) * c))(x.astype(
        np.float64))
    np.testing.assert_allclose(g, np.full((2, 3), size * (size + 1) / 2))
    ok("gradient")

    # Broadcast from rank 0 and of variables.
    np.testing.assert_array_equal(dist.broadcast(x, root=0), every[0])
    last = size - 1
    np.testing.assert_array_equal(
        tracec.jit(lambda x: dist.broadcast(x * 2, root=last))(x),
        2 * every[last])
    # d/dx_r of sum_q <broadcast(x)_q, c_q>: on the root sum_q c_q, else 0;
    # the tangent of a broadcast is the root's tangent.
    g = tracec.grad(lambda x: tnp.sum(dist.broadcast(x, root=last) * c))(
        x.astype(np.float64))
    np.testing.assert_allclose(
        g, np.full((2, 3), size * (size + 1) / 2 if rank == last else 0.0))
    _, tangent = tracec.jvp(lambda x: dist.broadcast(x, root=last),
                            (x.astype(np.float64),), (c,))
    np.testing.assert_allclose(tangent, np.full((2, 3), float(size)))
    v = tracec.Variable(np.full(3, float(rank), np.float32))
    dist.broadcast_variables([v], root=size - 1)
    np.testing.assert_array_equal(v.numpy(), np.full(3, size - 1.0))
    ok("broadcast")

    # Data parallel SGD on a linear model: each rank a shard of the batch,
    # the gradients averaged in the compiled step, gives full-batch SGD.
    rng = np.random.default_rng(0)  # the same data on every rank
    n = 60  # equal shards for 2, 3, 4, 5 and 6 processes
    X = rng.normal(size=(n, 5))
    Y = X @ rng.normal(size=(5, 1)) + 0.1 * rng.normal(size=(n, 1))
    w0 = rng.normal(size=(5, 1))

    def loss(w, x, y):
        return tnp.mean((x @ w - y) ** 2)

    @tracec.jit
    def step(w, x, y):
        g = dist.all_reduce_gradients(tracec.grad(loss)(w, x, y))
        return w - 0.1 * g

    shard = slice(rank * n // size, (rank + 1) * n // size)
    w, full = w0, w0
    for _ in range(5):
        w = step(w, X[shard], Y[shard])
        full = full - 0.1 * 2 * X.T @ (X @ full - Y) / n
    np.testing.assert_allclose(w, full, rtol=1e-12)
    ok("data parallel sgd")
    print(f"rank {rank} of {size} done {len(checks)}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
