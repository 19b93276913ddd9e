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
      // Slices taken from the tensor and inserted back into it stay on
      // the original (else its first use): one buffer, each slice written
      // in place. Apart, every insert would be a copy.
      SmallVector<OpOperand *> others;
      bool slices = false;
      for (OpOperand &use : empty->getUses()) {
        if (isa<tensor::ExtractSliceOp, tensor::InsertSliceOp>(use.getOwner()))
          slices = true;
        else
          others.push_back(&use);
      }
      ArrayRef<OpOperand *> moved = others;
      if (!slices)
        moved = moved.drop_front();
      // The clones go right after the original: its size operands dominate
      // them, and they dominate every use the original did.
      OpBuilder builder(empty->getContext());
      builder.setInsertionPointAfter(empty);
      for (OpOperand *use : moved)
        use->set(builder.clone(*empty)->getResult(0));
    }
  }
};
} // namespace
