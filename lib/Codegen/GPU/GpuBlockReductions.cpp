//===- GpuBlockReductions.cpp - A reduction per block, as a tree ----------===//
//
// A linalg reduction lowered as plain parallel loops gives each output
// element one thread, which walks the whole reduction alone (and a full
// reduction, with no parallel dimension, no kernel at all). Here each
// output element gets a block instead: its threads take strided turns over
// the reduction space, then gpu.all_reduce combines their partial results
// as a tree (warp shuffles, then shared memory between warps; barriers in
// between), and thread 0 folds the total into the output.
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/GPU/Passes.h"

#include "AffineMapValues.h"
#include "FoldedIndexMath.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEGPUBLOCKREDUCTIONS
#include "tracec/Codegen/GPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;
using mlir::trace::applyMap;
using mlir::trace::foldedProduct;
using mlir::trace::materialize;

namespace {
/// The op that folds one value into the accumulator (`out`), and what it is
/// as a gpu.all_reduce.
struct Combiner {
  Operation *op;
  gpu::AllReduceOperation kind;
  TypedAttr identity;
};
} // namespace

static std::optional<Combiner> matchCombiner(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  BlockArgument out = body.getArguments().back();
  Operation *combine = body.getTerminator()->getOperand(0).getDefiningOp();
  if (!combine || combine->getBlock() != &body || !out.hasOneUse() ||
      combine->getNumOperands() != 2 ||
      !llvm::is_contained(combine->getOperands(), Value(out)))
    return std::nullopt;
  using Kind = gpu::AllReduceOperation;
  std::optional<Kind> kind =
      llvm::TypeSwitch<Operation *, std::optional<Kind>>(combine)
          .Case([](arith::AddFOp) { return Kind::ADD; })
          .Case([](arith::MulFOp) { return Kind::MUL; })
          .Case([](arith::MaxNumFOp) { return Kind::MAXNUMF; })
          .Case([](arith::MinNumFOp) { return Kind::MINNUMF; })
          .Case([](arith::MaximumFOp) { return Kind::MAXIMUMF; })
          .Case([](arith::MinimumFOp) { return Kind::MINIMUMF; })
          .Case([](arith::AddIOp) { return Kind::ADD; })
          .Case([](arith::MulIOp) { return Kind::MUL; })
          .Case([](arith::MaxSIOp) { return Kind::MAXSI; })
          .Case([](arith::MinSIOp) { return Kind::MINSI; })
          .Case([](arith::OrIOp) { return Kind::OR; })
          .Case([](arith::AndIOp) { return Kind::AND; })
          .Case([](arith::XOrIOp) { return Kind::XOR; })
          .Default([](Operation *) { return std::nullopt; });
  // The identity of the combining op (upstream's table).
  std::optional<TypedAttr> identity = arith::getNeutralElement(combine);
  if (!kind || !identity)
    return std::nullopt;
  return Combiner{combine, *kind, *identity};
}

/// The reductions this pass handles: on buffers, one output, not a
/// matmul-like contraction or a convolution (those want their many outputs
/// spread over threads; a dot product or matvec is fine), 32-bit values
/// (what one warp shuffle moves).
static std::optional<Combiner> matchReduction(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0 ||
      (linalg::isaContractionOpInterface(op) &&
       op.getNumParallelLoops() >= 2) ||
      linalg::isaConvolutionOpInterface(op))
    return std::nullopt;
  Type type = op.getRegion().front().getArguments().back().getType();
  if (!type.isF32() && !type.isInteger(32))
    return std::nullopt;
  return matchCombiner(op);
}

/// The indices of `linear` in a row-major space of `extents`.
static SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                                      ArrayRef<OpFoldResult> extents) {
  SmallVector<Value> indices(extents.size());
  for (int64_t d = extents.size() - 1; d >= 0; --d) {
    Value extent = materialize(b, loc, extents[d]);
    indices[d] = arith::RemUIOp::create(b, loc, linear, extent);
    linear = arith::DivUIOp::create(b, loc, linear, extent);
  }
  return indices;
}

