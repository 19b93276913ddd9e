//===- ObjectEmitter.h - Machine code of an AOT-compiled model ------------===//

#ifndef TRACEC_AOT_OBJECTEMITTER_H
#define TRACEC_AOT_OBJECTEMITTER_H

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

namespace tracec::aot {

/// Writes `module` (optimized LLVM IR for `machine`) as an object file or
/// as assembly.
llvm::Error emitMachineCode(llvm::Module &module, llvm::TargetMachine &machine,
                            llvm::CodeGenFileType kind,
                            llvm::raw_pwrite_stream &os);

} // namespace tracec::aot

#endif // TRACEC_AOT_OBJECTEMITTER_H
