"""tracec.distributed: the collectives in a world of one (this process) and,
under `mpirun -np 2` and `-np 3` (distributed_worker.py checks eager and
compiled collectives, their gradients, broadcasts and data-parallel SGD
against NumPy and central differences on every rank); an exported object
with a collective, linked by mpicc, under mpirun; faults that end the job
with an error naming the collective (distributed_faults.py)."""
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
    # A gather of one process's tensor is it, -0.0 included, bit for bit.
    z = np.array([-0.0, np.inf, -np.inf, 1e-45], np.float32)
    assert dist.all_gather(z).tobytes() == z.tobytes()
    assert dist.broadcast(z).tobytes() == z.tobytes()
    np.testing.assert_array_equal(dist.reduce_scatter(x, "mean"), x)


def test_operands_read_in_place_whatever_their_layout():
    """The all-reduce reads its operand's buffer where it lies, whatever
    its layout (a strided slice, a transpose), and the operand stays
    intact for its other uses."""
    dist.init()
    x = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(
        tracec.jit(lambda x: dist.all_reduce(x[:, 1:3]) + 1)(x), x[:, 1:3] + 1)
    np.testing.assert_array_equal(
        tracec.jit(lambda x: dist.all_reduce(tracec.numpy.transpose(x)))(x),
        x.T)

    def reduce_and_reuse(x):
        y = x * 2
        return dist.all_reduce(y), y + 1
    reduced, reused = tracec.jit(reduce_and_reuse)(x)
    np.testing.assert_array_equal(reduced, 2 * x)
    np.testing.assert_array_equal(reused, 2 * x + 1)


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
    with pytest.raises(Exception, match="'trace.all_gather' axis 1 is out of "
                                        "range for tensor<2xf64>"):
        dist.all_gather(np.ones(2), axis=1)
    with pytest.raises(Exception, match="'trace.all_gather' op elements must "
                                        "be f32, f64, i32 or i64"):
        dist.all_gather(np.ones(2, np.float16))
    with pytest.raises(Exception, match="times world size 4611686018427387904 "
                                        "overflows"):
        tracec.jit(lambda x: tracec._tracec.all_gather(x, 0, 1 << 62))(
            np.ones(4, np.float32))
    with pytest.raises(ValueError, match="must be one of"):
        dist.reduce_scatter(np.ones(2), "prod")
    with pytest.raises(Exception, match="no gradient for reduction 'min'"):
        tracec.grad(lambda x: tracec.numpy.sum(
            dist.reduce_scatter(x, "min")))(np.ones(2))


def mpi_env():
    """mpirun as root on one machine (a CI container): allowed, shared
    memory between the ranks, more ranks than cores."""
    return dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
                OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_btl="self,vader",
                OMPI_MCA_rmaps_base_oversubscribe="1")


MAIN_C = r"""
#include <mpi.h>
#include <stdio.h>
#include "model.h"
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  float x[4] = {1.0f + rank, 2, 3, 4}, y[4];
  int status = model_allsum(x, y);
  printf("rank %d: %d %g %g %g %g\n", rank, status, y[0], y[1], y[2], y[3]);
  MPI_Finalize();
  return status;
}
"""


def run_exported(tmp_path, allsum):
    """Exports `allsum` (traced here, in a world of one), links it with
    MAIN_C by mpicc and runs it under `mpirun -np 2`."""
    mpicc = shutil.which("mpicc")
    assert mpicc, "mpicc (libopenmpi-dev) is not installed: run scripts/install-deps"
    allsum.get_concrete_function(np.zeros(4, np.float32)).export(
        str(tmp_path / "model"))
    (tmp_path / "main.c").write_text(MAIN_C)
    subprocess.run([mpicc, "main.c", "model.o", tracec.abi_library(), "-lm",
                    "-lpthread", "-o", "main"],
                   check=True, cwd=str(tmp_path), env=mpi_env())
    return subprocess.run([shutil.which("mpirun"), "-np", "2", "./main"],
                          cwd=str(tmp_path), env=mpi_env(),
                          capture_output=True, text=True, timeout=120)


def test_exported_object_with_collectives_runs_under_mpirun(tmp_path):
    """An AOT object that all-reduces needs libmpi and TracecABI (the
    collectives' guard) beside libc and libm: linked by mpicc, it runs
    under mpirun and sums across ranks."""
    dist.init()

    @tracec.function
    def allsum(x):
        return dist.all_reduce(x * 2.0)

    run = run_exported(tmp_path, allsum)
    assert run.returncode == 0, run.stdout + run.stderr
    # 2 * (x on rank 0 + x on rank 1): x[0] is 1 and 2.
    for rank in (0, 1):
        assert f"rank {rank}: 0 6 8 12 16" in run.stdout, run.stdout


