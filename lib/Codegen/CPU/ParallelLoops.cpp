//===- ParallelLoops.cpp - One parallel loop per large loop nest ----------===//
//
// convert-scf-to-openmp turns every scf.parallel into a parallel region, a
// multi-dimensional one into a collapsed loop whose inner indices are
// recomputed by division in every iteration (which defeats vectorization),
// and a nested one into a nested region. This pass leaves it one loop per
// nest worth forking for: the outermost loop of more than one iteration of
// a nest whose estimated work reaches the threshold.
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/CPU/Passes.h"

#include "tracec/Codegen/CPU/Ukernels.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEPARALLELLOOPS
#include "tracec/Codegen/CPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

/// Trip counts at or above this (and those of unknown step) count as
/// "large".
static constexpr int64_t kUnknownTrips = int64_t(1) << 32;

static int64_t saturatingMul(int64_t a, int64_t b) {
  if (a == 0 || b == 0)
    return 0;
  return a > std::numeric_limits<int64_t>::max() / b
             ? std::numeric_limits<int64_t>::max()
             : a * b;
}

static int64_t saturatingAdd(int64_t a, int64_t b) {
  return a > std::numeric_limits<int64_t>::max() - b
             ? std::numeric_limits<int64_t>::max()
             : a + b;
}

/// The trip count assumed for a loop over a dynamic size (a batch): a
/// typical one, so small per-row work over it is not split across threads.
static constexpr int64_t kAssumedDynamicTrips = 64;

static int64_t tripCount(OpFoldResult lb, OpFoldResult ub, OpFoldResult step) {
  std::optional<int64_t> l = getConstantIntValue(lb);
  std::optional<int64_t> u = getConstantIntValue(ub);
  std::optional<int64_t> s = getConstantIntValue(step);
  if (!s || *s <= 0)
    return kUnknownTrips;
  if (!l || !u)
    return kAssumedDynamicTrips;
  return *u <= *l ? 0 : (*u - *l + *s - 1) / *s;
}

/// The operations a block executes: one per scalar op, one per lane of a
/// vector op (vectorized code does the same work in fewer ops), loops
/// times their trip counts, other regions (scf.if) as if every one ran.
static int64_t estimateWork(Block &block);

static int64_t ownWork(Operation *op) {
  // A micro-kernel call says what it does (trace-cpu-lower-to-ukernels).
  if (auto work = op->getAttrOfType<IntegerAttr>(tracec::kUkernelWorkAttrName))
    return std::max<int64_t>(1, work.getInt());
  int64_t lanes = 1;
  for (Type type : op->getResultTypes())
    if (auto vector = dyn_cast<VectorType>(type))
      lanes = std::max(lanes, vector.getNumElements());
  return lanes;
}

static int64_t estimateWork(Operation *op) {
  int64_t trips = 1;
  if (auto loop = dyn_cast<LoopLikeOpInterface>(op)) {
    auto lbs = loop.getLoopLowerBounds();
    auto ubs = loop.getLoopUpperBounds();
    auto steps = loop.getLoopSteps();
    if (!lbs || !ubs || !steps) {
      trips = kUnknownTrips; // scf.while and the like
    } else {
      for (auto [lb, ub, step] : llvm::zip(*lbs, *ubs, *steps))
        trips = saturatingMul(trips, tripCount(lb, ub, step));
    }
  }
  int64_t body = 0;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      body = saturatingAdd(body, estimateWork(block));
  return saturatingAdd(ownWork(op), saturatingMul(trips, body));
}

static int64_t estimateWork(Block &block) {
  int64_t work = 0;
  for (Operation &op : block)
    work = saturatingAdd(work, estimateWork(&op));
  return work;
}

/// Replaces `loop` (no iteration arguments) by a one-dimensional
/// scf.parallel with the same bounds and body.
static void forToParallel(RewriterBase &rewriter, scf::ForOp loop) {
  rewriter.setInsertionPoint(loop);
  auto parallel = scf::ParallelOp::create(
      rewriter, loop.getLoc(), ValueRange{loop.getLowerBound()},
      ValueRange{loop.getUpperBound()}, ValueRange{loop.getStep()});
  Block *body = loop.getBody();
  rewriter.eraseOp(body->getTerminator());
  Block *target = parallel.getBody();
  rewriter.inlineBlockBefore(body, target->getTerminator(),
                             target->getArguments());
  rewriter.eraseOp(loop);
}

/// Work of one iteration from which the division and remainder that
/// recover two coalesced indices are noise.
static constexpr int64_t kCoalescedMinWork = 1024;

/// A loop over a dynamic size may run once: a batch of 64 in blocks of 128
/// rows, where the static compile would have split the next loop (the
/// blocks of columns) instead. Such a loop is coalesced with the next one
/// of its nest when that one has a static trip count above 1 and enough
/// work per iteration, so the threads share both. `nest` starts with the
/// loop to split; its first loop is the coalesced one after.
static void coalesceDynamicLoop(RewriterBase &rewriter,
                                MutableArrayRef<scf::ForOp> nest) {
  if (nest.size() < 2)
    return;
  auto isStatic = [](scf::ForOp loop) {
    return getConstantIntValue(loop.getLowerBound()) &&
           getConstantIntValue(loop.getUpperBound()) &&
           getConstantIntValue(loop.getStep());
  };
  scf::ForOp next = nest[1];
  if (isStatic(nest[0]) || !isStatic(next) ||
      tripCount(next.getLowerBound(), next.getUpperBound(), next.getStep()) <=
          1 ||
      estimateWork(*next.getBody()) < kCoalescedMinWork)
    return;
  SmallVector<scf::ForOp> band = {nest[0], next};
  // The outer loop becomes the coalesced one (upstream's coalesceLoops).
  (void)coalesceLoops(rewriter, band);
}

namespace {
struct ParallelLoopsPass
    : mlir::trace::impl::TraceParallelLoopsBase<ParallelLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    // Outermost parallel loops without reductions; the others are left to
    // convert-scf-to-openmp as they are.
    SmallVector<scf::ParallelOp> outermost;
    getOperation()->walk<WalkOrder::PreOrder>([&](scf::ParallelOp op) {
      if (op.getNumResults() == 0)
        outermost.push_back(op);
      return WalkResult::skip();
    });
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp op : outermost) {
      // Nested parallel loops run serially inside the outer one.
      SmallVector<scf::ParallelOp> nested;
      op.getBody()->walk([&](scf::ParallelOp inner) {
        if (inner.getNumResults() == 0)
          nested.push_back(inner);
      });
      for (scf::ParallelOp inner : llvm::reverse(nested)) {
        rewriter.setInsertionPoint(inner);
        if (failed(scf::parallelForToNestedFors(rewriter, inner)))
          return signalPassFailure();
      }

      bool large = estimateWork(op) >= minWork;
      rewriter.setInsertionPoint(op);
      FailureOr<scf::LoopNest> nest =
          scf::parallelForToNestedFors(rewriter, op);
      if (failed(nest))
        return signalPassFailure();
      if (!large)
        continue;
      MutableArrayRef<scf::ForOp> loops = nest->loops;
      for (size_t i = 0; i < loops.size(); ++i) {
        if (tripCount(loops[i].getLowerBound(), loops[i].getUpperBound(),
                      loops[i].getStep()) <= 1)
          continue;
        coalesceDynamicLoop(rewriter, loops.slice(i));
        forToParallel(rewriter, loops[i]);
        break;
      }
    }
  }
};
} // namespace
