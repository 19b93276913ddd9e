//===- EmptyTensorPerUse.cpp - One tensor.empty per use -------------------===//

#include "tracec/Transforms/Bufferization/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEEMPTYTENSORPERUSE
#include "tracec/Transforms/Bufferization/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {
struct EmptyTensorPerUsePass
    : mlir::trace::impl::TraceEmptyTensorPerUseBase<EmptyTensorPerUsePass> {
  void runOnOperation() override {
    SmallVector<tensor::EmptyOp> shared;
    getOperation()->walk([&](tensor::EmptyOp empty) {
      if (!empty->hasOneUse() && !empty->use_empty())
        shared.push_back(empty);
    });
    for (tensor::EmptyOp empty : shared) {
      SmallVector<OpOperand *> uses = llvm::map_to_vector(
          empty->getUses(), [](OpOperand &use) { return &use; });
      // The clones go right after the original: its size operands dominate
      // them, and they dominate every use the original did.
      OpBuilder builder(empty->getContext());
      builder.setInsertionPointAfter(empty);
      for (OpOperand *use : llvm::drop_begin(uses))
        use->set(builder.clone(*empty)->getResult(0));
    }
  }
};
} // namespace
