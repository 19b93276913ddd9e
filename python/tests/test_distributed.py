"""tracec.distributed: the collectives in a world of one (this process) and,
under `mpirun -np 2`, across two processes (distributed_worker.py checks
eager and compiled all_reduce, its gradient, broadcasts and data-parallel
SGD against NumPy on every rank)."""
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import tracec
from tracec import distributed as dist

WORKER = os.path.join(os.path.dirname(__file__), "distributed_worker.py")


def test_a_world_of_one():
    dist.init()
    assert (dist.rank(), dist.size()) == (0, 1)
    x = np.arange(4.0)
    np.testing.assert_array_equal(dist.all_reduce(x), x)
    np.testing.assert_array_equal(dist.all_reduce(x, "mean"), x)
    np.testing.assert_array_equal(
        tracec.jit(lambda x: dist.all_reduce(x, "min"))(x), x)


def test_bad_arguments():
    dist.init()
    with pytest.raises(ValueError, match="must be one of"):
        dist.all_reduce(np.ones(2), "prod")
    with pytest.raises(Exception, match="elements must be f32, f64, i32 or "
                                        "i64"):
        dist.all_reduce(np.ones(2, np.float16))
    with pytest.raises(Exception, match="no gradient for reduction 'max'"):
        tracec.grad(lambda x: tracec.numpy.sum(dist.all_reduce(x, "max")))(
            np.ones(2))
    with pytest.raises(ValueError, match="not a rank"):
        dist.broadcast(np.ones(2), root=3)


@pytest.mark.parametrize("processes", [2, 3])
def test_processes(processes):
    """The worker's checks on every rank; 3 processes on 2 cores need
    OpenMPI's oversubscription (set below, as for a root test machine)."""
    mpirun = shutil.which("mpirun")
    assert mpirun, "mpirun (openmpi-bin) is not installed: run scripts/install-deps"
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_btl="self,vader",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    run = subprocess.run([mpirun, "-np", str(processes), sys.executable,
                          WORKER], env=env, capture_output=True, text=True,
                         timeout=300)
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    for rank in range(processes):
        assert f"rank {rank} of {processes} done 5" in output, output
