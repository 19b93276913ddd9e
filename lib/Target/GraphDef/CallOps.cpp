//===- CallOps.cpp - TF function calls, functional control flow, gradients ===//
//
// Every op here refers to functions of the library by name: they are
// instantiated for the operands' types (FunctionScope::instantiate) and
// called with func.call. If/While become scf.if/scf.while whose regions call
// the branch, condition and body functions; SymbolicGradient becomes
// trace.vjp of its function, so the compiler's autodiff differentiates it.
//
//===----------------------------------------------------------------------===//

#include "NodeBuilder.h"

#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace tracec::graphdef;
namespace trace = mlir::trace;

/// The function named by attribute `attrName` (a `func` attr).
static FailureOr<std::string> functionAttr(NodeBuilder &b,
                                           StringRef attrName) {
  const tf::AttrValue *f = b.attr(attrName);
  if (!f || f->value_case() != tf::AttrValue::kFunc)
    return b.error() << "missing function attribute '" << attrName << "'";
  return f->func().name();
}

/// Library function `name` instantiated for `args`' types.
static FailureOr<func::FuncOp> callee(NodeBuilder &b, StringRef name,
                                      ValueRange args) {
  FailureOr<func::FuncOp> f =
      b.scope.instantiate(name, args.getTypes(), b.loc);
  if (failed(f))
    return failure();
  if (TypeRange(f->getFunctionType().getInputs()) != args.getTypes())
    return b.error() << "function '" << name << "' takes arguments ("
                     << f->getFunctionType().getInputs() << "), got ("
                     << args.getTypes() << ")";
  return f;
}

/// A call of library function `name` on the node's inputs.
static NodeResults callFunction(NodeBuilder &b, StringRef name) {
  FailureOr<func::FuncOp> f = callee(b, name, b.inputs);
  if (failed(f))
    return failure();
  auto call = func::CallOp::create(b.builder, b.loc, *f, b.inputs);
  return SmallVector<Value>(call.getResults());
}

static NodeResults partitionedCall(NodeBuilder &b) {
  FailureOr<std::string> f = functionAttr(b, "f");
  if (failed(f))
    return failure();
  return callFunction(b, *f);
}

NodeResults tracec::graphdef::buildDirectCall(NodeBuilder &b) {
  return callFunction(b, b.node.op());
}

/// A rank-0 bool tensor as an i1 (what scf wants).
static FailureOr<Value> predicate(NodeBuilder &b, Value cond,
                                  StringRef what) {
  auto type = dyn_cast<RankedTensorType>(cond.getType());
  if (!type || type.getRank() != 0 || !type.getElementType().isInteger(1))
    return b.error() << what << " must be a scalar bool (tensor<i1>), got "
                     << cond.getType();
  return tensor::ExtractOp::create(b.builder, b.loc, cond, ValueRange{})
      .getResult();
}

/// If/StatelessIf: scf.if whose branches call then_branch/else_branch.
static NodeResults ifOp(NodeBuilder &b) {
  if (failed(b.checkInputs(1, ~0u)))
    return failure();
  FailureOr<std::string> thenName = functionAttr(b, "then_branch");
  FailureOr<std::string> elseName = functionAttr(b, "else_branch");
  if (failed(thenName) || failed(elseName))
    return failure();
  ValueRange args = ValueRange(b.inputs).drop_front();
  FailureOr<func::FuncOp> thenFn = callee(b, *thenName, args);
  FailureOr<func::FuncOp> elseFn = callee(b, *elseName, args);
  if (failed(thenFn) || failed(elseFn))
    return failure();
  TypeRange results = thenFn->getFunctionType().getResults();
  if (results != TypeRange(elseFn->getFunctionType().getResults()))
    return b.error() << "the branches return different types: ("
                     << results << ") and ("
                     << elseFn->getFunctionType().getResults() << ")";
  FailureOr<Value> cond = predicate(b, b.inputs[0], "the condition");
  if (failed(cond))
    return failure();
  auto ifOp = scf::IfOp::create(b.builder, b.loc, results, *cond,
                                /*withElseRegion=*/true);
  for (auto [block, fn] : {std::pair(ifOp.thenBlock(), *thenFn),
                           std::pair(ifOp.elseBlock(), *elseFn)}) {
    OpBuilder::InsertionGuard guard(b.builder);
    b.builder.setInsertionPointToStart(block);
    auto call = func::CallOp::create(b.builder, b.loc, fn, args);
    scf::YieldOp::create(b.builder, b.loc, call.getResults());
  }
  return SmallVector<Value>(ifOp.getResults());
}

