//===- Vmap.cpp - The trace-vmap pass -------------------------------------===//
//
// Rewrites each trace.vmap into a call of the batched form of its callee
// (the Batcher, which trace-autodiff uses too).
// The batched form clones the callee's ops in order; an op with a batched
// operand is built by its batching rule (BatchableOpInterface), the others
// are cloned as they are and stay unbatched (computed once for the whole
// batch). An op with a batched operand and no rule runs once per example in
// a loop (as PyTorch's vmap falls back), so every op can be batched; rules
// make it fast. The batch dim always leads: the op's in_axes and out_axes
// become transposes around the call. trace.vmap ops inside a callee are rewritten
// before the callee is batched, so vmap nests.
//
//===----------------------------------------------------------------------===//

#include "tracec/Transforms/Differentiation/Passes.h"
#include "tracec/Transforms/Differentiation/Batcher.h"

#include "tracec/Dialect/Trace/IR/DifferentiableOpInterface.h"
#include "tracec/Dialect/Trace/IR/DifferentiationAttributes.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEVMAP
#include "tracec/Transforms/Differentiation/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;
using namespace mlir::trace;

namespace {

/// The state of one function being batched.
class FunctionBatchState : public BatchState {
public:
  FunctionBatchState(Batcher &batcher, int64_t size)
      : batcher(batcher), size(size) {}

  int64_t batchSize() override { return size; }
  Value lookup(Value original) override { return mapping.lookup(original); }
  bool isBatched(Value original) override {
    return batchedValues.contains(original);
  }
  Value materialize(OpBuilder &builder, Value original) override {
    Value value = lookup(original);
    if (isBatched(original))
      return value;
    Type type = value.getType();
    // Contents undefined (a tape before it is written): a bigger one.
    if (auto empty = value.getDefiningOp<tensor::EmptyOp>()) {
      RankedTensorType batched = withBatchDim(type, size);
      return tensor::EmptyOp::create(builder, value.getLoc(), batched,
                                     empty.getDynamicSizes());
    }
    // A scalar (a cond's i1) as a rank-0 tensor first.
    if (!isa<RankedTensorType>(type))
      value = tensor::FromElementsOp::create(
          builder, value.getLoc(), RankedTensorType::get({}, type), value);
    return BroadcastToOp::create(builder, value.getLoc(), value,
                                 withBatchDim(type, size).getShape());
  }
  void map(Value original, Value value, bool batched) override {
    mapping.map(original, value);
    if (batched)
      batchedValues.insert(original);
    else
      batchedValues.erase(original);
  }
  LogicalResult emitBlock(OpBuilder &builder, Block &block) override;
  LogicalResult emitLoop(OpBuilder &builder, Operation *op) override;
  Value exampleOf(OpBuilder &builder, Value original, Value index);
  FailureOr<BatchedFunction> batchedCallee(Location loc,
                                           FlatSymbolRefAttr callee,
                                           ArrayRef<bool> batchedArgs,
                                           bool batchAllResults) override {
    return batcher.batched(loc, callee.getValue(), batchedArgs, size,
                           batchAllResults);
  }

