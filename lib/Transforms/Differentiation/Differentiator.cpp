//===- Differentiator.cpp - Forward/backward functions of a function ------===//

#include "tracec/Transforms/Differentiation/Differentiator.h"

#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::trace;

SmallVector<int64_t> Differentiator::differentiableArguments(func::FuncOp f) {
  SmallVector<int64_t> wrt;
  for (auto [i, type] : llvm::enumerate(f.getArgumentTypes()))
    if (carriesGradient(type))
      wrt.push_back(i);
  return wrt;
}

std::string Differentiator::uniqueName(StringRef base) {
  std::string name = base.str();
  for (int i = 1; symbols_.lookup(name); ++i)
    name = (base + "_" + Twine(i)).str();
  return name;
}

namespace {

/// The AdjointState of one block being differentiated (a function body, or
/// a region of a control-flow op, which gets a child Sweep): the primal
/// values and the accumulated cotangents, keyed by the original values.
class Sweep : public AdjointState {
public:
  Sweep(Differentiator &differentiator, OpBuilder &builder,
        RematPolicy policy, Sweep *parent = nullptr)
      : differentiator_(differentiator), builder_(builder), policy_(policy) {
    if (parent) {
      // Values from above keep their primal values and activity.
      primals_ = parent->primals_;
      active_ = parent->active_;
    }
  }

  /// Emits the primal of `body` (arguments bound to `primalArgs`), seeds
  /// the terminator's operands and emits the adjoint. `activeArgs` are the
  /// block arguments whose cotangents are wanted. `lastPrimal`, when given,
  /// receives the last op of the primal code (null if there is none).
  LogicalResult run(Block &body, ValueRange primalArgs,
                    ArrayRef<Value> terminatorCotangents,
                    ArrayRef<BlockArgument> activeArgs,
                    Operation **lastPrimal = nullptr,
                    ArrayRef<std::pair<Value, Value>> knownPrimals = {}) {
    primals_.map(body.getArguments(), primalArgs);
    markActive(body, activeArgs);
    DenseSet<Value> known;
    for (auto [original, primal] : knownPrimals) {
      primals_.map(original, primal);
      known.insert(original);
    }
    for (Operation &op : body.without_terminator()) {
      if (op.getNumResults() != 0 &&
          llvm::all_of(op.getResults(),
                       [&](Value v) { return known.contains(v); }))
        continue;
      auto differentiable = dyn_cast<DifferentiableOpInterface>(op);
      if (failed(differentiable ? differentiable.emitPrimal(builder_, *this)
                                : clonePrimal(&op, builder_)))
        return failure();
    }
    if (lastPrimal) {
      Block *emitted = builder_.getInsertionBlock();
      *lastPrimal = emitted->empty() ? nullptr : &emitted->back();
    }
    Operation *terminator = body.getTerminator();
    for (auto [operand, ct] :
         llvm::zip(terminator->getOperands(), terminatorCotangents))
      if (ct && failed(accumulate(operand, ct)))
        return failure();
    for (Operation &op : llvm::reverse(body.without_terminator())) {
      bool reached = llvm::any_of(op.getResults(), [&](Value v) {
        return cotangent(v) != nullptr;
      });
      if (!reached)
        continue;
      auto differentiable = dyn_cast<DifferentiableOpInterface>(op);
      // A cotangent only reaches results computed from a differentiated
      // argument, so the op needs a rule.
      if (!differentiable)
        return op.emitError("cannot differentiate '")
               << op.getName() << "': it has no gradient rule";
      if (failed(differentiable.emitAdjoint(builder_, *this)))
        return failure();
    }
    return success();
  }

  Value primal(Value original) override {
    return primals_.lookupOrNull(original);
  }
  void setPrimal(Value original, Value primal) override {
    primals_.map(original, primal);
  }
  LogicalResult clonePrimal(Operation *op, OpBuilder &builder) override {
    // A region cloned before (a loop body cloned twice, or by a parent
    // sweep) left its blocks and arguments in the mapping; Region::cloneInto
    // would take mapped arguments as dropped and build argument-less blocks.
    op->walk([&](Block *block) {
      primals_.erase(block);
      for (BlockArgument arg : block->getArguments())
        primals_.erase(arg);
    });
    builder.clone(*op, primals_);
    return success();
  }

  void save(Operation *original, ValueRange values) override {
    saved_[original].assign(values.begin(), values.end());
  }
  ValueRange saved(Operation *original) override { return saved_[original]; }

  Value cotangent(Value originalResult) override {
    return cotangents_.lookup(originalResult);
  }

