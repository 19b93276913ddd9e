//===- StateOps.cpp - Variables as resource arguments ---------------------===//

#include "Tracer.h"

#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "tracec/Frontend/Ops.h"
#include "tracec/Frontend/State.h"

using namespace tracec;
using namespace tracec::detail;
namespace trace = mlir::trace;

Value tracec::read(Variable &variable) {
  FunctionState *function = currentScope().function;
  if (function->hoistReads) {
    // The value is an argument; each caller reads it just before the call.
    mlir::Value &argument = function->readArguments[&variable];
    if (!argument) {
      const Tensor &buffer = variable.buffer();
      argument = function->entry().addArgument(
          tensorType(buffer.shape(), buffer.dtype()), location());
      ExtraArgument extra{ArgumentInfo::Kind::variable, std::nullopt,
                          &variable, {}};
      extra.readValue = true;
      function->extras.push_back(extra);
    }
    return wrap(argument);
  }
  mlir::Value resource = variableArgument(variable);
  return wrap(createOp(trace::VarReadOp::getOperationName(), resource, {},
                       std::nullopt, /*numResults=*/2)
                  ->getResult(0));
}

static void update(llvm::StringRef name, Variable &variable,
                   const Value &value) {
  resolve(value);
  const Tensor &buffer = variable.buffer();
  Value converted = castTo(value, buffer.dtype());
  if (converted.shape() != buffer.shape())
    converted = broadcast_to(converted, buffer.shape());
  mlir::Value resource = variableArgument(variable);
  mlir::Type control = trace::ControlType::get(&context());
  createOp(name, {resource, resolve(converted)}, {},
           llvm::ArrayRef<mlir::Type>{control});
}

void tracec::assign(Variable &variable, const Value &value) {
  update(trace::VarAssignOp::getOperationName(), variable, value);
}
void tracec::assign_add(Variable &variable, const Value &value) {
  update(trace::VarAssignAddOp::getOperationName(), variable, value);
}
void tracec::assign_sub(Variable &variable, const Value &value) {
  update(trace::VarAssignSubOp::getOperationName(), variable, value);
}

void tracec::assign(Variable &variable, Scalar value) {
  assign(variable, splat(value.value, variable.buffer().dtype(), {}));
}
void tracec::assign_add(Variable &variable, Scalar value) {
  assign_add(variable, splat(value.value, variable.buffer().dtype(), {}));
}
void tracec::assign_sub(Variable &variable, Scalar value) {
  assign_sub(variable, splat(value.value, variable.buffer().dtype(), {}));
}
