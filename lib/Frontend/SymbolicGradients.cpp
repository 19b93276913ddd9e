//===- SymbolicGradients.cpp - tf.gradients on recorded values ------------===//
//
// The backward slice of ys that depends on xs (GradientSlice.h, which
// slices eager tapes too) is copied into a new private function of xs
// (plus, as extra arguments, the independent values it uses), which a
// trace.vjp op differentiates. The copy is needed because the gradient ops
// reference a function by symbol.
//
// gradients_function() returns the same trace.vjp as a Callable of the
// copied function's arguments, so that it can be traced again (jvp of it is
// a Hessian computed forward-over-reverse, as tracec.hessians does).
//
// Which xs are connected is decided as the trace-autodiff pass decides it:
// gradients flow only through floating-point values and not out of
// trace.stop_gradient, so an x that reaches the ys only through integers,
// booleans or stop_gradient is unconnected (TensorFlow's NONE).
//
//===----------------------------------------------------------------------===//

#include "Tracer.h"

#include "tracec/Dialect/Trace/IR/DifferentiableOpInterface.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "tracec/Frontend/GradientSlice.h"
#include "tracec/Frontend/Gradients.h"
#include "tracec/Frontend/Ops.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace tracec;
using namespace tracec::detail;
namespace trace = mlir::trace;

namespace {
/// The traced ops as the graph that sliceGradients walks: a value's
/// producer is its defining op; an op reads its operands and the values its
/// regions use from above.
struct TracedGraph {
  using Value = mlir::Value;
  using Node = mlir::Operation *;

  std::optional<Node> producer(Value value) const {
    if (Node op = value.getDefiningOp())
      return op;
    return std::nullopt;
  }

  llvm::SmallVector<Value> inputs(Node op) const {
    llvm::SmallVector<Value> values(op->getOperands());
    if (op->getNumRegions()) {
      llvm::SetVector<Value> above;
      mlir::getUsedValuesDefinedAbove(op->getRegions(), above);
      values.append(above.begin(), above.end());
    }
    return values;
  }

  bool carriesGradient(Value value) const {
    return mlir::trace::carriesGradient(value.getType()) &&
           !llvm::isa_and_nonnull<trace::StopGradientOp>(value.getDefiningOp());
  }
};
} // namespace

/// Whether `func` (or a function it calls) assigns variables, prints or
/// draws random numbers: effects that are writes or on no particular value.
static bool hasSideEffects(mlir::func::FuncOp func, mlir::ModuleOp module,
                           llvm::DenseSet<mlir::Operation *> &visited) {
  if (!func || !visited.insert(func).second)
    return false;
  auto result = func.walk([&](mlir::Operation *op) {
    if (auto call = llvm::dyn_cast<mlir::func::CallOp>(op))
      if (hasSideEffects(module.lookupSymbol<mlir::func::FuncOp>(
                             call.getCalleeAttr()),
                         module, visited))
        return mlir::WalkResult::interrupt();
    auto memory = llvm::dyn_cast<mlir::MemoryEffectOpInterface>(op);
    if (!memory)
      return mlir::WalkResult::advance();
    llvm::SmallVector<mlir::MemoryEffects::EffectInstance> effects;
    memory.getEffects(effects);
    for (auto &effect : effects)
      if (llvm::isa<mlir::MemoryEffects::Write>(effect.getEffect()) ||
          !effect.getValue())
        return mlir::WalkResult::interrupt();
    return mlir::WalkResult::advance();
  });
  return result.wasInterrupted();
}

namespace {
/// The recorded ops from the xs to the ys, copied into a private function
/// of the connected xs and the values the ops use (what gradients()
/// differentiates).
struct SlicedFunction {
  /// Null when no x reaches a y.
  mlir::func::FuncOp func;
  /// What a call passes for each argument of `func` (recorded values).
  std::vector<Value> operands;
  /// The argument of each connected x, in the order of `connected`.
  llvm::SmallVector<int64_t> wrt;
  llvm::SmallVector<mlir::Value> connected;
  /// For each x: its index in `connected`, or -1 (unconnected or stopped).
  std::vector<int64_t> xConnected;
  /// The ys' dtypes and shapes (cotangents of ones are built from them).
  std::vector<Value> ys;
  std::vector<Value> gradYs;
};
} // namespace

