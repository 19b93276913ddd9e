"""Run by test_distributed.py under `mpirun -np 2` with one fault, which
must end the job with an error naming the collective, never hang:

  disagree  rank 1 all-reduces a tensor of another shape than rank 0's
  late      rank 1 never reaches the collective (TRACEC_COLLECTIVE_TIMEOUT
            is short)
  dies      rank 1 exits before the collective
"""
import os
import sys
import time

import numpy as np

import tracec
from tracec import distributed as dist


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
    print(f"rank {rank} went on", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
