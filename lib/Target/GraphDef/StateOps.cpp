//===- StateOps.cpp - TF resource and reference variables ------------------===//
//
// A VarHandleOp becomes a `!trace.resource` argument of the function (one
// per shared_name): tracec's variables live outside the function, passed in
// by the caller. Reads and updates are the dialect's stateful ops; they take
// the node's control inputs as `after` tokens and yield the node's token.
//
// TF1's reference variables (VariableV2, Variable) are the same resource
// arguments. Their output is a reference: the importer reads it where a
// value is used (an Identity, or any op: TF1's implicit dereference), and
// Assign/AssignAdd/AssignSub update it and output the reference again,
// which is read after the update.
//
//===----------------------------------------------------------------------===//

#include "NodeBuilder.h"

#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;
using namespace tracec::graphdef;
namespace trace = mlir::trace;

static NodeResults varHandle(NodeBuilder &b) {
  FailureOr<Type> dtype = b.typeAttr("dtype");
  if (failed(dtype))
    return failure();
  const tf::AttrValue *shape = b.attr("shape");
  if (!shape || shape->value_case() != tf::AttrValue::kShape)
    return b.error() << "missing shape attribute 'shape'";
  FailureOr<RankedTensorType> type =
      convertShape(shape->shape(), *dtype, b.loc, "the variable");
  if (failed(type))
    return failure();
  FailureOr<std::string> sharedName = b.stringAttr("shared_name", "");
  if (failed(sharedName))
    return failure();
  std::string name = sharedName->empty() ? b.node.name() : *sharedName;
  FailureOr<Value> arg = b.scope.variableArgument(
      name, b.node.name(), trace::ResourceType::get(b.context(), *type),
      b.loc);
  if (failed(arg))
    return failure();
  return SmallVector<Value>{*arg};
}

static FailureOr<trace::ResourceType> resourceInput(NodeBuilder &b) {
  auto type = dyn_cast<trace::ResourceType>(b.inputs[0].getType());
  if (!type)
    return b.error() << "input 0 must be a resource (a VarHandleOp, a "
                        "VariableV2 or a resource argument), got "
                     << b.inputs[0].getType();
  return type;
}

static NodeResults readVariable(NodeBuilder &b) {
  if (failed(b.checkInputs(1)) || failed(resourceInput(b)))
    return failure();
  SmallVector<Value> operands{b.inputs[0]};
  operands.append(b.after);
  FailureOr<Operation *> op =
      b.createOp(trace::VarReadOp::getOperationName(), operands, {}, 2);
  if (failed(op))
    return failure();
  b.token = (*op)->getResult(1);
  return SmallVector<Value>{(*op)->getResult(0)};
}

template <typename OpTy> static NodeResults updateVariable(NodeBuilder &b) {
  if (failed(b.checkInputs(2)))
    return failure();
  FailureOr<trace::ResourceType> resource = resourceInput(b);
  if (failed(resource))
    return failure();
  if (b.inputs[1].getType() != resource->getValueType())
    return b.error() << "the value's type " << b.inputs[1].getType()
                     << " is not the variable's " << resource->getValueType();
  FailureOr<Operation *> op = b.build<OpTy>(b.inputs[0], b.inputs[1], b.after);
  if (failed(op))
    return failure();
  b.token = (*op)->getResult(0);
  return SmallVector<Value>{};
}

static NodeResults refVariable(NodeBuilder &b) {
  if (failed(b.checkInputs(0)))
    return failure();
  b.refOutput = true;
  return varHandle(b);
}

template <typename OpTy> static NodeResults assignRef(NodeBuilder &b) {
  if (failed(updateVariable<OpTy>(b)))
    return failure();
  b.refOutput = true;
  return SmallVector<Value>{b.inputs[0]};
}

void tracec::graphdef::registerStateOps(OpRegistry &registry) {
  OpMapping assign{assignRef<trace::VarAssignOp>};
  OpMapping assignAdd{assignRef<trace::VarAssignAddOp>};
  OpMapping assignSub{assignRef<trace::VarAssignSubOp>};
  for (OpMapping *m : {&assign, &assignAdd, &assignSub})
    m->refInput = m->takesResources = true;
  registry.insert({
      {"VariableV2", {refVariable}},
      {"Variable", {refVariable}},
      {"Assign", assign},
      {"AssignAdd", assignAdd},
      {"AssignSub", assignSub},
      {"VarHandleOp", {varHandle}},
      {"ReadVariableOp", takingResources(readVariable)},
      {"AssignVariableOp",
       takingResources(updateVariable<trace::VarAssignOp>)},
      {"AssignAddVariableOp",
       takingResources(updateVariable<trace::VarAssignAddOp>)},
      {"AssignSubVariableOp",
       takingResources(updateVariable<trace::VarAssignSubOp>)},
  });
}