/// Rewrites `op` into a launch with a block per output element. Extents
/// are the loop ranges' sizes: constants where static, memref.dim of the
/// operands where dynamic (the grid is then computed at run time).
static void rewrite(linalg::GenericOp op, const Combiner &combiner,
                    int64_t maxThreads) {
  Location loc = op.getLoc();
  OpBuilder b(op);
  SmallVector<Range> ranges =
      cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(b, loc);
  SmallVector<OpFoldResult> parallelExtents, reductionExtents;
  SmallVector<unsigned> parallelDims, reductionDims;
  for (auto [d, type] : llvm::enumerate(op.getIteratorTypesArray())) {
    bool reduction = type == utils::IteratorType::reduction;
    (reduction ? reductionExtents : parallelExtents).push_back(ranges[d].size);
    (reduction ? reductionDims : parallelDims).push_back(d);
  }
  OpFoldResult outputs = foldedProduct(b, loc, parallelExtents);
  OpFoldResult reduced = foldedProduct(b, loc, reductionExtents);
  // A reduction of unknown length takes every thread.
  int64_t threads = maxThreads;
  if (std::optional<int64_t> length = getConstantIntValue(reduced))
    threads = std::min<int64_t>(
        maxThreads, std::max<int64_t>(32, llvm::PowerOf2Ceil(*length)));

  auto constant = [&](OpBuilder &builder, int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  Value one = constant(b, 1);
  auto launch = gpu::LaunchOp::create(b, loc, materialize(b, loc, outputs), one,
                                      one, constant(b, threads), one, one);
  Block &body = launch.getBody().front();
  b.setInsertionPointToStart(&body);
  Value block = launch.getBlockIds().x, thread = launch.getThreadIds().x;

  Block &linalgBody = op.getRegion().front();
  Value out = linalgBody.getArguments().back();
  Value element = combiner.op->getOperand(0) == out
                      ? combiner.op->getOperand(1)
                      : combiner.op->getOperand(0);
  SmallVector<Value> ivs(ranges.size());
  for (auto [d, index] :
       llvm::zip(parallelDims, delinearize(b, loc, block, parallelExtents)))
    ivs[d] = index;

  // This thread's partial result: iterations thread, thread + T, ...
  Value identity = arith::ConstantOp::create(b, loc, combiner.identity);
  auto loop = scf::ForOp::create(b, loc, thread, materialize(b, loc, reduced),
                                 constant(b, threads), ValueRange{identity});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    for (auto [d, index] :
         llvm::zip(reductionDims, delinearize(b, loc, loop.getInductionVar(),
                                              reductionExtents)))
      ivs[d] = index;
    IRMapping mapping;
    for (OpOperand *input : op.getDpsInputOperands()) {
      Value value = input->get();
      AffineMap map = op.getMatchingIndexingMap(input);
      mapping.map(linalgBody.getArgument(input->getOperandNumber()),
                  memref::LoadOp::create(b, loc, value,
                                         applyMap(b, loc, map, ivs)));
    }
    mapping.map(out, loop.getRegionIterArg(0));
    for (Operation &bodyOp : linalgBody.without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(bodyOp)) {
        mapping.map(index.getResult(), ivs[index.getDim()]);
        continue;
      }
      b.clone(bodyOp, mapping);
    }
    scf::YieldOp::create(b, loc,
                         mapping.lookup(combiner.op->getResult(0)));
  }

  // The block's total, then thread 0 folds it into the output.
  Value total = gpu::AllReduceOp::create(
      b, loc, loop.getResult(0),
      gpu::AllReduceOperationAttr::get(b.getContext(), combiner.kind),
      /*uniform=*/true);
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      thread, constant(b, 0));
  auto ifFirst = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifFirst.getThenRegion().front());
    // The output's map reads no reduction dimension; the loop's indices
    // are out of scope here.
    for (unsigned d : reductionDims)
      ivs[d] = constant(b, 0);
    OpOperand *init = op.getDpsInitOperand(0);
    SmallVector<Value> indices =
        applyMap(b, loc, op.getMatchingIndexingMap(init), ivs);
    Value old = memref::LoadOp::create(b, loc, init->get(), indices);
    IRMapping mapping;
    mapping.map(out, old);
    mapping.map(element, total);
    Operation *folded = b.clone(*combiner.op, mapping);
    memref::StoreOp::create(b, loc, folded->getResult(0), init->get(),
                            indices);
  }
  gpu::TerminatorOp::create(b, loc);
  op.erase();
}

namespace {
struct GpuBlockReductionsPass
    : mlir::trace::impl::TraceGpuBlockReductionsBase<GpuBlockReductionsPass> {
  using Base::Base;
  void runOnOperation() override {
    if (threads < 32 || threads > 1024 || !llvm::isPowerOf2_64(threads)) {
      getOperation().emitError("trace-gpu-block-reductions: threads must be "
                               "a power of two from 32 to 1024, got ")
          << threads.getValue();
      return signalPassFailure();
    }
    // linalg.reduce is the named form of the ops this pass handles.
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::ReduceOp> named;
    getOperation().walk([&](linalg::ReduceOp op) { named.push_back(op); });
    for (linalg::ReduceOp op : named) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
    SmallVector<std::pair<linalg::GenericOp, Combiner>> reductions;
    getOperation().walk([&](linalg::GenericOp op) {
      if (std::optional<Combiner> combiner = matchReduction(op))
        reductions.push_back({op, *combiner});
    });
    for (auto &[op, combiner] : reductions)
      rewrite(op, combiner, threads);
  }
};
} // namespace
