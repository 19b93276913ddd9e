//===- ReadOnlyInputs.cpp - Protect the caller's input buffers ------------===//

#include "tracec/Transforms/Bufferization/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEREADONLYINPUTS
#include "tracec/Transforms/Bufferization/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {
struct ReadOnlyInputsPass
    : mlir::trace::impl::TraceReadOnlyInputsBase<ReadOnlyInputsPass> {
  void runOnOperation() override {
    Builder builder(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isPrivate() || func.isExternal())
        continue;
      for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
        if (isa<TensorType>(type))
          func.setArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName,
                          builder.getBoolAttr(false));
    }
  }
};
} // namespace
