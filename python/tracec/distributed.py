"""Data-parallel training across processes on MPI (OpenMPI), as Horovod
does: start one process per replica with `mpirun -np N python train.py`,
call `init()`, broadcast the initial variables from rank 0, and average the
gradients inside the compiled step with `all_reduce_gradients`.

The collectives are `trace.all_reduce` ops: compiled with the rest of the
step (to `mpi.allreduce`, MPI_Allreduce), ordered by automatic control
dependencies (every process must call them in the same order), and
differentiable (the gradient of a sum over processes is the sum of the
cotangents). Outside a traced function they run eagerly.

    tracec.distributed.init()
    tracec.distributed.broadcast_variables(model.variables)

    @tracec.jit
    def step(w, x, y):
        g = tracec.grad(loss)(w, x, y)
        return w - lr * tracec.distributed.all_reduce_gradients(g)
"""
from __future__ import annotations

import atexit
import ctypes
import ctypes.util
import os

from . import _core
from . import _tracec as _C
from ._core import apply
from ._tree import tree_map

_MPI_THREAD_SERIALIZED = 2  # OpenMPI's values (mpi.h)
_MPI_COMM_TYPE_SHARED = 0
_REDUCTIONS = ("sum", "mean", "max", "min")

_lib = None


def _library():
    if _lib is None:
        raise RuntimeError("tracec.distributed.init() has not been called")
    return _lib


def init():
    """Loads OpenMPI into the process (its symbols global: the compiled
    code calls MPI_Allreduce and names OpenMPI's communicator) and
    initializes it, once; without mpirun the process is a world of one.
    Each process then runs on as many threads as it has cores: those it is
    bound to, else the machine's // the processes on it, so that the ranks
    of one machine do not oversubscribe its cores (OMP_NUM_THREADS, where
    set, wins)."""
    global _lib
    if _lib is not None:
        return
    name = ctypes.util.find_library("mpi") or "libmpi.so.40"
    try:
        lib = ctypes.CDLL(name, mode=os.RTLD_NOW | os.RTLD_GLOBAL)
    except OSError as error:
        raise RuntimeError(
            f"tracec.distributed needs OpenMPI ({name}: {error}); on Debian: "
            "apt install libopenmpi-dev openmpi-bin") from None
    initialized = ctypes.c_int(0)
    lib.MPI_Initialized(ctypes.byref(initialized))
    if not initialized.value:
        provided = ctypes.c_int(0)
        if lib.MPI_Init_thread(None, None, _MPI_THREAD_SERIALIZED,
                               ctypes.byref(provided)) != 0:
            raise RuntimeError("MPI_Init_thread failed")
        atexit.register(_finalize, lib)
    _lib = lib
    if "OMP_NUM_THREADS" not in os.environ:
        _C.set_num_threads(_threads_per_process(lib))


