//===- CallAllocator.h - malloc/free for JIT-compiled code ----------------===//
//
// Buffers whose size is only known at run time (dynamic dims) are
// allocated by every call: with glibc, large blocks are mmap'ed and
// returned to the system at each free, so each call pays page faults for
// all of them (the dynamic-batch MLP training step ran 6x slower than the
// static one, whose buffers live in a planned workspace). Compiled code
// calls these instead of the C library's: large freed blocks are kept in a
// small per-thread cache and handed back to the next call that asks for as
// much (and not more than twice as much). Only compiled code allocates and
// frees with them, so a block never meets the C library's free.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_RUNTIME_CALLALLOCATOR_H
#define TRACEC_LIB_RUNTIME_CALLALLOCATOR_H

#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"

namespace tracec {

/// malloc, calloc, realloc, aligned_alloc, posix_memalign and free for
/// compiled code, as symbols to define in its JIT dylib.
void addCallAllocatorSymbols(llvm::orc::MangleAndInterner &interner,
                             llvm::orc::SymbolMap &symbols);

} // namespace tracec

#endif // TRACEC_LIB_RUNTIME_CALLALLOCATOR_H