  IRMapping mapping;

private:
  Batcher &batcher;
  int64_t size;
  DenseSet<Value> batchedValues;
};

/// Whether `op` has a batched operand, or its regions read a batched value
/// from above.
bool readsBatched(Operation *op, FunctionBatchState &state) {
  return readsAnyOf(op, [&](Value v) { return state.isBatched(v); });
}

LogicalResult FunctionBatchState::emitBlock(OpBuilder &builder, Block &block) {
  for (Operation &op : block.without_terminator()) {
    if (!readsBatched(&op, *this)) {
      // A loop's body is emitted again when a carry turns out batched:
      // the args of the blocks nested in `op` may still be mapped from the
      // last time, and a clone maps only unmapped block args.
      op.walk([&](Block *block) {
        for (BlockArgument arg : block->getArguments())
          mapping.erase(arg);
      });
      builder.clone(op, mapping);
      continue;
    }
    auto rule = dyn_cast<BatchableOpInterface>(&op);
    if (failed(rule ? rule.emitBatched(builder, *this)
                    : emitLoop(builder, &op)))
      return failure();
  }
  return success();
}

/// Example `index` of batched `original`'s value.
Value FunctionBatchState::exampleOf(OpBuilder &builder, Value original,
                                    Value index) {
  Location loc = original.getLoc();
  Value batched = lookup(original);
  auto type = dyn_cast<RankedTensorType>(original.getType());
  if (!type)
    return tensor::ExtractOp::create(builder, loc, batched, index);
  SmallVector<OpFoldResult> offsets(type.getRank() + 1,
                                    builder.getIndexAttr(0));
  offsets[0] = index;
  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(builder, loc, batched);
  sizes[0] = builder.getIndexAttr(1);
  SmallVector<OpFoldResult> strides(type.getRank() + 1,
                                    builder.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(builder, loc, type, batched, offsets,
                                        sizes, strides);
}

LogicalResult FunctionBatchState::emitLoop(OpBuilder &builder,
                                           Operation *op) {
  Location loc = op->getLoc();
  SmallVector<Value> stacks;
  for (Type type : op->getResultTypes()) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (tensor ? !tensor.hasStaticShape() : !type.isIntOrIndexOrFloat())
      return op->emitOpError("cannot be batched (vmap): no batching rule "
                             "covers it, and run once per example, its "
                             "result of type ")
             << type << " cannot be stacked";
    RankedTensorType stacked = withBatchDim(type, size);
    stacks.push_back(tensor::EmptyOp::create(
        builder, loc, stacked.getShape(), stacked.getElementType()));
  }
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  Value count = arith::ConstantIndexOp::create(builder, loc, size);
  auto loop = scf::ForOp::create(builder, loc, zero, count, one, stacks);
  // (The builder gives the body a terminator only when there are no
  // results.)
  if (loop.getBody()->mightHaveTerminator())
    loop.getBody()->getTerminator()->erase();
  OpBuilder body = OpBuilder::atBlockBegin(loop.getBody());
  Value example = loop.getInductionVar();
  // The values the op reads from outside (operands, its regions' captures):
  // its example's slice of the batched ones, the others as they are.
  IRMapping perExampleMapping;
  op->walk([&](Operation *inner) {
    for (Value operand : inner->getOperands()) {
      if (op->isAncestor(operand.getParentBlock()->getParentOp()) ||
          perExampleMapping.contains(operand))
        continue;
      perExampleMapping.map(operand, isBatched(operand)
                                         ? exampleOf(body, operand, example)
                                         : lookup(operand));
    }
  });
  Operation *perExample = body.clone(*op, perExampleMapping);
  SmallVector<Value> yields;
  for (auto [result, stack] :
       llvm::zip(perExample->getResults(), loop.getRegionIterArgs())) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type) {
      yields.push_back(
          tensor::InsertOp::create(body, loc, result, stack, example));
      continue;
    }
    SmallVector<OpFoldResult> offsets(type.getRank() + 1,
                                      body.getIndexAttr(0));
    offsets[0] = example;
    SmallVector<OpFoldResult> sizes{body.getIndexAttr(1)};
    for (int64_t dim : type.getShape())
      sizes.push_back(body.getIndexAttr(dim));
    SmallVector<OpFoldResult> strides(type.getRank() + 1,
                                      body.getIndexAttr(1));
    yields.push_back(tensor::InsertSliceOp::create(body, loc, result, stack,
                                                   offsets, sizes, strides));
  }
  scf::YieldOp::create(body, loc, yields);
  for (auto [original, stacked] :
       llvm::zip(op->getResults(), loop.getResults()))
    map(original, stacked, /*batched=*/true);
  return success();
}

/// The permutation that moves dim `from` of a rank-`rank` tensor to `to`.
SmallVector<int64_t> moveDim(int64_t rank, int64_t from, int64_t to) {
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    if (d != from)
      perm.push_back(d);
  perm.insert(perm.begin() + to, from);
  return perm;
}

Value moved(OpBuilder &builder, Location loc, Value value, int64_t from,
            int64_t to) {
  if (from == to)
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> perm = moveDim(type.getRank(), from, to);
  SmallVector<int64_t> shape;
  for (int64_t d : perm)
    shape.push_back(type.getDimSize(d));
  return TransposeOp::create(builder, loc, type.clone(shape), value,
                             builder.getDenseI64ArrayAttr(perm));
}

} // namespace

LogicalResult Batcher::rewriteVmapsIn(func::FuncOp f) {
  if (!rewritten.insert(f).second)
    return success();
  SmallVector<VmapOp> vmaps;
  f.walk([&](VmapOp vmap) { vmaps.push_back(vmap); });
  for (VmapOp vmap : vmaps)
    if (failed(rewrite(vmap)))
      return failure();
  return success();
}

LogicalResult Batcher::rewrite(VmapOp vmap) {
  OpBuilder builder(vmap);
  Location loc = vmap.getLoc();
  SmallVector<bool> batchedArgs;
  SmallVector<Value> args;
  for (auto [arg, axis] : llvm::zip(vmap.getArgs(), vmap.getInAxes())) {
    // (Functions batched for the vmap's callee may take dynamic shapes, as
    // the tapes of a loop's gradient are; what the user maps is static.)
    if (axis >= 0 && !cast<ShapedType>(arg.getType()).hasStaticShape())
      return vmap.emitOpError("cannot map an argument of dynamic type ")
             << arg.getType() << ": vmap maps static shapes";
    batchedArgs.push_back(axis >= 0);
    args.push_back(axis >= 0 ? moved(builder, loc, arg, axis, 0) : arg);
  }
  int64_t size = vmap.getBatchSize();
  FailureOr<BatchedFunction> callee =
      batched(loc, vmap.getCallee(), batchedArgs, size,
              /*batchAllResults=*/false);
  if (failed(callee))
    return failure();
  auto call = func::CallOp::create(builder, loc, callee->func, args);
  SmallVector<Value> results;
  for (auto [result, isBatched, axis] : llvm::zip(
           call.getResults(), callee->batchedResults, vmap.getOutAxes())) {
    // A result that is the same for every example, repeated.
    Value value = result;
    if (!isBatched)
      value = BroadcastToOp::create(
          builder, loc, value,
          withBatchDim(value.getType(), size).getShape());
    results.push_back(moved(builder, loc, value, 0, axis));
  }
  vmap.replaceAllUsesWith(results);
  vmap.erase();
  return success();
}

