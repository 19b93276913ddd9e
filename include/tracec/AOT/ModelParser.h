//===- ModelParser.h - Parsing a model with its argument names ------------===//

#ifndef TRACEC_AOT_MODELPARSER_H
#define TRACEC_AOT_MODELPARSER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SourceMgr.h"

#include <string>
#include <vector>

namespace tracec::aot {

/// The argument names of each function as the source spells them: `%x` is
/// "x". The generated header names buffers after them.
using ArgumentNames = llvm::StringMap<std::vector<std::string>>;

/// Parses and verifies the main buffer of `sourceMgr`, recording the
/// argument names of every function; a module annotated with the shard
/// dialect becomes each process's program (partitionShards). Errors go to
/// the context's diagnostic handler; the result is null then.
mlir::OwningOpRef<mlir::ModuleOp> parseModel(llvm::SourceMgr &sourceMgr,
                                             mlir::MLIRContext *context,
                                             ArgumentNames &names);

} // namespace tracec::aot

#endif // TRACEC_AOT_MODELPARSER_H
