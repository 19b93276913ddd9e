//===- MatmulGradients.cpp - The rule of matmul ---------------------------===//
//
// For y = a @ b: da = dy @ b^T, db = a^T @ dy — with the operands' own
// transpose flags folded in, and broadcast batch dims summed away. Forward:
// dy = da @ b + a @ db (LinearTangents.cpp).
//
//===----------------------------------------------------------------------===//

#include "GradientModels.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

struct MatmulGradient
    : DifferentiableOpInterface::ExternalModel<MatmulGradient, MatmulOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto matmul = cast<MatmulOp>(op);
    GradientBuilder g(builder, op->getLoc());
    Value a = state.primal(matmul.getLhs()), b = state.primal(matmul.getRhs());
    Value dy = state.cotangent(matmul.getResult());
    bool ta = matmul.getTransposeA(), tb = matmul.getTransposeB();
    auto product = [&](Value x, Value y, bool tx, bool ty) {
      return MatmulOp::create(builder, g.loc, x, y, tx, ty).getResult();
    };
    // y = op(a) @ op(b) with op = transpose when the flag is set.
    Value da = ta ? product(b, dy, tb, true) : product(dy, b, false, !tb);
    Value db = tb ? product(dy, a, true, ta) : product(a, dy, !ta, false);
    if (failed(state.accumulate(matmul.getLhs(),
                                g.unbroadcast(da, matmul.getLhs().getType()))))
      return failure();
    return state.accumulate(matmul.getRhs(),
                            g.unbroadcast(db, matmul.getRhs().getType()));
  }
  /// Bilinear: dy = da @ b + a @ db.
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    return emitMultilinearTangent(op, builder, state, {{0}, {1}});
  }
};

} // namespace

void mlir::trace::registerMatmulGradients(MLIRContext *context) {
  MatmulOp::attachInterface<MatmulGradient>(*context);
}
