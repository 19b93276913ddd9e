"""Run by test_distributed.py under `mpirun -np 4`: the collectives within
groups of processes (XLA's replica groups), eager and compiled, blocking
and overlapped, and their gradients (against central differences for
broadcast, all_gather and reduce_scatter); a module annotated with the
shard dialect on a 2x2 grid of the processes; every rank prints
"rank R groups ok"."""
import os
import sys

import numpy as np

import tracec
import tracec.numpy as tnp
from tracec import distributed as dist


def main():
    dist.init()
    rank, size = dist.rank(), dist.size()
    assert size == 4, size
    every = [np.arange(6, dtype=np.float64).reshape(2, 3) * (r + 1)
             for r in range(size)]
    x = every[rank]
    for groups in ([[0, 1], [2, 3]], [[0, 2], [1, 3]], [[3, 1], [0, 2]]):
        mine = next(g for g in groups if rank in g)
        total = sum(every[r] for r in mine)
        np.testing.assert_array_equal(dist.all_reduce(x, groups=groups), total)
        np.testing.assert_allclose(dist.all_reduce(x, "mean", groups),
                                   total / len(mine), rtol=1e-15)
        np.testing.assert_array_equal(
            dist.all_reduce(x, "max", groups), every[max(mine)])
        for overlap in ("0", "1"):
            os.environ["TRACEC_OVERLAP_COLLECTIVES"] = overlap  # at compile

            @tracec.jit
            def twice(x):
                # The first all-reduce's result is used only at the end:
                # overlapped, it is waited for there.
                a = dist.all_reduce(x, "sum", groups)
                b = dist.all_reduce(tnp.sin(x), "sum")  # the world's
                return a * 2.0 + b
            expected = 2 * total + sum(np.sin(e) for e in every)
            np.testing.assert_allclose(twice(x), expected, rtol=1e-14)
        del os.environ["TRACEC_OVERLAP_COLLECTIVES"]
        # d/dx_r of sum_q <all_reduce(x, groups)_q, c_q> is the sum of c
        # over r's group.
        c = np.full((2, 3), rank + 1.0)
        g = tracec.grad(lambda x: tnp.sum(dist.all_reduce(x, "sum", groups)
                                          * c))(x)
        np.testing.assert_allclose(g, np.full((2, 3),
                                              float(sum(r + 1 for r in mine))))
        check_tiling_in(groups, rank, every)
    check_gradients_in([[3, 1], [0, 2]], rank)
    for bad in ([[0, 1], [2, 2]], [[0, 1, 2], [3]], [[0, 1]]):
        try:
            dist.all_reduce(x, groups=bad)
        except ValueError as error:
            assert "groups must" in str(error), error
        else:
            raise AssertionError(f"groups {bad} were accepted")
    try:
        dist.broadcast(x, root=2, groups=[[0, 1], [2, 3]])
    except ValueError as error:
        assert "not a rank of a group of 2" in str(error), error
    else:
        raise AssertionError("a root outside the groups was accepted")
    check_shard_grid(rank)
    print(f"rank {rank} groups ok", flush=True)


def check_tiling_in(groups, rank, every):
    """broadcast, all_gather and reduce_scatter in `groups` against NumPy,
    eager and compiled: positions in a group follow the group's order."""
    mine = next(g for g in groups if rank in g)
    position = mine.index(rank)
    x = every[rank]
    np.testing.assert_array_equal(dist.broadcast(x, 1, groups), every[mine[1]])
    np.testing.assert_array_equal(
        tracec.jit(lambda x: dist.broadcast(x * 2, 0, groups))(x),
        2 * every[mine[0]])
    gathered = np.concatenate([every[r] for r in mine], axis=1)
    np.testing.assert_array_equal(dist.all_gather(x, 1, groups), gathered)
    np.testing.assert_array_equal(
        tracec.jit(lambda x: dist.all_gather(x, -1, groups))(x), gathered)
    # Rows 2p, 2p + 1 of the group's reduction: position p's slice.
    tall = [np.arange(12.0).reshape(4, 3) * (r + 1) for r in range(4)]
    rows = slice(2 * position, 2 * position + 2)
    for op, reduce in [("sum", sum), ("mean", lambda t: sum(t) / len(t)),
                       ("min", lambda t: np.min(t, axis=0))]:
        expected = reduce([tall[r] for r in mine])[rows]
        np.testing.assert_allclose(
            dist.reduce_scatter(tall[rank], op, groups=groups), expected,
            rtol=1e-15)
        np.testing.assert_allclose(
            tracec.jit(lambda t: dist.reduce_scatter(t, op, 0, groups))(
                tall[rank]), expected, rtol=1e-15)