  bool isActive(Value original) override { return active_.contains(original); }

  bool savesResultsOf(Operation *op) override {
    return mlir::trace::savesResultsOf(op, policy_);
  }

  LogicalResult accumulate(Value originalOperand, Value cotangent) override {
    // Integers, booleans and values no differentiated argument reaches
    // (constants, stop_gradient results' producers) carry no gradient.
    if (!carriesGradient(originalOperand.getType()) ||
        !active_.contains(originalOperand))
      return success();
    // With `?` dims a rule may know more (or less) of a size than the
    // operand's type does (`?` vs 3 broadcasts to 3): cast, not an error.
    Type type = cotangentType(originalOperand.getType());
    Value cast = castCotangent(builder_, cotangent, type);
    if (!cast)
      return emitError(cotangent.getLoc())
             << "gradient rule produced a cotangent of type "
             << cotangent.getType() << " for a value of type "
             << originalOperand.getType();
    cotangent = cast;
    Value &sum = cotangents_[originalOperand];
    // Fan-in: every use contributes; the contributions add up.
    sum = sum ? AddOp::create(builder_, cotangent.getLoc(), sum, cotangent)
                    .getResult()
              : cotangent;
    return success();
  }

  FailureOr<GradientFunctions> differentiate(func::FuncOp callee) override {
    auto result = differentiator_.differentiate(
        callee, Differentiator::differentiableArguments(callee));
    if (failed(result))
      return failure();
    return result->functions;
  }

  FailureOr<SmallVector<Value>>
  differentiateBlock(Block &block, ValueRange primalArgs,
                     ArrayRef<Value> terminatorCotangents,
                     ArrayRef<Value> captured, OpBuilder &builder,
                     ArrayRef<std::pair<Value, Value>> knownPrimals) override {
    Sweep child(differentiator_, builder, policy_, this);
    SmallVector<BlockArgument> args;
    for (BlockArgument arg : block.getArguments())
      if (carriesGradient(arg.getType()))
        args.push_back(arg);
    if (failed(child.run(block, primalArgs, terminatorCotangents, args,
                         /*lastPrimal=*/nullptr, knownPrimals)))
      return failure();
    SmallVector<Value> cotangents;
    auto collect = [&](Value original) -> LogicalResult {
      Value ct = child.cotangent(original);
      if (!ct && carriesGradient(original.getType())) {
        FailureOr<Value> zeros = zerosLike(
            builder, block.getParentOp()->getLoc(), child.primal(original));
        if (failed(zeros))
          return failure();
        ct = *zeros;
      }
      cotangents.push_back(ct);
      return success();
    };
    for (BlockArgument arg : block.getArguments())
      if (failed(collect(arg)))
        return failure();
    for (Value value : captured)
      if (failed(collect(value)))
        return failure();
    return cotangents;
  }

private:
  /// Activity: a value is active when it depends on an active argument or
  /// an active value from above, through operands or uses inside regions.
  void markActive(Block &body, ArrayRef<BlockArgument> activeArgs) {
    for (BlockArgument arg : activeArgs)
      active_.insert(arg);
    for (Operation &op : body) {
      if (!readsAnyOf(&op, [&](Value v) { return active_.contains(v); }))
        continue;
      for (Value result : op.getResults())
        if (carriesGradient(result.getType()))
          active_.insert(result);
    }
  }

  Differentiator &differentiator_;
  OpBuilder &builder_;
  RematPolicy policy_;
  IRMapping primals_;
  DenseMap<Value, Value> cotangents_;
  DenseMap<Operation *, SmallVector<Value>> saved_;
  DenseSet<Value> active_;
};

} // namespace

FailureOr<Differentiated>
Differentiator::differentiate(func::FuncOp f, ArrayRef<int64_t> wrt) {
  auto key = std::make_pair(f.getSymName().str(),
                            std::vector<int64_t>(wrt.begin(), wrt.end()));
  auto it = cache_.find(key);
  if (it != cache_.end())
    return it->second;
  if (!inProgress_.insert(key.first).second)
    return f.emitError("cannot differentiate @")
           << f.getSymName()
           << ": it calls itself (recursive functions have no static "
              "forward/backward split)";
  std::optional<CustomVjp> custom = getCustomVjp(f);
  FailureOr<Differentiated> result =
      custom ? useCustomVjp(f, *custom, wrt) : generate(f, wrt);
  inProgress_.erase(key.first);
  if (succeeded(result))
    cache_.emplace(key, *result);
  return result;
}

