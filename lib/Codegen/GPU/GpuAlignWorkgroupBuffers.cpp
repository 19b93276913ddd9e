//===- GpuAlignWorkgroupBuffers.cpp - 16-byte aligned shared memory -------===//

#include "tracec/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEGPUALIGNWORKGROUPBUFFERS
#include "tracec/Codegen/GPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {
/// The widest shared-memory access a kernel makes: a 16-byte cp.async or
/// an ldmatrix row.
constexpr int64_t kAlignment = 16;

struct GpuAlignWorkgroupBuffersPass
    : mlir::trace::impl::TraceGpuAlignWorkgroupBuffersBase<
          GpuAlignWorkgroupBuffersPass> {
  void runOnOperation() override {
    gpu::GPUFuncOp kernel = getOperation();
    StringRef align = LLVM::LLVMDialect::getAlignAttrName();
    for (unsigned i = 0; i < kernel.getNumWorkgroupAttributions(); ++i)
      if (!kernel.getWorkgroupAttributionAttr(i, align))
        kernel.setWorkgroupAttributionAttr(
            i, align,
            IntegerAttr::get(IntegerType::get(&getContext(), 64), kAlignment));
  }
};
} // namespace
