//===- SymbolicGradients.cpp - tf.gradients on recorded values ------------===//
//
// The backward slice of ys that depends on xs is copied into a new private
// function of xs (plus, as extra arguments, the independent values it
// uses), which a trace.vjp op differentiates. The copy is needed because
// the gradient ops reference a function by symbol.
//
//===----------------------------------------------------------------------===//

#include "Tracer.h"

#include "tracec/Dialect/Trace/IR/TraceOps.h"
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
/// Which recorded values depend on the xs (through op operands and values
/// that op regions use from above), memoized.
class Dependence {
public:
  Dependence(llvm::ArrayRef<mlir::Value> xs, llvm::ArrayRef<mlir::Value> stops) {
    for (mlir::Value stop : stops)
      known_[stop] = false;
    for (mlir::Value x : xs)
      known_[x] = true;
  }

  bool depends(mlir::Value value) {
    auto it = known_.find(value);
    if (it != known_.end())
      return it->second;
    known_[value] = false; // no cycles in SSA, but be safe
    bool result = false;
    if (mlir::Operation *op = value.getDefiningOp())
      for (mlir::Value input : inputs(op))
        if (depends(input)) {
          result = true;
          break;
        }
    known_[value] = result;
    return result;
  }

  /// The operands of `op` and the values its regions use from above.
  static llvm::SmallVector<mlir::Value> inputs(mlir::Operation *op) {
    llvm::SmallVector<mlir::Value> values(op->getOperands());
    if (op->getNumRegions()) {
      llvm::SetVector<mlir::Value> above;
      mlir::getUsedValuesDefinedAbove(op->getRegions(), above);
      values.append(above.begin(), above.end());
    }
    return values;
  }

private:
  llvm::DenseMap<mlir::Value, bool> known_;
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

std::vector<Value> tracec::gradients(llvm::ArrayRef<Value> ys,
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
  llvm::SmallVector<mlir::Value> yValues, xValues, stops;
  for (const Value &y : ys) {
    yValues.push_back(resolve(y));
    if (!isFloat(y.dtype()))
      error("ys must be floating-point tensors, got " + y.typeString());
  }
  for (const Value &x : xs)
    xValues.push_back(resolve(x));
  for (const Value &stop : options.stopGradients)
    stops.push_back(resolve(stop));

  // The distinct float xs that are not stopped are differentiated.
  llvm::SetVector<mlir::Value> sources;
  for (auto [x, value] : llvm::zip(xs, xValues))
    if (isFloat(x.dtype()) && !llvm::is_contained(stops, value))
      sources.insert(value);
  Dependence dependence(sources.getArrayRef(), stops);

  // A source computed from other sources (an intermediate, as h in
  // gradients(y, {w, h}) with h = f(w)) is not a cut: the gradient flows on
  // to w, and h's own gradient is that of a zero added to it.
  auto isIntermediate = [&](mlir::Value value) {
    mlir::Operation *op = value.getDefiningOp();
    if (!op)
      return false;
    for (mlir::Value input : Dependence::inputs(op))
      if (dependence.depends(input))
        return true;
    return false;
  };

  // Post-order walk from the ys: the ops to copy, in a valid order, and
  // the sources that the ys reach.
  llvm::SetVector<mlir::Operation *> slice;
  llvm::DenseSet<mlir::Value> reached;
  llvm::DenseSet<mlir::Operation *> visited;
  std::function<void(mlir::Value)> visit = [&](mlir::Value value) {
    if (!dependence.depends(value))
      return;
    if (sources.contains(value)) {
      reached.insert(value);
      if (!isIntermediate(value))
        return;
    }
    mlir::Operation *op = value.getDefiningOp();
    if (!op || !visited.insert(op).second)
      return;
    for (mlir::Value input : Dependence::inputs(op))
      visit(input);
    slice.insert(op);
  };
  for (mlir::Value y : yValues)
    visit(y);

  // The slice is copied and run again by the vjp: calls of functions with
  // side effects cannot be (their assignments would happen twice).
  {
    mlir::ModuleOp module = *currentScope().function->trace->module;
    for (mlir::Operation *op : slice) {
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

  std::vector<Value> results(xs.size());
  auto unconnected = [&](size_t i) {
    if (options.unconnected == UnconnectedGradients::zero)
      results[i] = zeros_like(xs[i]);
  };
  if (reached.empty()) {
    for (size_t i = 0; i < xs.size(); ++i)
      unconnected(i);
    return results;
  }

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
  llvm::SmallVector<mlir::Value> operands;
  llvm::DenseMap<mlir::Value, int64_t> sourceArgument;
  auto addArgument = [&](mlir::Value outer, mlir::Type type) {
    operands.push_back(outer);
    return entry->addArgument(type, location());
  };
  for (mlir::Value source : sources)
    if (reached.contains(source) && !isIntermediate(source)) {
      sourceArgument[source] = operands.size();
      mapping.map(source, addArgument(source, source.getType()));
    }
  auto mapExternal = [&](mlir::Value value) {
    if (!mapping.contains(value))
      mapping.map(value, addArgument(value, value.getType()));
  };
  builder.setInsertionPointToEnd(entry);
  try {
    for (mlir::Operation *op : slice) {
      for (mlir::Value input : Dependence::inputs(op))
        mapExternal(input);
      mlir::Operation *copy = builder.clone(*op, mapping);
      for (auto [result, copied] :
           llvm::zip(op->getResults(), copy->getResults())) {
        if (!reached.contains(result))
          continue;
        auto type = llvm::cast<mlir::RankedTensorType>(result.getType());
        Value zero = splat(0, dtypeOf(type.getElementType()), type.getShape());
        sourceArgument[result] = operands.size();
        mlir::Value delta = addArgument(resolve(zero), type);
        mapping.map(result,
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
  llvm::SmallVector<mlir::Value> connected;
  llvm::SmallVector<int64_t> wrt;
  for (mlir::Value source : sources)
    if (reached.contains(source)) {
      connected.push_back(source);
      wrt.push_back(sourceArgument.lookup(source));
    }

  // trace.vjp @func(operands...) cotangents(grad_ys...).
  llvm::SmallVector<mlir::Value> cotangents;
  for (auto [i, y] : llvm::enumerate(ys)) {
    Value cotangent = options.gradYs.empty()
                          ? ones_like(y)
                          : castTo(options.gradYs[i], y.dtype());
    if (cotangent.shape() != y.shape())
      cotangent = broadcast_to(cotangent, y.shape());
    cotangents.push_back(resolve(cotangent));
  }
  llvm::SmallVector<mlir::Type> types(mlir::ValueRange(returned).getTypes());
  llvm::append_range(types, mlir::ValueRange(connected).getTypes());
  llvm::SmallVector<mlir::Value> all(operands);
  all.append(cotangents);
  mlir::NamedAttribute attrs[] = {
      builder.getNamedAttr("callee", mlir::FlatSymbolRefAttr::get(
                                         func.getSymNameAttr())),
      builder.getNamedAttr("wrt", builder.getDenseI64ArrayAttr(wrt)),
      builder.getNamedAttr(
          "unconnected",
          trace::UnconnectedAttr::get(ctx, trace::Unconnected::zero)),
      builder.getNamedAttr("operandSegmentSizes",
                           builder.getDenseI32ArrayAttr(
                               {(int32_t)operands.size(),
                                (int32_t)cotangents.size()}))};
  mlir::Operation *op;
  try {
    op = createOp(trace::VjpOp::getOperationName(), all, attrs,
                  llvm::ArrayRef<mlir::Type>(types));
    verifyOrFail(op, /*symbolUses=*/true);
  } catch (...) {
    func.erase();
    throw;
  }
  for (size_t i = 0; i < xs.size(); ++i) {
    auto it = llvm::find(connected, xValues[i]);
    bool stopped = llvm::is_contained(stops, xValues[i]);
    if (it == connected.end() || stopped) {
      unconnected(i);
      continue;
    }
    results[i] = wrap(op->getResult(ys.size() + (it - connected.begin())));
  }
  return results;
}
