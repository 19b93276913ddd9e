"""Run by test_distributed.py under `mpirun -np 4`: all_reduce within
groups of processes (XLA's replica groups), eager and compiled, blocking
and overlapped, and its gradient; every rank prints "rank R groups ok"."""
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
    for bad in ([[0, 1], [2, 2]], [[0, 1, 2], [3]], [[0, 1]]):
        try:
            dist.all_reduce(x, groups=bad)
        except ValueError as error:
            assert "groups must" in str(error), error
        else:
            raise AssertionError(f"groups {bad} were accepted")
    print(f"rank {rank} groups ok", flush=True)


if __name__ == "__main__":
    sys.exit(main())
