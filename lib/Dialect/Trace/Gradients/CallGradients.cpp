//===- CallGradients.cpp - The rule of func.call --------------------------===//
//
// A call is differentiated through its callee: the primal sweep calls the
// callee's forward function (keeping its residuals), the adjoint sweep
// calls its backward function. Each callee is differentiated once, however
// many calls it has. Forward mode calls the callee's __jvp function with
// respect to the operands that have tangents, in place of the call.
//
//===----------------------------------------------------------------------===//

#include "GradientModels.h"

#include "tracec/Dialect/Trace/IR/DifferentiationAttributes.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

func::FuncOp calleeOf(func::CallOp call) {
  return SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
}

bool hasGradientPath(func::CallOp call) {
  return llvm::any_of(call.getOperandTypes(), carriesGradient) &&
         llvm::any_of(call.getResultTypes(), carriesGradient);
}

struct CallGradient
    : DifferentiableOpInterface::ExternalModel<CallGradient, func::CallOp> {
  LogicalResult emitPrimal(Operation *op, OpBuilder &builder,
                           AdjointState &state) const {
    auto call = cast<func::CallOp>(op);
    if (!hasGradientPath(call))
      return state.clonePrimal(op, builder);
    func::FuncOp callee = calleeOf(call);
    if (!callee)
      return call.emitOpError("cannot differentiate a call of ")
             << call.getCalleeAttr() << ": no such function";
    FailureOr<GradientFunctions> fns = state.differentiate(callee);
    if (failed(fns))
      return call.emitOpError("cannot differentiate the call of ")
             << call.getCalleeAttr();
    SmallVector<Value> args;
    for (Value operand : call.getOperands())
      args.push_back(state.primal(operand));
    auto forward =
        func::CallOp::create(builder, call.getLoc(), fns->forward, args);
    ValueRange primals = forward.getResults();
    // A function with a custom VJP: its results are those of a call of the
    // function itself, so a derivative of this code (a higher order) uses
    // the rule for them, as TensorFlow and JAX do; the forward rule's call
    // gives the residuals. trace-autodiff makes that call the forward
    // rule's results once every gradient is built.
    if (getCustomVjp(callee)) {
      auto primal = func::CallOp::create(builder, call.getLoc(), callee, args);
      primal->setAttr(kCustomVjpPrimalAttrName, builder.getUnitAttr());
      primals = primal.getResults();
    }
    for (auto [result, value] : llvm::zip(call.getResults(), primals))
      state.setPrimal(result, value);
    state.save(op, forward.getResults().drop_front(call.getNumResults()));
    return success();
  }

  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto call = cast<func::CallOp>(op);
    if (!hasGradientPath(call))
      return success();
    func::FuncOp callee = calleeOf(call);
    FailureOr<GradientFunctions> fns = state.differentiate(callee);
    if (failed(fns))
      return failure();
    SmallVector<Value> args(state.saved(op));
    GradientBuilder g(builder, call.getLoc());
    // The backward function takes a cotangent for every float result; one
    // that nothing flowed into is zero.
    for (Value result : call.getResults()) {
      if (!carriesGradient(result.getType()))
        continue;
      Value ct = state.cotangent(result);
      if (!ct) {
        auto type = cast<RankedTensorType>(result.getType());
        ct = ConstantOp::create(builder, call.getLoc(),
                                DenseElementsAttr::get(
                                    type, builder.getZeroAttr(
                                              type.getElementType())));
      }
      args.push_back(ct);
    }
    auto backward =
        func::CallOp::create(builder, call.getLoc(), fns->backward, args);
    for (auto [index, grad] : llvm::zip(fns->wrt, backward.getResults()))
      if (failed(state.accumulate(call.getOperand(index), grad)))
        return failure();
    return success();
  }

  LogicalResult emitTangent(Operation *op, OpBuilder &builder,
                            TangentState &state) const {
    auto call = cast<func::CallOp>(op);
    func::FuncOp callee = calleeOf(call);
    if (!callee)
      return call.emitOpError("cannot differentiate a call of ")
             << call.getCalleeAttr() << ": no such function";
    SmallVector<int64_t> wrt;
    SmallVector<Value> args;
    for (Value operand : call.getOperands())
      args.push_back(state.primal(operand));
    for (auto [i, operand] : llvm::enumerate(call.getOperands()))
      if (Value tangent = state.tangent(operand)) {
        wrt.push_back(i);
        args.push_back(tangent);
      }
    FailureOr<func::FuncOp> jvp = state.jvp(callee, wrt);
    if (failed(jvp))
      return call.emitOpError("cannot differentiate the call of ")
             << call.getCalleeAttr() << " in forward mode";
    auto combined = func::CallOp::create(builder, call.getLoc(), *jvp, args);
    unsigned numResults = call.getNumResults();
    state.replacePrimal(op, combined.getResults().take_front(numResults));
    // __jvp returns one tangent per float result, in order. One the callee
    // returns as a zero constant (a result no tangent reaches) stays a
    // symbolic zero here, as in JAX: no tangent, so no work downstream (a
    // Hessian-vector product would otherwise multiply the zero tangent of
    // each saved input through the backward sweep's matmuls).
    auto returned = cast<func::ReturnOp>(jvp->getBody().front().getTerminator())
                        .getOperands()
                        .drop_front(numResults);
    ValueRange tangents = combined.getResults().drop_front(numResults);
    for (Value result : call.getResults()) {
      if (!carriesTangent(result.getType()))
        continue;
      Value tangent = tangents.front();
      bool symbolicZero = matchPattern(returned.front(), m_AnyZeroFloat());
      returned = returned.drop_front();
      tangents = tangents.drop_front();
      if (!symbolicZero && failed(state.setTangent(result, tangent)))
        return failure();
    }
    return success();
  }
};

} // namespace

void mlir::trace::registerCallGradients(MLIRContext *context) {
  func::CallOp::attachInterface<CallGradient>(*context);
}