def check_gradients_in(groups, rank):
    """Gradients of broadcast, all_gather and reduce_scatter in `groups`
    against central differences of the loss summed over every process,
    one process's operand perturbed at a time (f64)."""
    weights = np.random.default_rng(rank).normal(size=(2, 6))

    def broadcasted(x):
        return tnp.sum(tnp.tanh(dist.broadcast(x, 1, groups)) *
                       weights[:, :3])

    def gathered(x):
        return tnp.sum(tnp.tanh(dist.all_gather(x, 1, groups)) * weights)

    def scattered(op):
        return lambda t: tnp.sum(tnp.tanh(
            dist.reduce_scatter(tnp.sin(t), op, 0, groups)) * weights[:, :3])

    total = tracec.jit(lambda f, x: dist.all_reduce(f(x)), static_argnums=0)
    x0 = np.random.default_rng(10 + rank).normal(size=(2, 3)) / 4
    tall0 = np.random.default_rng(20 + rank).normal(size=(4, 3)) / 4
    for f, start in [(broadcasted, x0), (gathered, x0),
                     (scattered("sum"), tall0), (scattered("mean"), tall0)]:
        gradient = tracec.grad(f)(start)
        for owner in range(4):
            for i in range(start.size):
                step = np.zeros(start.size)
                if rank == owner:
                    step[i] = 1e-6
                step = step.reshape(start.shape)
                difference = (total(f, start + step) -
                              total(f, start - step)) / 2e-6
                if rank == owner:
                    np.testing.assert_allclose(gradient.flat[i], difference,
                                               rtol=1e-6, atol=1e-9)


# A two-layer MLP on a 2x2 grid of processes (process (i, j) is rank
# 2i + j): the batch split along axis 0 (data parallel), W1's columns and
# W2's rows along axis 1 (tensor parallel, as Megatron-LM splits them):
# each row of the grid adds its partial products in one all-reduce.
DATA_AND_TENSOR_PARALLEL = """
shard.grid @grid(shape = 2x2)
func.func @f(%x: tensor<6x3xf64>, %w1: tensor<3x4xf64>, %w2: tensor<4x5xf64>) -> tensor<6x5xf64> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %columns = shard.sharding @grid split_axes = [[], [1]] : !shard.sharding
  %rows1 = shard.sharding @grid split_axes = [[1]] : !shard.sharding
  %xs = shard.shard %x to %rows : tensor<6x3xf64>
  %w1s = shard.shard %w1 to %columns : tensor<3x4xf64>
  %w2s = shard.shard %w2 to %rows1 : tensor<4x5xf64>
  %zero = arith.constant 0.0 : f64
  %e1 = tensor.empty() : tensor<6x4xf64>
  %f1 = linalg.fill ins(%zero : f64) outs(%e1 : tensor<6x4xf64>) -> tensor<6x4xf64>
  %h = linalg.matmul ins(%xs, %w1s : tensor<6x3xf64>, tensor<3x4xf64>) outs(%f1 : tensor<6x4xf64>) -> tensor<6x4xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%h : tensor<6x4xf64>) outs(%e1 : tensor<6x4xf64>) {
  ^bb0(%a: f64, %b: f64):
    %m = arith.maximumf %a, %zero : f64
    linalg.yield %m : f64
  } -> tensor<6x4xf64>
  %e2 = tensor.empty() : tensor<6x5xf64>
  %f2 = linalg.fill ins(%zero : f64) outs(%e2 : tensor<6x5xf64>) -> tensor<6x5xf64>
  %y = linalg.matmul ins(%r, %w2s : tensor<6x4xf64>, tensor<4x5xf64>) outs(%f2 : tensor<6x5xf64>) -> tensor<6x5xf64>
  %out = shard.shard %y to %rows annotate_for_users : tensor<6x5xf64>
  return %out : tensor<6x5xf64>
}
"""


def check_shard_grid(rank):
    """A module annotated with the shard dialect compiles to each
    process's program (trace-shard-to-collectives): it takes the process's
    shards and returns its rows of the MLP's output."""
    rng = np.random.default_rng(30)  # the same on every process
    x, w1, w2 = (rng.normal(size=s) for s in ((6, 3), (3, 4), (4, 5)))
    i, j = divmod(rank, 2)
    f = tracec.compile_module(DATA_AND_TENSOR_PARALLEL).function("f")
    y = f(x[3 * i:3 * i + 3], w1[:, 2 * j:2 * j + 2],
          w2[2 * j:2 * j + 2])[0]
    expected = np.maximum(x @ w1, 0) @ w2
    np.testing.assert_allclose(y, expected[3 * i:3 * i + 3], rtol=1e-13,
                               atol=1e-14)


if __name__ == "__main__":
    sys.exit(main())