/// The scope of the function whose ops gradients() slices when it is not
/// the current one: that of the ys when they all come from one function
/// enclosing the current one, as TensorFlow's gradients inside a
/// custom_gradient's grad_fn of the forward's values (the grad_fn is traced
/// into a function inside the forward one). The trace.vjp is recorded in
/// the current function, the values it uses lifted into it. Null: the
/// current function's ops are sliced (the ys are lifted into it first).
static const Scope *enclosingSliceScope(llvm::ArrayRef<Value> ys) {
  FunctionState *current = currentScope().function;
  const Scope *owner = nullptr;
  for (const Value &y : ys) {
    const Scope *scope = scopeOf(y);
    if (!scope || scope->function == current ||
        (owner && owner->function != scope->function))
      return nullptr;
    owner = scope;
  }
  return owner;
}

static SlicedFunction sliceIntoFunction(llvm::ArrayRef<Value> ys,
                                        llvm::ArrayRef<Value> xs,
                                        const GradientsOptions &options) {
  auto error = [&](const llvm::Twine &message) {
    fail(locationPrefix(location()) + ": error: gradients: " + message);
  };
  if (ys.empty())
    error("needs at least one y");
  if (!options.gradYs.empty() && options.gradYs.size() != ys.size())
    error("got " + llvm::Twine(options.gradYs.size()) + " grad_ys for " +
          llvm::Twine(ys.size()) + " ys");
  SlicedFunction result;
  result.xConnected.assign(xs.size(), -1);
  // An integer or boolean y carries no gradient (TensorFlow: None for every
  // x), so it and its grad_y drop out.
  for (auto [i, y] : llvm::enumerate(ys)) {
    if (!isFloat(y.dtype()))
      continue;
    result.ys.push_back(y);
    if (!options.gradYs.empty())
      result.gradYs.push_back(options.gradYs[i]);
  }
  if (result.ys.empty())
    return result;
  // The values in the sliced function; a value of another function there
  // is null (an x or stop the ys cannot depend on).
  const Scope *enclosing = enclosingSliceScope(result.ys);
  auto sliced = [&](const Value &value) {
    if (!enclosing)
      return resolve(value);
    const Scope *scope = scopeOf(value);
    return scope && scope->function == enclosing->function
               ? value.getUnchecked()
               : mlir::Value();
  };
  // A value of the sliced function as what the vjp is called with.
  auto recorded = [&](mlir::Value value) {
    return enclosing ? Value(value, enclosing->id) : wrap(value);
  };
  llvm::SmallVector<mlir::Value> yValues, xValues, stops;
  for (const Value &y : result.ys)
    yValues.push_back(sliced(y));
  for (const Value &x : xs)
    xValues.push_back(sliced(x));
  for (const Value &stop : options.stopGradients)
    if (mlir::Value value = sliced(stop))
      stops.push_back(value);

  // The distinct float xs that are not stopped are differentiated.
  llvm::SetVector<mlir::Value> sources;
  for (auto [x, value] : llvm::zip(xs, xValues))
    if (value && isFloat(x.dtype()) && !llvm::is_contained(stops, value))
      sources.insert(value);
  GradientSlice<mlir::Value, mlir::Operation *> slice = sliceGradients(
      TracedGraph(), llvm::ArrayRef(yValues), sources.getArrayRef(),
      llvm::ArrayRef(stops));
  llvm::ArrayRef<mlir::Operation *> ops = slice.nodes;
  const llvm::DenseSet<mlir::Value> &reached = slice.reached;

  // The slice is copied and run again by the vjp: calls of functions with
  // side effects cannot be (their assignments would happen twice).
  {
    mlir::ModuleOp module = *currentScope().function->trace->module;
    for (mlir::Operation *op : ops) {
      mlir::func::CallOp stateful;
      op->walk([&](mlir::func::CallOp call) {
        llvm::DenseSet<mlir::Operation *> visited;
        if (!stateful &&
            hasSideEffects(
                module.lookupSymbol<mlir::func::FuncOp>(call.getCalleeAttr()),
                module, visited))
          stateful = call;
      });
      if (stateful)
        fail(locationPrefix(stateful.getLoc()) +
             ": error: gradients: the values between xs and ys go through a "
             "call of @" + stateful.getCallee() +
             ", which has side effects (it assigns variables, prints or "
             "draws random numbers); differentiating the recorded values "
             "would run it again. Differentiate a function instead "
             "(grad/vjp), or inline the callee");
    }
  }
  if (reached.empty())
    return result;

  // The function: its arguments are added as they are found, each with
  // what the call passes for it.
  FunctionState *function = currentScope().function;
  TraceState *traceState = function->trace;
  mlir::MLIRContext *ctx = &context();
  mlir::OpBuilder builder(ctx);
  builder.setInsertionPoint(function->func);
  std::string name;
  do {
    name = function->func.getSymName().str() + "_gradients" +
           std::to_string(traceState->nextCalleeId++);
  } while (mlir::SymbolTable::lookupSymbolIn(*traceState->module, name));
  auto func = mlir::func::FuncOp::create(builder, location(), name,
                                         builder.getFunctionType({}, {}));
  func.setPrivate();
  mlir::Block *entry = func.addEntryBlock();
  mlir::IRMapping mapping;
  llvm::DenseMap<mlir::Value, int64_t> sourceArgument;
  auto addArgument = [&](Value outer, mlir::Type type) {
    result.operands.push_back(outer);
    return entry->addArgument(type, location());
  };
  for (mlir::Value source : sources)
    if (reached.contains(source) && !slice.intermediate.contains(source)) {
      sourceArgument[source] = result.operands.size();
      mapping.map(source, addArgument(recorded(source), source.getType()));
    }
  auto mapExternal = [&](mlir::Value value) {
    if (!mapping.contains(value))
      mapping.map(value, addArgument(recorded(value), value.getType()));
  };
  builder.setInsertionPointToEnd(entry);
  try {
    for (mlir::Operation *op : ops) {
      for (mlir::Value input : TracedGraph().inputs(op))
        mapExternal(input);
      mlir::Operation *copy = builder.clone(*op, mapping);
      for (auto [value, copied] :
           llvm::zip(op->getResults(), copy->getResults())) {
        if (!reached.contains(value))
          continue;
        auto type = llvm::cast<mlir::RankedTensorType>(value.getType());
        Value zero = splat(0, dtypeOf(type.getElementType()), type.getShape());
        sourceArgument[value] = result.operands.size();
        mlir::Value delta = addArgument(zero, type);
        mapping.map(value,
                    trace::AddOp::create(builder, location(), copied, delta));
      }
    }
  } catch (...) {
    func.erase();
    throw;
  }
  llvm::SmallVector<mlir::Value> returned;
  for (mlir::Value y : yValues) {
    mapExternal(y); // a y that depends on no x
    returned.push_back(mapping.lookup(y));
  }
  mlir::func::ReturnOp::create(builder, location(), returned);
  func.setType(mlir::FunctionType::get(ctx, entry->getArgumentTypes(),
                                       mlir::ValueRange(returned).getTypes()));
  result.func = func;
  for (mlir::Value source : sources)
    if (reached.contains(source)) {
      result.connected.push_back(source);
      result.wrt.push_back(sourceArgument.lookup(source));
    }
  for (size_t i = 0; i < xs.size(); ++i) {
    auto it = llvm::find(result.connected, xValues[i]);
    if (it != result.connected.end() &&
        !llvm::is_contained(stops, xValues[i]))
      result.xConnected[i] = it - result.connected.begin();
  }
  return result;
}

