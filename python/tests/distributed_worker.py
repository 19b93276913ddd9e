"""Run by test_distributed.py under `mpirun -np 2` and `-np 3`: every rank
checks the collectives against NumPy (their gradients against central
differences) and prints "rank R ok <check>" per check."""
import os
import sys

import numpy as np

import tracec
import tracec.numpy as tnp
from tracec import distributed as dist


def main():
    dist.init()
    rank, size = dist.rank(), dist.size()
    checks = []
    # The processes of this machine share its cores, threads included.
    assert tracec.get_num_threads() * size <= max(os.cpu_count(), size), \
        (tracec.get_num_threads(), size)

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

    # all_gather concatenates in rank order; reduce_scatter keeps this
    # rank's slice of the reduction.
    np.testing.assert_array_equal(dist.all_gather(x),
                                  np.concatenate(every, axis=0))
    np.testing.assert_array_equal(
        tracec.jit(lambda x: dist.all_gather(x, axis=-1))(x),
        np.concatenate(every, axis=1))
    tall = np.arange(6 * size, dtype=np.float64).reshape(2 * size, 3) * (
        rank + 1)
    tall_every = [tall / (rank + 1) * (r + 1) for r in range(size)]
    mine = slice(2 * rank, 2 * rank + 2)
    for op, reduce in [("sum", sum), ("mean", lambda t: sum(t) / size),
                       ("max", lambda t: np.max(t, axis=0))]:
        np.testing.assert_allclose(
            tracec.jit(lambda t: dist.reduce_scatter(t, op))(tall),
            reduce(tall_every)[mine], rtol=1e-15)
    np.testing.assert_array_equal(
        dist.reduce_scatter(np.ones((3, size), np.int32), axis=1),
        np.full((3, 1), size))
    ok("gather and scatter")

    # Their gradients against central differences of the loss summed over
    # ranks, one rank's operand perturbed at a time (f64).
    weights = np.random.default_rng(rank).normal(size=(2, 3 * size))

    def gathered(x):
        return tnp.sum(tnp.tanh(dist.all_gather(x, axis=1)) * weights)

    def scattered(op):
        return lambda t: tnp.sum(
            tnp.tanh(dist.reduce_scatter(tnp.sin(t), op)) * weights[:, :3])

    total = tracec.jit(lambda f, x: dist.all_reduce(f(x)),
                       static_argnums=0)
    for f, x0 in [(gathered, x.astype(np.float64) / 6),
                  (scattered("sum"), tall / tall.size),
                  (scattered("mean"), tall / tall.size)]:
        gradient = tracec.grad(f)(x0)
        for owner in range(size):
            for i in range(x0.size):
                step = np.zeros(x0.size)
                if rank == owner:
                    step[i] = 1e-6
                step = step.reshape(x0.shape)
                difference = (total(f, x0 + step) - total(f, x0 - step)) / 2e-6
                if rank == owner:
                    np.testing.assert_allclose(gradient.flat[i], difference,
                                               rtol=1e-6, atol=1e-9)
    # Tangents: gathered, and reduced then scattered.
    _, tangent = tracec.jvp(lambda x: dist.all_gather(x),
                            (x.astype(np.float64),), (c,))
    np.testing.assert_array_equal(
        tangent, np.concatenate([np.full((2, 3), r + 1.0)
                                 for r in range(size)]))
    _, tangent = tracec.jvp(lambda t: dist.reduce_scatter(t, "mean"),
                            (tall,), (np.full(tall.shape, rank + 1.0),))
    np.testing.assert_allclose(tangent, np.full((2, 3), (size + 1) / 2))
    ok("gather and scatter gradients")

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

    # The same with a hidden layer, its gradient all-reduces overlapping
    # the backward pass (TRACEC_OVERLAP_COLLECTIVES=1: started as each
    # gradient is computed, waited for at the update) and blocking: the
    # same weights, and the same on every rank.
    hidden = [rng.normal(size=(5, 8)) / 3, np.zeros(8),
              rng.normal(size=(8, 1)) / 3, np.zeros(1)]

    def mlp_loss(p, x, y):
        h = tnp.tanh(x @ p[0] + p[1])
        return tnp.mean((h @ p[2] + p[3] - y) ** 2)

    trained = {}
    for overlap in ("1", "0"):
        os.environ["TRACEC_OVERLAP_COLLECTIVES"] = overlap  # at compile

        @tracec.jit
        def mlp_step(p, x, y):
            g = dist.all_reduce_gradients(tracec.grad(mlp_loss)(p, x, y))
            return [a - 0.1 * b for a, b in zip(p, g)]
        p = hidden
        for _ in range(3):
            p = mlp_step(p, X[shard], Y[shard])
        trained[overlap] = np.concatenate([np.ravel(a) for a in p])
    del os.environ["TRACEC_OVERLAP_COLLECTIVES"]
    np.testing.assert_allclose(trained["1"], trained["0"], rtol=1e-13)
    np.testing.assert_array_equal(dist.broadcast(trained["1"], root=0),
                                  trained["1"])
    ok("overlapped all-reduces")
    print(f"rank {rank} of {size} done {len(checks)}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
