//===- GpuExternDynamicShared.cpp - Dynamic shared memory as .extern ------===//

#include "tracec/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEGPUEXTERNDYNAMICSHARED
#include "tracec/Codegen/GPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {
struct GpuExternDynamicSharedPass
    : mlir::trace::impl::TraceGpuExternDynamicSharedBase<
          GpuExternDynamicSharedPass> {
  void runOnOperation() override {
    getOperation().walk([](LLVM::GlobalOp global) {
      auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
      if (global.getAddrSpace() != NVVM::NVVMMemorySpace::Shared || !array ||
          array.getNumElements() != 0)
        return;
      global.setLinkage(LLVM::Linkage::External);
      // A declaration: no initializer, visible to the PTX loader.
      global.removeValueAttr();
      global.setVisibility(SymbolTable::Visibility::Public);
    });
  }
};
} // namespace