def test_an_object_traced_for_another_world_size_fails(tmp_path):
    """all_gather's result has the world's size in its shape: an object
    traced for one process, run by two, ends with an error naming it."""
    dist.init()

    @tracec.function
    def allsum(x):
        return dist.all_gather(x * 2.0)

    run = run_exported(tmp_path, allsum)
    assert run.returncode != 0, run.stdout
    assert ("'trace.all_gather' {axis = 0 : i64, world_size = 1 : i64} of "
            "tensor<4xf32>: traced for a world of 1 processes, run in a world "
            "of 2") in run.stderr, run.stderr
    assert "rank 0:" not in run.stdout, run.stdout


FAULTS = os.path.join(os.path.dirname(__file__), "distributed_faults.py")


@pytest.mark.parametrize("fault, message", [
    ("disagree", "'trace.all_reduce' {reduction = \"sum\"} of tensor<5xf64>: "
                 "the processes disagree on this collective"),
    ("late", "'trace.all_reduce' {reduction = \"sum\"} of tensor<4xf64>: "
             "process 0 waited 2 s for the other processes"),
    ("dies", "exited with non-zero status"),
    ("grid", "'trace.comm_rank' {groups = dense<[[0, 1, 2, 3]]> : "
             "tensor<1x4xi64>}: the groups partition a world of 4 processes, "
             "this one has 2"),
])
def test_a_fault_ends_the_job_naming_the_collective(fault, message):
    """Processes that disagree on a collective, one that never reaches it
    (a 2 s TRACEC_COLLECTIVE_TIMEOUT here), one that dies, a shard grid of
    another size than the world: the job ends with an error, never a hang
    (distributed_faults.py)."""
    env = dict(mpi_env(), TRACEC_COLLECTIVE_TIMEOUT="2")
    run = subprocess.run([shutil.which("mpirun"), "-np", "2", sys.executable,
                          FAULTS, fault], env=env, capture_output=True,
                         text=True, timeout=50)
    output = run.stdout + run.stderr
    assert run.returncode != 0, output
    assert "rank 0 agreed" in output and "rank 1 agreed" in output, output
    assert message in output, output
    assert "went on" not in output, output


@pytest.mark.parametrize("processes", [2, 3])
def test_processes(processes):
    """The worker's checks on every rank; 3 processes on 2 cores need
    OpenMPI's oversubscription (set below, as for a root test machine)."""
    mpirun = shutil.which("mpirun")
    assert mpirun, "mpirun (openmpi-bin) is not installed: run scripts/install-deps"
    run = subprocess.run([mpirun, "-np", str(processes), sys.executable,
                          WORKER], env=mpi_env(), capture_output=True, text=True,
                         timeout=300)
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    for rank in range(processes):
        assert f"rank {rank} of {processes} done 8" in output, output


def test_groups_on_four_processes():
    """all_reduce within groups of processes (distributed_groups_worker.py)
    under mpirun -np 4: two groups of two, in three layouts; and a module
    annotated with the shard dialect on a 2x2 grid (data and tensor
    parallel) against NumPy."""
    worker = os.path.join(os.path.dirname(__file__),
                          "distributed_groups_worker.py")
    run = subprocess.run([shutil.which("mpirun"), "-np", "4", sys.executable,
                          worker], env=mpi_env(), capture_output=True,
                         text=True, timeout=300)
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    for rank in range(4):
        assert f"rank {rank} groups ok" in output, output


def test_digits_cnn_on_two_processes_trains_as_one(tmp_path):
    """examples/digits_cnn.py --distributed under mpirun -np 2 (each
    process half of every batch, the gradients averaged in the step)
    follows the one-process training: the same losses to rounding at the
    start, and the one-process accuracy (the example exits non-zero below
    0.97)."""
    example = os.path.join(os.path.dirname(__file__), "..", "..", "examples",
                           "digits_cnn.py")
    common = [example, "--no-torch", "--threads", "1",
              "--png", str(tmp_path / "loss.png")]
    one = subprocess.run([sys.executable, *common, "--losses",
                          str(tmp_path / "one.npy")], env=mpi_env(),
                         capture_output=True, text=True, timeout=300)
    assert one.returncode == 0, one.stdout + one.stderr
    two = subprocess.run([shutil.which("mpirun"), "-np", "2", sys.executable,
                          *common, "--distributed", "--losses",
                          str(tmp_path / "two.npy")], env=mpi_env(),
                         capture_output=True, text=True, timeout=300)
    assert two.returncode == 0, two.stdout + two.stderr

    def accuracy(out):
        return float(out.split("test accuracy ")[1].split(",")[0])
    assert abs(accuracy(one.stdout) - accuracy(two.stdout)) <= 0.02
    one_losses = np.load(tmp_path / "one.npy")
    two_losses = np.load(tmp_path / "two.npy")
    assert one_losses.shape == two_losses.shape
    # (2.7e-6 apart here; later steps drift apart as rounding compounds)
    np.testing.assert_allclose(two_losses[:20], one_losses[:20], rtol=1e-4)

