//===- GradientModels.h - External-model templates for the rules ----------===//
//
// A rule is a plain function; these templates turn it into the
// DifferentiableOpInterface model of an op. Each op family's file ends with
// a register...Gradients function that attaches its rules.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_DIALECT_TRACE_GRADIENTS_GRADIENTMODELS_H
#define TRACEC_LIB_DIALECT_TRACE_GRADIENTS_GRADIENTMODELS_H

#include "GradientBuilder.h"

#include <utility>

namespace mlir::trace {

/// dx from (x, y, dy); a null result means no gradient (zero).
using UnaryRule = Value (*)(GradientBuilder &g, Value x, Value y, Value dy);

/// The cotangents of a binary op's two operands, at the result's shape.
using Cotangents = std::pair<Value, Value>;
using BinaryRule = Cotangents (*)(GradientBuilder &g, Value a, Value b,
                                  Value y, Value dy);

template <typename OpTy, UnaryRule Rule>
struct UnaryGradient
    : DifferentiableOpInterface::ExternalModel<UnaryGradient<OpTy, Rule>,
                                               OpTy> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    GradientBuilder g(builder, op->getLoc());
    Value dx = Rule(g, state.primal(op->getOperand(0)),
                    state.primal(op->getResult(0)),
                    state.cotangent(op->getResult(0)));
    return dx ? state.accumulate(op->getOperand(0), dx) : success();
  }
};

template <typename OpTy, BinaryRule Rule>
struct BinaryGradient
    : DifferentiableOpInterface::ExternalModel<BinaryGradient<OpTy, Rule>,
                                               OpTy> {
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

void registerCallGradients(MLIRContext *context);
void registerControlFlowGradients(MLIRContext *context);
void registerElementwiseGradients(MLIRContext *context);
void registerMatmulGradients(MLIRContext *context);
void registerNeuralNetGradients(MLIRContext *context);
void registerReductionGradients(MLIRContext *context);
void registerShapeGradients(MLIRContext *context);
void registerStateGradients(MLIRContext *context);
void registerTensorGradients(MLIRContext *context);
void registerWhileGradients(MLIRContext *context);

} // namespace mlir::trace

#endif // TRACEC_LIB_DIALECT_TRACE_GRADIENTS_GRADIENTMODELS_H
