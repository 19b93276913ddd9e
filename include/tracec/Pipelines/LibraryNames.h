//===- LibraryNames.h - Functions named like C library symbols ------------===//
//
// Lowered code calls the C library by name: f64 math becomes libm's `exp`,
// deallocation libc's `free`. A function of the module with such a name
// would capture those calls (its own `exp` op then calls itself), so the
// compilers rename it first and keep the old name for the caller.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_PIPELINES_LIBRARYNAMES_H
#define TRACEC_PIPELINES_LIBRARYNAMES_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace tracec {

/// Renames every function defined in `module` whose name is a symbol of the
/// C library (any symbol the process can resolve: libc, libm), updating its
/// uses. Returns the new name of each renamed function, by old name.
llvm::StringMap<std::string> renameLibraryNameClashes(mlir::ModuleOp module);

} // namespace tracec

#endif // TRACEC_PIPELINES_LIBRARYNAMES_H
