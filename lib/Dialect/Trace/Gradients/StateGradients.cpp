//===- StateGradients.cpp - The rule of trace.var.read --------------------===//
//
// TensorFlow's implicit gradients: a variable's gradient is the sum of the
// gradients of the values read from it. Each read is a leaf of the
// computation — the backward code uses the value the forward read (a
// residual), never the variable's contents at a later time — and the
// assigns carry no gradient, so a read after an assign contributes the
// gradient of what it read.
//
//===----------------------------------------------------------------------===//

#include "GradientModels.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

struct VarReadGradient
    : DifferentiableOpInterface::ExternalModel<VarReadGradient, VarReadOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto read = cast<VarReadOp>(op);
    Value ct = state.cotangent(read.getValue());
    return ct ? state.accumulate(read.getResource(), ct) : success();
  }
};

} // namespace

void mlir::trace::registerStateGradients(MLIRContext *context) {
  VarReadOp::attachInterface<VarReadGradient>(*context);
}