/// Rules build a cotangent for every operand, also ones that are dropped
/// (inactive operands, such as constants or arguments outside `wrt`). Erases
/// the side-effect-free ops of `ops` that nothing in `roots` depends on, so
/// the residuals are what the remaining backward code reads.
static void eraseDeadCode(llvm::iterator_range<Block::iterator> ops,
                          ArrayRef<Value> roots) {
  DenseSet<Value> live(roots.begin(), roots.end());
  SmallVector<Operation *> reversed;
  for (Operation &op : ops)
    reversed.push_back(&op);
  for (Operation *op : llvm::reverse(reversed)) {
    bool needed = !isMemoryEffectFree(op) ||
                  llvm::any_of(op->getResults(),
                               [&](Value v) { return live.contains(v); });
    if (!needed) {
      op->erase();
      continue;
    }
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        live.insert(operand);
    });
  }
}

FailureOr<Differentiated>
Differentiator::useCustomVjp(func::FuncOp f, CustomVjp custom,
                             ArrayRef<int64_t> wrt) {
  Differentiated result;
  FunctionType type = f.getFunctionType();
  for (auto [i, resultType] : llvm::enumerate(type.getResults()))
    if (carriesGradient(resultType))
      result.cotangentResults.push_back(i);
  // bwd returns one cotangent per float argument; `wrt` selects.
  SmallVector<int64_t> all = differentiableArguments(f);
  SmallVector<unsigned> selected;
  for (int64_t index : wrt) {
    auto *it = llvm::find(all, index);
    if (it == all.end())
      return f.emitError("cannot differentiate @")
             << f.getSymName() << " with respect to argument " << index
             << ": its custom backward function @"
             << custom.backward.getSymName()
             << " gives cotangents of float arguments only";
    selected.push_back(it - all.begin());
  }
  func::FuncOp backward = custom.backward;
  if (ArrayRef<int64_t>(wrt) != ArrayRef<int64_t>(all)) {
    std::string name = ("__backward_" + f.getSymName() + "_wrt").str();
    for (int64_t index : wrt)
      name += "_" + std::to_string(index);
    FunctionType bwdType = custom.backward.getFunctionType();
    SmallVector<Type> resultTypes;
    for (unsigned k : selected)
      resultTypes.push_back(bwdType.getResult(k));
    OpBuilder builder(f);
    builder.setInsertionPointAfter(f);
    backward = func::FuncOp::create(
        builder, f.getLoc(), uniqueName(name),
        builder.getFunctionType(bwdType.getInputs(), resultTypes));
    backward.setPrivate();
    Block *entry = backward.addEntryBlock();
    OpBuilder b = OpBuilder::atBlockEnd(entry);
    auto call = func::CallOp::create(b, f.getLoc(), custom.backward,
                                     entry->getArguments());
    SmallVector<Value> returned;
    for (unsigned k : selected)
      returned.push_back(call.getResult(k));
    func::ReturnOp::create(b, f.getLoc(), returned);
    symbols_.insert(backward);
  }
  result.functions =
      GradientFunctions{custom.forward, backward, SmallVector<int64_t>(wrt)};
  return result;
}

namespace {
/// Emits the recomputed forward ops into the backward function. Constants
/// come first, in their forward order (what every gradient recomputes).
/// Any other op is computed again just before the first adjoint op that
/// needs it, so a recomputed value is not alive across the whole backward
/// function. The saved inputs of those ops go through one
/// trace.optimization_barrier at the top: once a fused train step inlines
/// forward and backward, CSE would otherwise merge each recomputed op with
/// the forward op it copies, and the forward's value would stay alive until
/// the backward reads it (nothing saved). Without recomputation (only
/// constants) the backward function is what it was without the barrier.
class Rematerializer {
public:
  Rematerializer(ArrayRef<Operation *> recomputed,
                 const llvm::SetVector<Value> &residuals, IRMapping &mapping,
                 OpBuilder &builder, Location loc)
      : mapping_(mapping), builder_(builder) {
    llvm::SetVector<Value> inputs;
    for (Operation *op : recomputed) {
      if (op->hasTrait<OpTrait::ConstantLike>()) {
        builder.clone(*op, mapping);
        continue;
      }
      pending_.insert(op);
      for (Value operand : op->getOperands())
        if (residuals.contains(operand))
          inputs.insert(operand);
    }
    if (inputs.empty())
      return;
    SmallVector<Value> saved;
    for (Value input : inputs)
      saved.push_back(mapping.lookup(input));
    auto barrier = OptimizationBarrierOp::create(builder, loc, saved);
    mapping.map(inputs.getArrayRef(), barrier.getResults());
  }

