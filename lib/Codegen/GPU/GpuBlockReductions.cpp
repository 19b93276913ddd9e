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

#include "BlockShare.h"
#include "FoldedIndexMath.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEGPUBLOCKREDUCTIONS
#include "tracec/Codegen/GPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;
using namespace mlir::trace;

/// Rewrites `op` into a launch with a block per output element. Extents
/// are the loop ranges' sizes: constants where static, memref.dim of the
/// operands where dynamic (the grid is then computed at run time).
static void rewrite(linalg::GenericOp op, const Combiner &combiner,
                    int64_t maxThreads) {
  Location loc = op.getLoc();
  OpBuilder b(op);
  SmallVector<OpFoldResult> extents = loopExtents(b, op);
  SmallVector<OpFoldResult> parallelExtents, reductionExtents;
  SmallVector<unsigned> parallelDims;
  for (auto [d, type] : llvm::enumerate(op.getIteratorTypesArray())) {
    bool reduction = type == utils::IteratorType::reduction;
    (reduction ? reductionExtents : parallelExtents).push_back(extents[d]);
    if (!reduction)
      parallelDims.push_back(d);
  }
  OpFoldResult outputs = foldedProduct(b, loc, parallelExtents);
  int64_t threads = blockThreads(
      getConstantIntValue(foldedProduct(b, loc, reductionExtents)), maxThreads);

  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto launch = gpu::LaunchOp::create(
      b, loc, materialize(b, loc, outputs), one, one,
      arith::ConstantIndexOp::create(b, loc, threads), one, one);
  b.setInsertionPointToStart(&launch.getBody().front());
  SmallVector<Value> fixed(extents.size());
  for (auto [d, index] :
       llvm::zip(parallelDims,
                 delinearize(b, loc, launch.getBlockIds().x, parallelExtents)))
    fixed[d] = index;
  emitBlockShare(b, loc, op, extents, fixed, launch.getThreadIds().x, threads,
                 combiner);
  gpu::TerminatorOp::create(b, loc);
  op.erase();
}

namespace {
struct GpuBlockReductionsPass
    : mlir::trace::impl::TraceGpuBlockReductionsBase<GpuBlockReductionsPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(checkBlockThreads(getOperation(), "trace-gpu-block-reductions",
                                 threads)))
      return signalPassFailure();
    // linalg.reduce is the named form of the reductions handled here.
    generalizeReductions(getOperation());
    SmallVector<std::pair<linalg::GenericOp, Combiner>> reductions;
    getOperation().walk([&](linalg::GenericOp op) {
      if (std::optional<Combiner> combiner = matchBlockReduction(op))
        reductions.push_back({op, *combiner});
    });
    for (auto &[op, combiner] : reductions)
      rewrite(op, combiner, threads);
  }
};
} // namespace
