//===- GradientModels.h - External-model templates for the rules ----------===//
//
// A rule is a plain function; these templates turn it into the
// DifferentiableOpInterface model of an op, reverse (emitAdjoint) and
// forward (emitTangent) mode from the one rule where the math allows. Each op
// family's file ends with a register...Gradients function that attaches its
// rules.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_DIALECT_TRACE_GRADIENTS_GRADIENTMODELS_H
#define TRACEC_LIB_DIALECT_TRACE_GRADIENTS_GRADIENTMODELS_H

#include "GradientBuilder.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <utility>

namespace mlir::trace {

/// dx from (x, y, dy); a null result means no gradient (zero).
using UnaryRule = Value (*)(GradientBuilder &g, Value x, Value y, Value dy);

/// The cotangents of a binary op's two operands, at the result's shape.
using Cotangents = std::pair<Value, Value>;
using BinaryRule = Cotangents (*)(GradientBuilder &g, Value a, Value b,
                                  Value y, Value dy);

/// An elementwise unary op has a diagonal Jacobian, so the rule applied to
/// the input's tangent (instead of the output's cotangent) is the output's
/// tangent. `TangentRule` differs from `Rule` only where the rule is not a
/// plain product with the Jacobian (cast: the tangent takes the result's
/// element type, the cotangent the input's).
template <typename OpTy, UnaryRule Rule, UnaryRule TangentRule = Rule>
struct UnaryGradient : DifferentiableOpInterface::ExternalModel<
                           UnaryGradient<OpTy, Rule, TangentRule>, OpTy> {
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    Value tx = state.tangent(op->getOperand(0));
    if (!tx)
      return success();
    GradientBuilder g(builder, op->getLoc());
    Value ty = TangentRule(g, state.primal(op->getOperand(0)),
                           state.primal(op->getResult(0)), tx);
    return ty ? state.setTangent(op->getResult(0), ty) : success();
  }

  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    GradientBuilder g(builder, op->getLoc());
    Value dx = Rule(g, state.primal(op->getOperand(0)),
                    state.primal(op->getResult(0)),
                    state.cotangent(op->getResult(0)));
    return dx ? state.accumulate(op->getOperand(0), dx) : success();
  }
};

/// The rules are linear in dy and elementwise, so each operand's part of the
/// tangent is the rule applied to that operand's tangent (broadcast against
/// the other operands by the rule's own elementwise ops):
///   ty = Rule(a, b, y, ta).first + Rule(a, b, y, tb).second.
template <typename OpTy, BinaryRule Rule>
struct BinaryGradient
    : DifferentiableOpInterface::ExternalModel<BinaryGradient<OpTy, Rule>,
                                               OpTy> {
  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    GradientBuilder g(builder, op->getLoc());
    Value a = op->getOperand(0), b = op->getOperand(1);
    Value pa = state.primal(a), pb = state.primal(b);
    Value y = state.primal(op->getResult(0));
    Value ty;
    if (Value ta = state.tangent(a))
      ty = Rule(g, pa, pb, y, ta).first;
    if (Value tb = state.tangent(b)) {
      Value part = Rule(g, pa, pb, y, tb).second;
      if (part)
        ty = ty ? g.add(ty, part) : part;
    }
    if (!ty)
      return success();
    return state.setTangent(op->getResult(0), g.fitTo(ty, y));
  }

  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    GradientBuilder g(builder, op->getLoc());
    Value a = op->getOperand(0), b = op->getOperand(1);
    auto [da, db] = Rule(g, state.primal(a), state.primal(b),
                         state.primal(op->getResult(0)),
                         state.cotangent(op->getResult(0)));
    if (da && failed(state.accumulate(a, g.unbroadcast(da, a.getType()))))
      return failure();
    if (db && failed(state.accumulate(b, g.unbroadcast(db, b.getType()))))
      return failure();
    return success();
  }
};

/// The tangent of an op that is linear in each group of its operands
/// separately (matmul and conv2d are bilinear: groups {lhs}, {rhs}; concat is
/// linear in all its inputs jointly: one group): for each group with a
/// tangent, the op applied to that group's tangents (zeros for its operands
/// without one) and the other operands' primal values; the results summed
/// over the groups. Operands in no group (indices, `like` shapes) keep their
/// primal values. `adjust` fixes up each re-applied op (pad's padding value
/// becomes 0: pad is affine, its tangent pads with zeros).
LogicalResult
emitMultilinearTangent(Operation *op, OpBuilder &builder, TangentState &state,
                       ArrayRef<SmallVector<unsigned>> groups,
                       llvm::function_ref<void(Operation *)> adjust = {});

/// emitMultilinearTangent for an op linear in the one operand `operand`.
inline LogicalResult emitLinearTangent(Operation *op, OpBuilder &builder,
                                       TangentState &state, Value operand) {
  for (OpOperand &use : op->getOpOperands())
    if (use.get() == operand)
      return emitMultilinearTangent(op, builder, state,
                                    {{use.getOperandNumber()}});
  return failure();
}

} // namespace mlir::trace

namespace mlir::scf {
class IfOp;
class ForOp;
class WhileOp;
} // namespace mlir::scf

namespace mlir::trace {

/// The tangent rules of the region ops (ControlFlowTangents.cpp): each
/// rebuilds the op to compute primal and tangent values together.
LogicalResult emitIfTangent(scf::IfOp op, OpBuilder &builder,
                            TangentState &state);
LogicalResult emitForTangent(scf::ForOp op, OpBuilder &builder,
                             TangentState &state);
LogicalResult emitWhileTangent(scf::WhileOp op, OpBuilder &builder,
                               TangentState &state);

void registerBarrierGradients(MLIRContext *context);
void registerCallGradients(MLIRContext *context);
void registerCollectiveGradients(MLIRContext *context);
void registerControlFlowGradients(MLIRContext *context);
void registerElementwiseGradients(MLIRContext *context);
void registerMatmulGradients(MLIRContext *context);
void registerConvPoolGradients(MLIRContext *context);
void registerReductionGradients(MLIRContext *context);
void registerShapeGradients(MLIRContext *context);
void registerStateGradients(MLIRContext *context);
void registerTensorGradients(MLIRContext *context);
void registerWhileGradients(MLIRContext *context);

} // namespace mlir::trace

#endif // TRACEC_LIB_DIALECT_TRACE_GRADIENTS_GRADIENTMODELS_H
