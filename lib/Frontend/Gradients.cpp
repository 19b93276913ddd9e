//===- Gradients.cpp - grad, value_and_grad, vjp --------------------------===//
//
// The callable is traced into a private func.func of the module and a
// gradient op references it; trace-autodiff differentiates it later. The
// op's operands are the explicit arguments, then what the callee added:
// Values it captured from the enclosing function, and variables.
//
//===----------------------------------------------------------------------===//

#include "Tracer.h"

#include "tracec/Dialect/Trace/IR/DifferentiableOpInterface.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "tracec/Frontend/Gradients.h"

using namespace tracec;
using namespace tracec::detail;
namespace trace = mlir::trace;

namespace {
enum class GradientKind { grad, valueAndGrad, vjp };
} // namespace

/// Whether some result of `func` depends on its argument `index` through
/// floating-point values, not through stop_gradient: the activity analysis
/// of trace-autodiff, run while tracing so that unconnected = none can
/// return null Values. Calls and region ops count as connected when any
/// operand they use is (a superset of what the pass finds connected).
static bool isConnected(mlir::func::FuncOp func, int64_t index) {
  mlir::Block &body = func.getBody().front();
  llvm::DenseSet<mlir::Value> active = {body.getArgument(index)};
  for (mlir::Operation &op : body) {
    if (llvm::isa<trace::StopGradientOp>(op))
      continue;
    bool reads = false;
    op.walk([&](mlir::Operation *nested) {
      for (mlir::Value operand : nested->getOperands())
        reads |= active.contains(operand);
    });
    if (!reads)
      continue;
    for (mlir::Value result : op.getResults())
      if (mlir::trace::carriesGradient(result.getType()))
        active.insert(result);
  }
  return llvm::any_of(body.getTerminator()->getOperands(),
                      [&](mlir::Value v) { return active.contains(v); });
}

