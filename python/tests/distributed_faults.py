"""Run by test_distributed.py under `mpirun -np 2` with one fault, which
must end the job with an error naming the collective, never hang:

  disagree  rank 1 all-reduces a tensor of another shape than rank 0's
  late      rank 1 never reaches the collective (TRACEC_COLLECTIVE_TIMEOUT
            is short)
  dies      rank 1 exits before the collective
  grid      a module annotated for a shard.grid of 4 processes runs on 2
"""
import os
import sys
import time

import numpy as np

import tracec
from tracec import distributed as dist

# The rank in a grid of 4 processes (trace-shard-to-collectives: the
# position in the world's group, which checks the world's size).
GRID_OF_FOUR = """
shard.grid @grid(shape = 4)
func.func @f() -> tensor<i64> {
  %i = shard.process_linear_index on @grid : index
  %r = arith.index_cast %i : index to i64
  %t = tensor.from_elements %r : tensor<i64>
  return %t : tensor<i64>
}
"""


def main(fault):
    dist.init()
    rank = dist.rank()
    step = tracec.jit(lambda x: dist.all_reduce(x * 2.0))
    step(np.ones(4))  # every rank agrees once
    print(f"rank {rank} agreed", flush=True)
    if fault == "disagree":
        step(np.ones(4 if rank == 0 else 5))
    elif fault == "late":
        if rank == 1:
            time.sleep(60)
        step(np.ones(4))
    elif fault == "dies":
        if rank == 1:
            os._exit(3)
        step(np.ones(4))
    elif fault == "grid":
        index = tracec.compile_module(GRID_OF_FOUR, "grid.mlir").function("f")
        index()
    print(f"rank {rank} went on", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
