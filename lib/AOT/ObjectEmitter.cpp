//===- ObjectEmitter.cpp - Machine code of an AOT-compiled model ----------===//

#include "tracec/AOT/ObjectEmitter.h"

#include "llvm/IR/LegacyPassManager.h"

llvm::Error tracec::aot::emitMachineCode(llvm::Module &module,
                                         llvm::TargetMachine &machine,
                                         llvm::CodeGenFileType kind,
                                         llvm::raw_pwrite_stream &os) {
  // LLVM's code generator still runs on the legacy pass manager.
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, os, /*DwoOut=*/nullptr, kind))
    return llvm::createStringError("the target cannot emit this file type");
  passes.run(module);
  return llvm::Error::success();
}