static std::vector<Value> differentiate(GradientKind kind, const Callable &f,
                                        llvm::ArrayRef<Value> primals,
                                        llvm::ArrayRef<Value> cotangents,
                                        const GradOptions &options) {
  llvm::StringRef opName = kind == GradientKind::grad
                               ? trace::GradOp::getOperationName()
                           : kind == GradientKind::valueAndGrad
                               ? trace::ValueAndGradOp::getOperationName()
                               : trace::VjpOp::getOperationName();
  llvm::SmallVector<mlir::Value> args;
  for (const Value &primal : primals)
    args.push_back(resolve(primal));
  for (int64_t index : options.argnums)
    if (index < 0 || index >= (int64_t)primals.size())
      fail(locationPrefix(location()) + ": error: '" + opName +
           "' argnum " + llvm::Twine(index) + " is out of range for " +
           llvm::Twine(primals.size()) + " arguments");

  TracedCallee callee =
      traceCallee(options.name, mlir::ValueRange(args).getTypes(), f,
                  options.variables);
  mlir::FunctionType calleeType = callee.func.getFunctionType();

  // has_aux: a vjp seeded with 1 for the loss and 0 for the auxiliary
  // results, so that f runs once and its auxiliary results come out.
  std::vector<Value> auxSeeds;
  GradientKind requested = kind;
  if (options.hasAux && kind != GradientKind::vjp) {
    auto isFloatTensor = [](mlir::Type type, bool scalar) {
      auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
      return tensor && llvm::isa<mlir::FloatType>(tensor.getElementType()) &&
             (!scalar || tensor.getRank() == 0);
    };
    if (calleeType.getNumResults() == 0 ||
        !isFloatTensor(calleeType.getResult(0), /*scalar=*/true))
      fail(locationPrefix(location()) + ": error: '" + opName +
           "' with has_aux needs a function returning a scalar float loss "
           "first, then its auxiliary results; @" +
           callee.func.getSymName() + " returns " +
           llvm::Twine(calleeType.getNumResults()) + " results" +
           (calleeType.getNumResults() ? " starting with a " : "") +
           (calleeType.getNumResults()
                ? formatTensorType(
                      dtypeOf(llvm::cast<mlir::RankedTensorType>(
                                  calleeType.getResult(0))
                                  .getElementType()),
                      llvm::cast<mlir::RankedTensorType>(
                          calleeType.getResult(0))
                          .getShape())
                : std::string()));
    for (auto [i, type] : llvm::enumerate(calleeType.getResults())) {
      auto tensor = llvm::cast<mlir::RankedTensorType>(type);
      DType dtype = dtypeOf(tensor.getElementType());
      if (i > 0 && !isFloatTensor(type, /*scalar=*/false))
        fail(locationPrefix(location()) + ": error: '" + opName +
             "' with has_aux: auxiliary result " + llvm::Twine(i - 1) +
             " of @" + callee.func.getSymName() + " is a " +
             formatTensorType(dtype, tensor.getShape()) +
             "; auxiliary results must be floating-point tensors");
      auxSeeds.push_back(splat(i == 0 ? 1.0 : 0.0, dtype, tensor.getShape()));
    }
    cotangents = auxSeeds;
    kind = GradientKind::vjp;
    opName = trace::VjpOp::getOperationName();
  }

  llvm::SmallVector<int64_t> wrt(options.argnums.begin(),
                                 options.argnums.end());
  for (Variable *variable : options.variables)
    for (auto [i, extra] : llvm::enumerate(callee.extras))
      if (extra.kind == ArgumentInfo::Kind::variable &&
          extra.variable == variable) {
        wrt.push_back(primals.size() + i);
        break;
      }
  for (ExtraArgument &extra : callee.extras)
    args.push_back(extra.outer);

  mlir::OpBuilder b(&context());
  llvm::SmallVector<mlir::NamedAttribute> attrs = {
      b.getNamedAttr("callee",
                     mlir::FlatSymbolRefAttr::get(callee.func.getSymNameAttr())),
      b.getNamedAttr("wrt", b.getDenseI64ArrayAttr(wrt)),
      b.getNamedAttr("unconnected",
                     trace::UnconnectedAttr::get(
                         &context(), options.unconnected == Unconnected::error
                                         ? trace::Unconnected::error
                                         : trace::Unconnected::zero))};

  // The gradients have the types of the wrt arguments (a variable's: of its
  // value); for value_and_grad and vjp the callee's results come first.
  llvm::SmallVector<mlir::Type> types;
  if (kind == GradientKind::valueAndGrad) {
    if (calleeType.getNumResults() != 1)
      fail(locationPrefix(location()) + ": error: '" + opName +
           "' needs a function with one (scalar) result, @" +
           callee.func.getSymName() + " returns " +
           llvm::Twine(calleeType.getNumResults()));
    types.push_back(calleeType.getResult(0));
  }
  if (kind == GradientKind::vjp)
    llvm::append_range(types, calleeType.getResults());
  for (int64_t index : wrt) {
    mlir::Type type = args[index].getType();
    if (auto resource = llvm::dyn_cast<trace::ResourceType>(type))
      type = resource.getValueType();
    types.push_back(type);
  }

  llvm::SmallVector<mlir::Value> operands(args);
  if (kind == GradientKind::vjp) {
    if (cotangents.size() != calleeType.getNumResults())
      fail(locationPrefix(location()) + ": error: 'trace.vjp' got " +
           llvm::Twine(cotangents.size()) + " cotangents for @" +
           callee.func.getSymName() + ", which returns " +
           llvm::Twine(calleeType.getNumResults()) + " results");
    for (auto [i, cotangent] : llvm::enumerate(cotangents)) {
      mlir::Type result = calleeType.getResult(i);
      resolve(cotangent);
      Value converted = castTo(
          cotangent, dtypeOf(llvm::cast<mlir::RankedTensorType>(result)
                                 .getElementType()));
      operands.push_back(resolve(converted));
    }
  }
  // The args, the cotangents (vjp) and no `after` tokens: those are
  // trace-auto-control-deps' to give.
  llvm::SmallVector<int32_t> segments = {(int32_t)args.size()};
  if (kind == GradientKind::vjp)
    segments.push_back((int32_t)cotangents.size());
  segments.push_back(0);
  attrs.push_back(b.getNamedAttr("operandSegmentSizes",
                                 b.getDenseI32ArrayAttr(segments)));

  mlir::Operation *op;
  if (kind == GradientKind::grad)
    op = createOp(opName, operands, attrs, std::nullopt, wrt.size());
  else
    op = createOp(opName, operands, attrs, llvm::ArrayRef<mlir::Type>(types));
  verifyOrFail(op, /*symbolUses=*/true);
  std::vector<Value> results;
  for (mlir::Value result : op->getResults())
    results.push_back(wrap(result));
  if (options.unconnected == Unconnected::none) {
    // The gradients follow f's results (vjp) or its value (value_and_grad).
    size_t first = kind == GradientKind::vjp ? calleeType.getNumResults()
                   : kind == GradientKind::valueAndGrad ? 1
                                                        : 0;
    for (auto [k, index] : llvm::enumerate(wrt))
      if (!isConnected(callee.func, index))
        results[first + k] = Value();
  }
  if (requested == GradientKind::grad && !auxSeeds.empty()) {
    // vjp order (loss, aux..., grads...) -> grads..., aux...
    std::vector<Value> reordered(results.begin() + auxSeeds.size(),
                                 results.end());
    reordered.insert(reordered.end(), results.begin() + 1,
                     results.begin() + auxSeeds.size());
    return reordered;
  }
  return results;
}

Callable tracec::grad(Callable f, GradOptions options) {
  return [f = std::move(f), options = std::move(options)](
             llvm::ArrayRef<Value> args) {
    return differentiate(GradientKind::grad, f, args, {}, options);
  };
}

Callable tracec::value_and_grad(Callable f, GradOptions options) {
  return [f = std::move(f), options = std::move(options)](
             llvm::ArrayRef<Value> args) {
    return differentiate(GradientKind::valueAndGrad, f, args, {}, options);
  };
}

std::vector<Value> tracec::vjp(const Callable &f,
                               llvm::ArrayRef<Value> primals,
                               llvm::ArrayRef<Value> cotangents,
                               GradOptions options) {
  return differentiate(GradientKind::vjp, f, primals, cotangents, options);
}
