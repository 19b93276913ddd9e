//===- LazyWorkspace.h - Workspaces allocated by the first call -----------===//
//
// trace-plan-workspace puts a function's intermediates in one zeroed global
// (.bss). The JIT's linker zero-fills .bss when it loads an object, page by
// page: for a CNN's 23 MB that was most of loading it from the compile
// cache. In the JIT the workspace is therefore a pointer, filled by the
// first call (aligned_alloc: fresh pages, touched only when used) and
// freed by a function the JIT calls when it unloads the code. AOT objects
// keep their .bss, which an operating system maps lazily for free.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_TARGET_CPU_LAZYWORKSPACE_H
#define TRACEC_TARGET_CPU_LAZYWORKSPACE_H

#include "llvm/IR/Module.h"

namespace tracec {

/// The function allocateWorkspacesOnFirstUse defines: `void()`, frees every
/// workspace the calls allocated. Not thread safe with calls in flight.
inline constexpr const char kReleaseWorkspacesSymbol[] =
    "__trace_release_workspaces";

/// Replaces each workspace global of `module` by a pointer the first call
/// of a function using it allocates (atomically: concurrent first calls
/// agree on one allocation), and defines kReleaseWorkspacesSymbol. Returns
/// whether the module had workspaces.
bool allocateWorkspacesOnFirstUse(llvm::Module &module);

} // namespace tracec

#endif // TRACEC_TARGET_CPU_LAZYWORKSPACE_H