/// Records trace.vjp @slice.func(args...) cotangents(grad_ys or ones) in the
/// current scope; returns the gradients of the connected xs.
static std::vector<Value> recordVjp(const SlicedFunction &slice,
                                    llvm::ArrayRef<Value> args) {
  mlir::func::FuncOp func = slice.func;
  if (args.size() != slice.operands.size())
    fail(locationPrefix(location()) + ": error: gradients: the gradient "
         "function of @" + func.getSymName() + " takes " +
         llvm::Twine(slice.operands.size()) + " arguments, got " +
         llvm::Twine(args.size()));
  llvm::SmallVector<mlir::Value> all;
  for (const Value &arg : args)
    all.push_back(resolve(arg));
  size_t numOperands = all.size();
  // Ones are built here rather than from the ys, so that a function traced
  // from this one does not capture the ys.
  for (auto [i, y] : llvm::enumerate(slice.ys)) {
    Value cotangent = slice.gradYs.empty()
                          ? splat(1.0, y.dtype(), y.shape())
                          : castTo(slice.gradYs[i], y.dtype());
    if (cotangent.shape() != y.shape())
      cotangent = broadcast_to(cotangent, y.shape());
    all.push_back(resolve(cotangent));
  }
  mlir::FunctionType type = func.getFunctionType();
  llvm::SmallVector<mlir::Type> types(type.getResults());
  for (int64_t index : slice.wrt)
    types.push_back(type.getInput(index));
  mlir::OpBuilder builder(&context());
  mlir::NamedAttribute attrs[] = {
      builder.getNamedAttr("callee", mlir::FlatSymbolRefAttr::get(
                                         func.getSymNameAttr())),
      builder.getNamedAttr("wrt", builder.getDenseI64ArrayAttr(slice.wrt)),
      builder.getNamedAttr(
          "unconnected",
          trace::UnconnectedAttr::get(&context(), trace::Unconnected::zero)),
      builder.getNamedAttr("operandSegmentSizes",
                           builder.getDenseI32ArrayAttr(
                               {(int32_t)numOperands,
                                (int32_t)(all.size() - numOperands),
                                /*after=*/0}))};
  mlir::Operation *op = createOp(trace::VjpOp::getOperationName(), all, attrs,
                                 llvm::ArrayRef<mlir::Type>(types));
  verifyOrFail(op, /*symbolUses=*/true);
  std::vector<Value> grads;
  for (size_t k = 0; k < slice.wrt.size(); ++k)
    grads.push_back(wrap(op->getResult(type.getNumResults() + k)));
  return grads;
}

