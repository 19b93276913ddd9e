//===- TangentGenerator.cpp - __jvp functions (forward mode) --------------===//

#include "tracec/Transforms/Differentiation/TangentGenerator.h"

#include "tracec/Dialect/Trace/IR/DifferentiationAttributes.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Iterators.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

/// The TangentState of one block being swept (a function body, or a region
/// of a control-flow op, which gets a child Sweep): the primal values and
/// the tangents, keyed by the original values.
class TangentSweep : public TangentState {
public:
  TangentSweep(TangentGenerator &generator, OpBuilder &builder,
               TangentSweep *parent = nullptr)
      : generator_(generator), builder_(builder) {
    if (parent) {
      // Values from above keep their primal values and tangents.
      primals_ = parent->primals_;
      tangents_ = parent->tangents_;
    }
  }

  /// Clones `body`'s ops (arguments bound to `primalArgs`, with tangents
  /// `argTangents`), each followed by its tangent rule where an operand has
  /// a tangent.
  LogicalResult run(Block &body, ValueRange primalArgs,
                    ArrayRef<Value> argTangents) {
    primals_.map(body.getArguments(), primalArgs);
    for (auto [original, tangent] : llvm::zip(body.getArguments(), argTangents))
      if (tangent)
        tangents_[original] = tangent;
    for (Operation &op : body.without_terminator()) {
      clones_[&op] = builder_.clone(op, primals_);
      if (!needsTangent(op))
        continue;
      auto differentiable = dyn_cast<DifferentiableOpInterface>(op);
      if (!differentiable)
        return op.emitOpError(
            "has no tangent rule: forward-mode differentiation (trace.jvp) "
            "cannot go through it");
      if (failed(differentiable.emitTangent(builder_, *this)))
        return failure();
    }
    return success();
  }

  Value primal(Value original) override {
    return primals_.lookupOrNull(original);
  }

  Value tangent(Value original) override { return tangents_.lookup(original); }

  LogicalResult setTangent(Value originalResult, Value tangent) override {
    Type type = originalResult.getType();
    if (!carriesTangent(type))
      return emitError(tangent.getLoc())
             << "tangent rule set a tangent for a value of type " << type
             << ", which carries none";
    // A rule may know more (or less) of a `?` size than the result's type.
    Value cast = castCotangent(builder_, tangent, type);
    if (!cast)
      return emitError(tangent.getLoc())
             << "tangent rule produced a tangent of type " << tangent.getType()
             << " for a value of type " << type;
    tangents_[originalResult] = cast;
    return success();
  }

  void replacePrimal(Operation *original, ValueRange primals) override {
    Operation *clone = clones_.lookup(original);
    for (auto [result, primal] : llvm::zip(original->getResults(), primals))
      primals_.map(result, primal);
    if (!clone)
      return;
    clone->replaceAllUsesWith(primals);
    clone->erase();
    clones_.erase(original);
  }

  FailureOr<func::FuncOp> jvp(func::FuncOp callee,
                              ArrayRef<int64_t> wrt) override {
    return generator_.jvp(callee, wrt);
  }

  FailureOr<BlockTangents> differentiateBlock(Block &block,
                                              ValueRange primalArgs,
                                              ArrayRef<Value> argTangents,
                                              OpBuilder &builder) override {
    TangentSweep child(generator_, builder, this);
    if (failed(child.run(block, primalArgs, argTangents)))
      return failure();
    BlockTangents result;
    for (Value operand : block.getTerminator()->getOperands()) {
      result.primals.push_back(child.primal(operand));
      result.tangents.push_back(child.tangent(operand));
    }
    return result;
  }

private:
  /// A rule runs where some float result may get a tangent: some operand of
  /// the op, or a value its regions read from above, has one.
  bool needsTangent(Operation &op) {
    if (llvm::none_of(op.getResultTypes(), carriesTangent))
      return false;
    return readsAnyOf(&op,
                      [&](Value operand) { return tangents_.contains(operand); });
  }

  TangentGenerator &generator_;
  OpBuilder &builder_;
  IRMapping primals_;
  DenseMap<Value, Value> tangents_;
  DenseMap<Operation *, Operation *> clones_;
};

/// Erases the side-effect-free ops whose results nothing uses, innermost
/// and last first, until none is left: the tangent code of values no result
/// needs, and primal clones that rules replaced.
void eraseDeadCode(func::FuncOp f) {
  bool changed = true;
  while (changed) {
    changed = false;
    f.walk<WalkOrder::PostOrder, ReverseIterator>([&](Operation *op) {
      if (op != f && isOpTriviallyDead(op)) {
        op->erase();
        changed = true;
      }
    });
  }
}

} // namespace

FailureOr<func::FuncOp> TangentGenerator::jvp(func::FuncOp f,
                                              ArrayRef<int64_t> wrt) {
  auto key = std::make_pair(f.getSymName().str(),
                            std::vector<int64_t>(wrt.begin(), wrt.end()));
  auto it = cache_.find(key);
  if (it != cache_.end())
    return it->second;
  if (!inProgress_.insert(key.first).second)
    return f.emitError("cannot differentiate @")
           << f.getSymName()
           << " in forward mode: it calls itself (recursive functions are "
              "not supported)";
  FailureOr<func::FuncOp> result = generate(f, wrt);
  inProgress_.erase(key.first);
  if (succeeded(result))
    cache_.emplace(key, *result);
  return result;
}