  /// Emits the recomputed ops that `op` (or a value it holds in a region)
  /// reads and that are not emitted yet, in their forward order.
  void before(Operation &op) {
    SmallVector<Value> values;
    op.walk([&](Operation *nested) {
      llvm::append_range(values, nested->getOperands());
    });
    emit(values);
  }
  void before(Value value) { emit({value}); }

private:
  void emit(SmallVector<Value> worklist) {
    if (pending_.empty())
      return;
    SmallVector<Operation *> needed;
    while (!worklist.empty()) {
      Operation *def = worklist.pop_back_val().getDefiningOp();
      if (!def || !pending_.erase(def))
        continue;
      needed.push_back(def);
      llvm::append_range(worklist, def->getOperands());
    }
    llvm::sort(needed,
               [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
    for (Operation *op : needed)
      builder_.clone(*op, mapping_);
  }

  DenseSet<Operation *> pending_;
  IRMapping &mapping_;
  OpBuilder &builder_;
};
} // namespace

/// Whether the backward function can compute `op` again instead of
/// receiving its results: a region-free op without memory effects whose
/// operands and results are plain values (no tokens or variables).
static bool isRecomputable(Operation *op) {
  auto plain = [](Type type) {
    return isa<RankedTensorType, IndexType, IntegerType, FloatType>(type);
  };
  return op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
         llvm::all_of(op->getOperandTypes(), plain) &&
         llvm::all_of(op->getResultTypes(), plain);
}

FailureOr<Differentiated> Differentiator::generate(func::FuncOp f,
                                                   ArrayRef<int64_t> wrt) {
  Location loc = f.getLoc();
  if (f.isExternal())
    return f.emitError("cannot differentiate @")
           << f.getSymName() << ": it is a declaration without a body";
  if (!llvm::hasSingleElement(f.getBody()))
    return f.emitError("cannot differentiate @")
           << f.getSymName()
           << ": it has several blocks (express control flow with scf ops)";

  Differentiated result;
  FunctionType type = f.getFunctionType();
  unsigned numArgs = type.getNumInputs();
  SmallVector<Type> combinedInputs(type.getInputs());
  for (auto [i, resultType] : llvm::enumerate(type.getResults()))
    if (carriesGradient(resultType)) {
      result.cotangentResults.push_back(i);
      combinedInputs.push_back(resultType);
    }

  // The combined function: primal sweep, then adjoint sweep. It is never
  // inserted into the module; the forward and backward functions are cut
  // out of it.
  OpBuilder builder(f.getContext());
  OwningOpRef<func::FuncOp> combined = func::FuncOp::create(
      loc, "combined", builder.getFunctionType(combinedInputs, {}));
  Block *block = combined->addEntryBlock();
  builder.setInsertionPointToEnd(block);
  RematPolicy policy = getCheckpointPolicy(f).value_or(remat_);
  Sweep sweep(*this, builder, policy);

  Block &body = f.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  // Seed: each returned float value gets its result's cotangent.
  SmallVector<Value> seeds(ret.getNumOperands());
  for (auto [k, resultIndex] : llvm::enumerate(result.cotangentResults))
    seeds[resultIndex] = block->getArgument(numArgs + k);
  SmallVector<BlockArgument> activeArgs;
  for (int64_t index : wrt)
    activeArgs.push_back(body.getArgument(index));
  // The primal code ends at lastPrimal; the adjoint code follows it.
  Operation *lastPrimal = nullptr;
  if (failed(sweep.run(body, block->getArguments().take_front(numArgs), seeds,
                       activeArgs, &lastPrimal)))
    return failure();

  SmallVector<Value> grads;
  for (int64_t index : wrt) {
    Value grad = sweep.cotangent(body.getArgument(index));
    if (!grad) {
      result.unconnected.push_back(index);
      FailureOr<Value> zeros =
          zerosLike(builder, loc, block->getArgument(index));
      if (failed(zeros))
        return failure();
      grad = *zeros;
    }
    grads.push_back(grad);
  }

  // Split. Forward values: the primal arguments and the primal ops' results.
  Block::iterator adjointBegin =
      lastPrimal ? std::next(lastPrimal->getIterator()) : block->begin();
  eraseDeadCode(llvm::make_range(adjointBegin, block->end()), grads);
  adjointBegin =
      lastPrimal ? std::next(lastPrimal->getIterator()) : block->begin();
  DenseSet<Operation *> forwardOps;
  for (Operation &op : llvm::make_range(block->begin(), adjointBegin))
    forwardOps.insert(&op);
  auto isForwardValue = [&](Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return arg.getOwner() == block && arg.getArgNumber() < numArgs;
    return forwardOps.contains(v.getDefiningOp());
  };
  // Residuals: the forward values the adjoint code reads, except those the
  // backward function computes again instead (rematerializes): constants,
  // and under a policy that does not save them, recomputable ops, whose
  // operands are then needed in turn, down to saved values or arguments.
  llvm::SetVector<Value> residuals;
  llvm::SetVector<Operation *> rematerialized;
  SmallVector<Value> worklist;
  auto need = [&](Value v) {
    if (!isForwardValue(v))
      return;
    Operation *def = v.getDefiningOp();
    bool recompute =
        def && (def->hasTrait<OpTrait::ConstantLike>() ||
                (isRecomputable(def) && !savesResultsOf(def, policy)));
    if (!recompute) {
      residuals.insert(v);
      return;
    }
    if (rematerialized.insert(def))
      llvm::append_range(worklist, def->getOperands());
  };
  for (Operation &op : llvm::make_range(adjointBegin, block->end()))
    op.walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        need(operand);
    });
  for (Value grad : grads)
    need(grad);
  while (!worklist.empty())
    need(worklist.pop_back_val());
  // In their forward order (see Rematerializer).
  SmallVector<Operation *> recomputed(rematerialized.getArrayRef());
  llvm::sort(recomputed,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });

  OpBuilder moduleBuilder(f);
  moduleBuilder.setInsertionPointAfter(f);
  std::string suffix;
  if (ArrayRef<int64_t>(wrt) != ArrayRef<int64_t>(differentiableArguments(f))) {
    suffix = "_wrt";
    for (int64_t index : wrt)
      suffix += "_" + std::to_string(index);
  }

  // __forward_f(args) -> (results..., residuals...)
  SmallVector<Type> forwardResults(type.getResults());
  for (Value residual : residuals)
    forwardResults.push_back(residual.getType());
  auto forward = func::FuncOp::create(
      moduleBuilder, loc,
      uniqueName(("__forward_" + f.getSymName() + suffix).str()),
      moduleBuilder.getFunctionType(type.getInputs(), forwardResults));
  forward.setPrivate();
  {
    IRMapping mapping;
    Block *entry = forward.addEntryBlock();
    OpBuilder b = OpBuilder::atBlockEnd(entry);
    mapping.map(block->getArguments().take_front(numArgs), entry->getArguments());
    for (Operation &op : llvm::make_range(block->begin(), adjointBegin))
      b.clone(op, mapping);
    SmallVector<Value> returned;
    for (Value v : ret.getOperands())
      returned.push_back(mapping.lookup(sweep.primal(v)));
    for (Value residual : residuals)
      returned.push_back(mapping.lookup(residual));
    func::ReturnOp::create(b, loc, returned);
  }
  symbols_.insert(forward);

  // __backward_f(residuals..., cotangents...) -> (grads...)
  SmallVector<Type> backwardInputs;
  for (Value residual : residuals)
    backwardInputs.push_back(residual.getType());
  for (unsigned resultIndex : result.cotangentResults)
    backwardInputs.push_back(type.getResult(resultIndex));
  SmallVector<Type> gradTypes;
  for (Value grad : grads)
    gradTypes.push_back(grad.getType());
  moduleBuilder.setInsertionPointAfter(forward);
  auto backward = func::FuncOp::create(
      moduleBuilder, loc,
      uniqueName(("__backward_" + f.getSymName() + suffix).str()),
      moduleBuilder.getFunctionType(backwardInputs, gradTypes));
  backward.setPrivate();
  {
    IRMapping mapping;
    Block *entry = backward.addEntryBlock();
    OpBuilder b = OpBuilder::atBlockEnd(entry);
    mapping.map(residuals.getArrayRef(),
                entry->getArguments().take_front(residuals.size()));
    mapping.map(block->getArguments().drop_front(numArgs),
                entry->getArguments().drop_front(residuals.size()));
    Rematerializer remat(recomputed, residuals, mapping, b, loc);
    for (Operation &op : llvm::make_range(adjointBegin, block->end())) {
      remat.before(op);
      b.clone(op, mapping);
    }
    SmallVector<Value> returned;
    for (Value grad : grads) {
      remat.before(grad);
      returned.push_back(mapping.lookupOrDefault(grad));
    }
    func::ReturnOp::create(b, loc, returned);
  }
  symbols_.insert(backward);

  result.functions = GradientFunctions{forward, backward,
                                       SmallVector<int64_t>(wrt)};
  return result;
}
