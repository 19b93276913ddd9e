//===- BufferCache.h - Reusing an AOT object's heap buffers across calls --===//
//
// Buffers whose size is only known at run time (`?` dims) are allocated by
// every call of the lowered code (static ones live in the planned
// workspace). With glibc, blocks of 128 KiB and more are mmap'ed and
// unmapped again at each free, so every call page-faulted them in: the
// `?`-batch MLP training step ran 10x slower than the static one at batch
// 256. The JIT binds the code's malloc/free to a caching allocator
// (Runtime/CallAllocator.cpp); an object file has no runtime to bind to,
// so the allocator is compiled into it (libc only).
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_AOT_BUFFERCACHE_H
#define TRACEC_LIB_AOT_BUFFERCACHE_H

#include "mlir/IR/BuiltinOps.h"

namespace tracec::aot {

/// In `module`, lowered to the LLVM dialect: makes the calls of `malloc`
/// and `free` call `tracec_aot_alloc` and `tracec_aot_free`, which it
/// defines (internal). Freed blocks of 4 KiB and more are kept in a cache
/// of 64 blocks shared by the object's threads (when full, the smallest
/// block goes), guarded by a try-lock: a thread that finds it taken uses
/// malloc/free directly and never waits. An allocation gets the smallest
/// cached block of its size to twice its size. A destructor of the object
/// frees the cache at exit (or dlclose). Nothing changes in a module that
/// does not call malloc, or that also calls another allocation function
/// of the C library (whose blocks `free` would be given).
mlir::LogicalResult cacheHeapBuffers(mlir::ModuleOp module);

} // namespace tracec::aot

#endif // TRACEC_LIB_AOT_BUFFERCACHE_H