FailureOr<func::FuncOp> TangentGenerator::customRule(func::FuncOp f,
                                                     func::FuncOp rule,
                                                     ArrayRef<int64_t> wrt) {
  FunctionType type = f.getFunctionType();
  SmallVector<int64_t> all;
  for (auto [i, input] : llvm::enumerate(type.getInputs()))
    if (carriesTangent(input))
      all.push_back(i);
  if (ArrayRef<int64_t>(all) == wrt)
    return rule;
  // Some arguments without tangents: a function that calls the rule with
  // zero tangents for them.
  SmallVector<Type> inputs(type.getInputs());
  for (int64_t index : wrt)
    inputs.push_back(type.getInput(index));
  std::string base = ("__jvp_" + f.getSymName() + "_wrt").str();
  for (int64_t index : wrt)
    base += "_" + std::to_string(index);
  std::string name = base;
  for (int i = 1; symbols_.lookup(name); ++i)
    name = base + "_" + std::to_string(i);
  Location loc = f.getLoc();
  OpBuilder moduleBuilder(f);
  moduleBuilder.setInsertionPointAfter(f);
  auto wrapper = func::FuncOp::create(
      moduleBuilder, loc, name,
      moduleBuilder.getFunctionType(inputs, rule.getResultTypes()));
  wrapper.setPrivate();
  symbols_.insert(wrapper);
  Block *entry = wrapper.addEntryBlock();
  OpBuilder builder = OpBuilder::atBlockEnd(entry);
  unsigned numArgs = type.getNumInputs();
  SmallVector<Value> operands(entry->getArguments().take_front(numArgs));
  for (int64_t index : all) {
    const int64_t *found = llvm::find(wrt, index);
    if (found != wrt.end()) {
      operands.push_back(entry->getArgument(numArgs + (found - wrt.begin())));
      continue;
    }
    FailureOr<Value> zeros = zerosLike(builder, loc, entry->getArgument(index));
    if (failed(zeros)) {
      symbols_.erase(wrapper);
      wrapper.erase();
      return failure();
    }
    operands.push_back(*zeros);
  }
  auto call = func::CallOp::create(builder, loc, rule, operands);
  func::ReturnOp::create(builder, loc, call.getResults());
  return wrapper;
}

FailureOr<func::FuncOp> TangentGenerator::generate(func::FuncOp f,
                                                   ArrayRef<int64_t> wrt) {
  Location loc = f.getLoc();
  if (f.isExternal())
    return f.emitError("cannot differentiate @")
           << f.getSymName() << ": it is a declaration without a body";
  if (!llvm::hasSingleElement(f.getBody()))
    return f.emitError("cannot differentiate @")
           << f.getSymName()
           << ": it has several blocks (express control flow with scf ops)";
  FunctionType type = f.getFunctionType();
  for (int64_t index : wrt)
    if (!carriesTangent(type.getInput(index)))
      return f.emitError("cannot differentiate @")
             << f.getSymName() << " with respect to argument " << index
             << " of type " << type.getInput(index)
             << " in forward mode: only floating-point tensors have tangents";
  if (func::FuncOp rule = getCustomJvp(f))
    return customRule(f, rule, wrt);
  // A custom gradient replaces the backward pass only; as in JAX (a
  // custom_vjp function has no JVP), forward mode does not guess one.
  if (f->hasAttr(kCustomVjpAttrName))
    return f.emitError("cannot differentiate @")
           << f.getSymName()
           << " in forward mode: it has a custom gradient (trace.custom_vjp), "
              "which defines its reverse mode only";

  // __jvp_f(args..., tangents of wrt...) -> (results..., result tangents...)
  SmallVector<Type> inputs(type.getInputs()), results(type.getResults());
  for (int64_t index : wrt)
    inputs.push_back(type.getInput(index));
  for (Type result : type.getResults())
    if (carriesTangent(result))
      results.push_back(result);
  std::string suffix;
  SmallVector<int64_t> all;
  for (auto [i, input] : llvm::enumerate(type.getInputs()))
    if (carriesTangent(input))
      all.push_back(i);
  if (ArrayRef<int64_t>(all) != wrt) {
    suffix = "_wrt";
    for (int64_t index : wrt)
      suffix += "_" + std::to_string(index);
  }
  std::string base = ("__jvp_" + f.getSymName() + suffix).str();
  std::string name = base;
  for (int i = 1; symbols_.lookup(name); ++i)
    name = base + "_" + std::to_string(i);

  OpBuilder moduleBuilder(f);
  moduleBuilder.setInsertionPointAfter(f);
  auto jvp = func::FuncOp::create(
      moduleBuilder, loc, name, moduleBuilder.getFunctionType(inputs, results));
  jvp.setPrivate();
  symbols_.insert(jvp);
  Block *entry = jvp.addEntryBlock();
  OpBuilder builder = OpBuilder::atBlockEnd(entry);
  TangentSweep sweep(*this, builder);
  Block &body = f.getBody().front();
  unsigned numArgs = type.getNumInputs();
  SmallVector<Value> argTangents(numArgs);
  for (auto [k, index] : llvm::enumerate(wrt))
    argTangents[index] = entry->getArgument(numArgs + k);
  if (failed(sweep.run(body, entry->getArguments().take_front(numArgs),
                       argTangents))) {
    symbols_.erase(jvp);
    return failure();
  }
  SmallVector<Value> returned, tangents;
  for (Value result : body.getTerminator()->getOperands()) {
    returned.push_back(sweep.primal(result));
    if (!carriesTangent(result.getType()))
      continue;
    Value tangent = sweep.tangent(result);
    if (!tangent) {
      // A result no wrt argument reaches: its tangent is zero.
      FailureOr<Value> zeros = zerosLike(builder, loc, sweep.primal(result));
      if (failed(zeros)) {
        symbols_.erase(jvp);
        return failure();
      }
      tangent = *zeros;
    }
    tangents.push_back(tangent);
  }
  llvm::append_range(returned, tangents);
  func::ReturnOp::create(builder, loc, returned);
  eraseDeadCode(jvp);
  return jvp;
}