std::vector<Value> tracec::gradients(llvm::ArrayRef<Value> ys,
                                     llvm::ArrayRef<Value> xs,
                                     const GradientsOptions &options) {
  SlicedFunction sliced = sliceIntoFunction(ys, xs, options);
  std::vector<Value> grads;
  if (sliced.func) {
    try {
      grads = recordVjp(sliced, sliced.operands);
    } catch (...) {
      sliced.func.erase();
      throw;
    }
  }
  std::vector<Value> results(xs.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    if (sliced.xConnected[i] >= 0)
      results[i] = grads[sliced.xConnected[i]];
    else if (options.unconnected == UnconnectedGradients::zero)
      results[i] = zeros_like(xs[i]);
  }
  return results;
}

GradientsFunction tracec::gradients_function(llvm::ArrayRef<Value> ys,
                                             llvm::ArrayRef<Value> xs,
                                             const GradientsOptions &options) {
  auto sliced =
      std::make_shared<SlicedFunction>(sliceIntoFunction(ys, xs, options));
  GradientsFunction result;
  result.operands = sliced->operands;
  for (int64_t k : sliced->xConnected) {
    result.xArgument.push_back(k < 0 ? -1 : sliced->wrt[k]);
    result.xResult.push_back(k);
  }
  if (sliced->func)
    result.gradient = [sliced](llvm::ArrayRef<Value> args) {
      return recordVjp(*sliced, args);
    };
  return result;
}