FailureOr<BatchedFunction> Batcher::batched(Location loc, StringRef callee,
                                            ArrayRef<bool> batchedArgs,
                                            int64_t size,
                                            bool batchAllResults) {
  std::string key = callee.str() + "_";
  for (bool isBatched : batchedArgs)
    key += isBatched ? 'b' : 'u';
  key += "_" + std::to_string(size) + (batchAllResults ? "_all" : "");
  auto found = generated.find(key);
  if (found != generated.end())
    return found->second;
  auto f = symbols.lookup<func::FuncOp>(callee);
  if (!f || f.isExternal())
    return emitError(loc) << "vmap: @" << callee
                          << " is not a function with a body";
  if (f->hasAttr(kCustomVjpAttrName))
    return emitError(loc) << "vmap: @" << callee
                          << " has a custom gradient (trace.custom_vjp), "
                             "which cannot be batched yet";
  if (failed(rewriteVmapsIn(f)))
    return failure();
  FailureOr<BatchedFunction> batchedF =
      generate(f, batchedArgs, size, batchAllResults);
  if (failed(batchedF))
    return failure();
  generated[key] = *batchedF;
  return *batchedF;
}

FailureOr<BatchedFunction> Batcher::generate(func::FuncOp f,
                                             ArrayRef<bool> batchedArgs,
                                             int64_t size,
                                             bool batchAllResults) {
  if (!f.getBody().hasOneBlock())
    return f.emitOpError("cannot be batched (vmap): its body has several "
                         "blocks");
  SmallVector<Type> argTypes;
  for (auto [type, isBatched] :
       llvm::zip(f.getFunctionType().getInputs(), batchedArgs)) {
    if (isa<ResourceType>(type))
      return f.emitOpError("cannot be batched (vmap): it takes a variable ")
             << type << " (pass its value instead)";
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (isBatched && !tensor && !type.isIntOrFloat())
      return f.emitOpError("cannot be batched (vmap) over a ") << type;
    argTypes.push_back(isBatched ? Type(withBatchDim(type, size)) : type);
  }

  std::string name = "__vmap_" + f.getSymName().str() + "_";
  for (bool isBatched : batchedArgs)
    name += isBatched ? 'b' : 'u';
  name += "_" + std::to_string(size) + (batchAllResults ? "_all" : "");
  OpBuilder builder(f);
  builder.setInsertionPointAfter(f);
  auto batchedF = func::FuncOp::create(
      builder, f.getLoc(), name, builder.getFunctionType(argTypes, {}));
  batchedF.setPrivate();
  // A rematerialization policy holds for the batched function too.
  if (Attribute policy = f->getAttr(kCheckpointAttrName))
    batchedF->setAttr(kCheckpointAttrName, policy);
  symbols.insert(batchedF);

  Block &body = f.getBody().front();
  Block *entry = batchedF.addEntryBlock();
  FunctionBatchState state(*this, size);
  for (auto [original, arg, isBatched] :
       llvm::zip(body.getArguments(), entry->getArguments(), batchedArgs))
    state.map(original, arg, isBatched);

  builder.setInsertionPointToStart(entry);
  if (failed(state.emitBlock(builder, body)))
    return failure();
  BatchedFunction generated{batchedF, {}};
  SmallVector<Value> results;
  for (Value result : body.getTerminator()->getOperands()) {
    bool isBatched = batchAllResults || state.isBatched(result);
    results.push_back(isBatched ? state.materialize(builder, result)
                                : state.lookup(result));
    generated.batchedResults.push_back(isBatched);
  }
  func::ReturnOp::create(builder, f.getLoc(), results);
  batchedF.setFunctionType(builder.getFunctionType(
      argTypes, ValueRange(results).getTypes()));
  return generated;
}

namespace {

struct VmapPass : mlir::trace::impl::TraceVmapBase<VmapPass> {
  void runOnOperation() override {
    SymbolTable symbols(getOperation());
    Batcher batcher(symbols);
    SmallVector<func::FuncOp> functions(
        getOperation().getOps<func::FuncOp>());
    for (func::FuncOp f : functions)
      if (failed(batcher.rewriteVmapsIn(f)))
        return signalPassFailure();
  }
};

} // namespace