/// While/StatelessWhile: scf.while that calls `cond` before each iteration
/// and `body` for it.
static NodeResults whileOp(NodeBuilder &b) {
  FailureOr<std::string> condName = functionAttr(b, "cond");
  FailureOr<std::string> bodyName = functionAttr(b, "body");
  if (failed(condName) || failed(bodyName))
    return failure();
  ValueRange inits = b.inputs;
  FailureOr<func::FuncOp> condFn = callee(b, *condName, inits);
  FailureOr<func::FuncOp> bodyFn = callee(b, *bodyName, inits);
  if (failed(condFn) || failed(bodyFn))
    return failure();
  if (TypeRange(bodyFn->getFunctionType().getResults()) != inits.getTypes())
    return b.error() << "the body returns (" 
                     << bodyFn->getFunctionType().getResults()
                     << "), not the loop variables' types (" << inits.getTypes()
                     << ")";
  if (condFn->getFunctionType().getNumResults() != 1)
    return b.error() << "the condition must return one value";
  auto loop = scf::WhileOp::create(b.builder, b.loc, inits.getTypes(), inits);
  SmallVector<Location> locs(inits.size(), b.loc);
  {
    OpBuilder::InsertionGuard guard(b.builder);
    Block *before = b.builder.createBlock(&loop.getBefore(), {},
                                          inits.getTypes(), locs);
    auto call = func::CallOp::create(b.builder, b.loc, *condFn,
                                     before->getArguments());
    FailureOr<Value> flag =
        predicate(b, call.getResult(0), "the condition's result");
    if (failed(flag)) {
      loop->erase();
      return failure();
    }
    scf::ConditionOp::create(b.builder, b.loc, *flag, before->getArguments());
    Block *after = b.builder.createBlock(&loop.getAfter(), {},
                                         inits.getTypes(), locs);
    auto next = func::CallOp::create(b.builder, b.loc, *bodyFn,
                                     after->getArguments());
    scf::YieldOp::create(b.builder, b.loc, next.getResults());
  }
  return SmallVector<Value>(loop.getResults());
}

/// SymbolicGradient(x..., dy...) of f: the cotangents of f's inputs given
/// those of its outputs, as trace.vjp @f.
static NodeResults symbolicGradient(NodeBuilder &b) {
  FailureOr<std::string> name = functionAttr(b, "f");
  if (failed(name))
    return failure();
  // Tout: one gradient per input of f.
  const tf::AttrValue *tout = b.attr("Tout");
  if (!tout || tout->value_case() != tf::AttrValue::kList)
    return b.error() << "missing type list attribute 'Tout'";
  size_t numArgs = tout->list().type_size();
  if (b.inputs.size() < numArgs)
    return b.error() << "expected at least " << numArgs << " inputs (Tout)";
  ValueRange args = ValueRange(b.inputs).take_front(numArgs);
  ValueRange cotangents = ValueRange(b.inputs).drop_front(numArgs);
  FailureOr<func::FuncOp> f = callee(b, *name, args);
  if (failed(f))
    return failure();
  if (f->getFunctionType().getNumResults() != cotangents.size())
    return b.error() << "function '" << *name << "' has "
                     << f->getFunctionType().getNumResults()
                     << " results, but " << cotangents.size()
                     << " output gradients are given";
  SmallVector<int64_t> wrt = llvm::to_vector(
      llvm::seq<int64_t>(0, static_cast<int64_t>(numArgs)));
  FailureOr<Operation *> op = b.build<trace::VjpOp>(*f, args, cotangents, wrt);
  if (failed(op))
    return failure();
  SymbolTableCollection symbols;
  if (failed(cast<SymbolUserOpInterface>(*op).verifySymbolUses(symbols))) {
    (*op)->erase();
    return b.error() << "cannot differentiate function '" << *name
                     << "' (see above)";
  }
  return SmallVector<Value>((*op)->getResults().take_back(numArgs));
}

void tracec::graphdef::registerCallOps(OpRegistry &registry) {
  registry.insert({
      {"PartitionedCall", takingResources(partitionedCall)},
      {"StatefulPartitionedCall", takingResources(partitionedCall)},
      {"If", takingResources(ifOp)},
      {"StatelessIf", takingResources(ifOp)},
      {"While", takingResources(whileOp)},
      {"StatelessWhile", takingResources(whileOp)},
      {"SymbolicGradient", takingResources(symbolicGradient)},
  });
}
