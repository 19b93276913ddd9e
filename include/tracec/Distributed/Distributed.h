//===- Distributed.h - Data-parallel training on MPI from C++ ---*- C++ -*-===//
//
// The C++ side of Python's `tracec.distributed`: a program run under
// `mpirun -np N` initializes MPI, traces its training step with the
// gradients all-reduced inside it (the `trace.all_reduce` ops that
// tracec::all_reduce records, compiled with the step), and starts every
// process from the same weights:
//
//   if (llvm::Error error = tracec::distributed::init()) ...
//   CompileOptions options;
//   options.threads = tracec::distributed::threadsPerProcess();
//   ... trace("step", specs, [&](llvm::ArrayRef<Value> a) -> Values {
//         Values grads = grad(loss, wrtWeights)({a[0], a[1]});
//         grads = tracec::distributed::allReduceGradients(grads);
//         ... assign_sub(*w, lr * g) ...
//       });
//   tracec::distributed::broadcastVariables(model.variables());
//
// Link tracec::TracecDistributed (it links MPI, OpenMPI's ABI: the
// compiled collectives call OpenMPI). docs/guides/distributed.md.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_DISTRIBUTED_DISTRIBUTED_H
#define TRACEC_DISTRIBUTED_DISTRIBUTED_H

#include "tracec/Frontend/Value.h"
#include "tracec/Tensor/Variable.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace tracec::distributed {

/// Initializes MPI (MPI_Init_thread, MPI_THREAD_SERIALIZED, as Python's
/// init) unless the program already has, and finalizes it at exit if it
/// initialized it. Call once, before running code with collectives.
llvm::Error init();

/// Whether MPI is initialized (by init() or by the program).
bool initialized();

/// This process's rank in MPI's world communicator (0 ... size() - 1), and
/// the number of processes: an error before init().
llvm::Expected<int> rank();
llvm::Expected<int> size();

/// Threads for a process's compiled code (CompileOptions::threads): the
/// cores it may run on where a launcher bound it (its CPU affinity), else
/// this machine's cores divided among its processes of the world (MPI's
/// shared-memory split), at least 1. Processes that each took every core
/// would oversubscribe them.
llvm::Expected<unsigned> threadsPerProcess();

/// In a traced function: each gradient all-reduced over the processes
/// (`op`: "mean", the default, or "sum", "max", "min"), as Horovod's
/// DistributedOptimizer and Python's all_reduce_gradients do; compiled
/// with the step; with `groups`, over each group's processes
/// (tracec::all_reduce). Throws TraceError as other ops do.
std::vector<Value>
allReduceGradients(llvm::ArrayRef<Value> gradients, llvm::StringRef op = "mean",
                   llvm::ArrayRef<std::vector<int64_t>> groups = {});

/// Every variable takes process `root`'s value (MPI_Bcast of its storage):
/// call once after init() so that every process starts from the same
/// weights. Every process must pass variables of the same dtypes and
/// shapes, in the same order.
llvm::Error broadcastVariables(llvm::ArrayRef<Variable *> variables,
                               int root = 0);

} // namespace tracec::distributed

#endif // TRACEC_DISTRIBUTED_DISTRIBUTED_H
