//===- Distributed.cpp - Data-parallel training on MPI from C++ -----------===//

#include "tracec/Distributed/Distributed.h"

#include "tracec/Frontend/Ops.h"

#include "llvm/Support/xxhash.h"

#include <mpi.h>

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string>

using namespace tracec;

namespace {

llvm::Error mpiError(llvm::StringRef what, int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS)
    length = 0;
  return llvm::createStringError("tracec::distributed: " + what + " failed: " +
                                 std::string(text, length > 0 ? length : 0));
}

llvm::Error notInitialized(llvm::StringRef what) {
  return llvm::createStringError("tracec::distributed::" + what +
                                 ": MPI is not initialized (call "
                                 "tracec::distributed::init() first)");
}

void finalizeAtExit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized)
    MPI_Finalize();
}

/// MPI's datatype for a tracec dtype's elements, or null.
MPI_Datatype datatypeOf(DType dtype) {
  switch (dtype) {
  case DType::f32:
    return MPI_FLOAT;
  case DType::f64:
    return MPI_DOUBLE;
  case DType::i32:
    return MPI_INT32_T;
  case DType::i64:
    return MPI_INT64_T;
  default:
    return MPI_DATATYPE_NULL;
  }
}

} // namespace

llvm::Error distributed::init() {
  if (initialized())
    return llvm::Error::success();
  int provided = 0;
  if (int code =
          MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided))
    return mpiError("MPI_Init_thread", code);
  std::atexit(finalizeAtExit);
  return llvm::Error::success();
}

bool distributed::initialized() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

/// MPI_Comm_rank or MPI_Comm_size (`query`, named `name`) of the world,
/// for the API function `function`.
static llvm::Expected<int> worldQuery(llvm::StringRef function,
                                      int (*query)(MPI_Comm, int *),
                                      llvm::StringRef name) {
  if (!distributed::initialized())
    return notInitialized(function);
  int value = 0;
  if (int code = query(MPI_COMM_WORLD, &value))
    return mpiError(name, code);
  return value;
}

llvm::Expected<int> distributed::rank() {
  return worldQuery("rank", MPI_Comm_rank, "MPI_Comm_rank");
}

llvm::Expected<int> distributed::size() {
  return worldQuery("size", MPI_Comm_size, "MPI_Comm_size");
}

llvm::Expected<unsigned> distributed::threadsPerProcess() {
  if (!initialized())
    return notInitialized("threadsPerProcess");
  long machine = sysconf(_SC_NPROCESSORS_ONLN);
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    long mine = CPU_COUNT(&set);
    if (mine < machine) // a launcher bound this process
      return static_cast<unsigned>(mine);
  }
  MPI_Comm local;
  if (int code = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                                     MPI_INFO_NULL, &local))
    return mpiError("MPI_Comm_split_type", code);
  int processes = 1;
  MPI_Comm_size(local, &processes);
  MPI_Comm_free(&local);
  return static_cast<unsigned>(std::max(1L, machine / processes));
}

std::vector<Value>
distributed::allReduceGradients(llvm::ArrayRef<Value> gradients,
                                llvm::StringRef op,
                                llvm::ArrayRef<std::vector<int64_t>> groups) {
  std::vector<Value> reduced;
  reduced.reserve(gradients.size());
  for (const Value &gradient : gradients)
    reduced.push_back(all_reduce(gradient, op, groups));
  return reduced;
}

llvm::Error
distributed::broadcastVariables(llvm::ArrayRef<Variable *> variables,
                                int root) {
  llvm::Expected<int> processes = size();
  if (!processes)
    return processes.takeError();
  if (root < 0 || root >= *processes)
    return llvm::createStringError(
        "tracec::distributed::broadcastVariables: root " +
        std::to_string(root) + " is not a rank of the world's " +
        std::to_string(*processes) + " processes");
  // Processes that pass different types would broadcast mismatched counts
  // (an MPI error or a hang): they all fail here instead.
  std::string types;
  for (Variable *variable : variables)
    types += variable->buffer().typeString() + " ";
  int64_t signature = static_cast<int64_t>(llvm::xxh3_64bits(types) >> 1);
  int64_t mine[2] = {signature, -signature}, agreed[2];
  if (int code =
          MPI_Allreduce(mine, agreed, 2, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD))
    return mpiError("MPI_Allreduce", code);
  if (agreed[0] != signature || -agreed[1] != signature)
    return llvm::createStringError(
        "tracec::distributed::broadcastVariables: the processes passed "
        "variables of different types (this process: " +
        types + ")");
  for (Variable *variable : variables) {
    const Tensor &buffer = variable->buffer();
    MPI_Datatype datatype = datatypeOf(buffer.dtype());
    if (datatype == MPI_DATATYPE_NULL)
      return llvm::createStringError(
          "tracec::distributed::broadcastVariables: a variable of " +
          buffer.typeString() + " (f32, f64, i32 and i64 only)");
    if (buffer.numElements() > INT32_MAX)
      return llvm::createStringError(
          "tracec::distributed::broadcastVariables: a variable of " +
          buffer.typeString() + " has more elements than one MPI call takes");
    auto lock = variable->lock();
    // The storage is shared with the variable (a call updates it in place).
    if (int code = MPI_Bcast(const_cast<void *>(buffer.rawData()),
                             static_cast<int>(buffer.numElements()), datatype,
                             root, MPI_COMM_WORLD))
      return mpiError("MPI_Bcast", code);
  }
  return llvm::Error::success();
}