def _threads_per_process(lib):
    """The cores this process may run on: all of them where a launcher
    bound it (mpirun --bind-to, srun --cpu-bind share them out), else the
    machine's divided among its processes (MPI's shared-memory split of
    the world, whatever started them)."""
    cores = len(os.sched_getaffinity(0))
    if cores < (os.cpu_count() or cores):
        return cores
    comm = ctypes.c_void_p()
    lib.MPI_Comm_split_type(_world(lib), _MPI_COMM_TYPE_SHARED, 0,
                            _predefined(lib, "ompi_mpi_info_null"),
                            ctypes.byref(comm))
    local = ctypes.c_int(1)
    lib.MPI_Comm_size(comm, ctypes.byref(local))
    lib.MPI_Comm_free(ctypes.byref(comm))
    return max(1, cores // local.value)


def _predefined(lib, name):
    """OpenMPI's predefined handles (MPI_COMM_WORLD, MPI_INFO_NULL) are the
    addresses of these globals."""
    return ctypes.c_void_p(ctypes.addressof(ctypes.c_char.in_dll(lib, name)))


def _world(lib):
    return _predefined(lib, "ompi_mpi_comm_world")


def _finalize(lib):
    finalized = ctypes.c_int(0)
    lib.MPI_Finalized(ctypes.byref(finalized))
    if not finalized.value:
        lib.MPI_Finalize()


def _world_query(function):
    value = ctypes.c_int(0)
    lib = _library()
    getattr(lib, function)(_world(lib), ctypes.byref(value))
    return value.value


def rank() -> int:
    """This process's rank in MPI's world communicator (0 ... size() - 1)."""
    return _world_query("MPI_Comm_rank")


def size() -> int:
    """The number of processes in MPI's world communicator."""
    return _world_query("MPI_Comm_size")


def _all_reduce(x, reduction, groups=()):
    return _C.all_reduce(x, reduction, [list(g) for g in groups])


def _collective(kernel, x, *attributes, name):
    """kernel(x, *attributes), recorded or run eagerly, counted as an effect
    (a function that has one is inlined at its call under a tape, as for
    prints and random numbers)."""
    _library()
    _core._effects += 1
    return apply(kernel, (_core.number_as_array(x),), *attributes, name=name)


def all_reduce(x, op="sum", groups=None):
    """The elementwise `op` ("sum", "mean", "max", "min") of `x` over every
    process (MPI_Allreduce): each process passes an array of the same shape
    and dtype (float32, float64, int32, int64) and gets the result.

    `groups`: lists of ranks, all of one length, that partition the world
    (XLA's replica groups, e.g. [[0, 1], [2, 3]]): each process reduces
    with its group's processes only; `mean` divides by the group's
    size."""
    if op not in _REDUCTIONS:
        raise ValueError(f"all_reduce op must be one of {_REDUCTIONS}, "
                         f"got {op!r}")
    groups = _groups(groups)
    if groups:
        return _collective(_all_reduce, x, op, groups, name="all_reduce")
    return _collective(_all_reduce, x, op, name="all_reduce")


def _groups(groups):
    """`groups` as a tuple of tuples of ints (an eager op's cache key),
    checked to partition a world of this size."""
    if groups is None:
        return ()
    groups = tuple(tuple(int(r) for r in g) for g in groups)
    ranks = sorted(r for g in groups for r in g)
    if not groups or ranks != list(range(size())):
        raise ValueError(f"groups must partition the ranks 0 ... "
                         f"{size() - 1} of the world, got {groups}")
    if len({len(g) for g in groups}) != 1:
        raise ValueError(f"groups must all have the same size, got {groups}")
    return groups


def all_reduce_gradients(gradients, op="mean", groups=None):
    """Each gradient in a structure (as grad returns it) all-reduced:
    averaged over the processes by default, as Horovod's
    DistributedOptimizer does, so that equal shards of a batch give the
    gradient of the whole batch's mean loss (with `groups`, as
    all_reduce: over each group's processes)."""
    return tree_map(lambda g: all_reduce(g, op, groups), gradients)


def _broadcast(x, root, groups=()):
    return _C.broadcast(x, root, [list(g) for g in groups])


def broadcast(x, root=0, groups=None):
    """Rank `root`'s `x` on every process (MPI_Bcast, the op
    trace.broadcast): each process passes an array of the same shape and
    dtype (float32, float64, int32, int64). Its gradient goes to the
    root: the sum over processes of the results' cotangents.

    `groups` (as all_reduce's): each group's process at position `root`
    of its group sends to its group."""
    groups = _groups(groups)
    processes = len(groups[0]) if groups else size()
    if not isinstance(root, int) or not 0 <= root < processes:
        raise ValueError(f"broadcast root {root} is not a rank of a "
                         f"{'group' if groups else 'world'} of {processes}")
    return _collective(_broadcast, x, root, groups, name="broadcast")


def _all_gather(x, axis, world_size, groups=()):
    return _C.all_gather(x, axis, world_size, [list(g) for g in groups])


def all_gather(x, axis=0, groups=None):
    """Every process's `x` concatenated along `axis` in rank order
    (MPI_Allgather; torch.distributed.all_gather_into_tensor, JAX's
    all_gather with tiled=True): each process passes an array of the same
    shape and dtype (float32, float64, int32, int64). Its gradient is the
    reduce_scatter sum of the result's cotangent.

    `groups` (as all_reduce's): its group's arrays, in the group's
    order."""
    groups = _groups(groups)
    processes = len(groups[0]) if groups else size()
    return _collective(_all_gather, x, axis, processes, groups,
                       name="all_gather")


def _reduce_scatter(x, op, axis, world_size, groups=()):
    return _C.reduce_scatter(x, op, axis, world_size,
                             [list(g) for g in groups])


def reduce_scatter(x, op="sum", axis=0, groups=None):
    """Process r's slice of the elementwise `op` ("sum", "mean", "max",
    "min") of `x` over every process, `axis` split into size() equal
    slices (MPI_Reduce_scatter_block; torch.distributed.
    reduce_scatter_tensor, JAX's psum_scatter with tiled=True). Its
    gradient gathers the result's cotangent.

    `groups` (as all_reduce's): reduced over its group, `axis` split into
    a slice per process of the group, the slice of its position."""
    if op not in _REDUCTIONS:
        raise ValueError(f"reduce_scatter op must be one of {_REDUCTIONS}, "
                         f"got {op!r}")
    groups = _groups(groups)
    processes = len(groups[0]) if groups else size()
    return _collective(_reduce_scatter, x, op, axis, processes, groups,
                       name="reduce_scatter")


def broadcast_variables(variables, root=0):
    """Assigns rank `root`'s value to each variable (tracec.Variable) on
    every process, as Horovod's broadcast_variables: call it once after
    creating the model, so that every replica starts from the same
    weights."""
    for variable in variables:
        variable.assign(broadcast(variable.numpy(), root))
