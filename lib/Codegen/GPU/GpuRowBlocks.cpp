//===- GpuRowBlocks.cpp - A chain of row ops as one kernel, a block a row -===//
//
// softmax is max along a row, exp(x - max), its sum, a division: four
// linalg ops and two fills, which the other GPU passes make six kernels,
// each reading or writing the whole tensor in global memory and paying a
// launch. Their data flows along rows only: the ops that follow a
// reduction read its result at the same row. So one kernel with a block
// per row can run them all in turn, the block's threads sharing each op
// (BlockShare.h) with a barrier between ops, as PyTorch's and cuDNN's
// softmax and layer norm kernels do.
//
// A chain is a run of linalg ops on buffers (ops between them that touch
// no memory, allocations and deallocations move out of the way) around a
// block reduction whose parallel dims are its leading k dims, the rows.
// Every op of the chain has the rows as its leading k parallel dims, and
// each buffer the chain writes is accessed by every op of the chain only
// at its row: the row dims appear as whole indices, at the same positions
// in every access. So no block reads what another block writes, and the
// buffers link the ops' row extents (a dim a buffer shares is one size).
// Buffers the chain writes are not views, nor read through views (a view
// and its source would be two names for one memory).
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/GPU/Passes.h"

#include "BlockShare.h"
#include "FoldedIndexMath.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/EquivalenceClasses.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEGPUROWBLOCKS
#include "tracec/Codegen/GPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;
using namespace mlir::trace;

/// The memory `buffer` is a view of (itself if it is none).
static Value rootOf(Value buffer) {
  while (auto view = buffer.getDefiningOp<ViewLikeOpInterface>())
    buffer = view.getViewSource();
  return buffer;
}

/// Where the row dims (d0 ... d(k-1)) are among `map`'s results, each a
/// whole index; none if one is missing.
static std::optional<SmallVector<unsigned>> rowPositions(AffineMap map,
                                                         unsigned rows) {
  SmallVector<unsigned> positions;
  for (unsigned d = 0; d < rows; ++d) {
    std::optional<unsigned> position =
        map.getResultPosition(getAffineDimExpr(d, map.getContext()));
    if (!position)
      return std::nullopt;
    positions.push_back(*position);
  }
  return positions;
}

/// Ops between a chain's members that may move: before the kernel when
/// they touch no memory or allocate, after it when they free.
static bool movesBefore(Operation *op) {
  if (auto alloc = dyn_cast<gpu::AllocOp>(op))
    return !alloc.getAsyncToken();
  return isMemoryEffectFree(op) || isa<memref::AllocOp, memref::AllocaOp>(op);
}
static bool movesAfter(Operation *op) { return isa<memref::DeallocOp>(op); }

namespace {
/// A run of ops a block per row computes.
class Chain {
public:
  explicit Chain(unsigned rows) : rows(rows) {}

  /// Adds `op` (before the members, or after them) if the chain stays
  /// row-local with it.
  bool tryAdd(linalg::LinalgOp op, bool before = false) {
    if (!op.hasPureBufferSemantics() || op.getNumLoops() < rows)
      return false;
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    for (unsigned d = 0; d < rows; ++d)
      if (iterators[d] != utils::IteratorType::parallel)
        return false;
    if (op.getNumReductionLoops() != 0) {
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic || op.getNumParallelLoops() != rows ||
          !matchBlockReduction(generic))
        return false;
    }
    Chain extended = *this;
    for (OpOperand &operand : op->getOpOperands())
      if (isa<MemRefType>(operand.get().getType()))
        extended.accesses[operand.get()].push_back(
            {op, op.getMatchingIndexingMap(&operand)});
    for (Value init : op.getDpsInits()) {
      if (init.getDefiningOp<ViewLikeOpInterface>())
        return false;
      extended.written.insert(init);
    }
    for (auto &[buffer, uses] : extended.accesses) {
      if (!extended.written.contains(rootOf(buffer)))
        continue;
      if (!extended.written.contains(buffer))
        return false; // a view of a written buffer
      std::optional<SmallVector<unsigned>> first =
          rowPositions(uses.front().second, rows);
      for (auto &[user, map] : uses)
        if (!first || rowPositions(map, rows) != first)
          return false;
    }
    extended.members.insert(
        before ? extended.members.begin() : extended.members.end(), op);
    *this = std::move(extended);
    return true;
  }

  /// Keeps the members whose rows are `anchor`'s: those linked to it
  /// through buffers the chain writes (a dim two ops share through a
  /// buffer has one size), the longest run of them around it.
  void keepLinkedTo(Operation *anchor) {
    llvm::EquivalenceClasses<Operation *> linked;
    for (linalg::LinalgOp member : members)
      linked.insert(member);
    for (auto &[buffer, uses] : accesses)
      if (written.contains(buffer))
        for (auto &[user, map] : uses)
          linked.unionSets(uses.front().first, user);
    auto isLinked = [&](linalg::LinalgOp member) {
      return linked.isEquivalent(member, anchor);
    };
    size_t begin = llvm::find(members, anchor) - members.begin();
    size_t end = begin + 1;
    while (begin > 0 && isLinked(members[begin - 1]))
      --begin;
    while (end < members.size() && isLinked(members[end]))
      ++end;
    members = SmallVector<linalg::LinalgOp>(
        ArrayRef(members).slice(begin, end - begin));
  }

  unsigned rows;
  SmallVector<linalg::LinalgOp> members;

private:
  /// Every buffer's accesses (member, map), in the order they joined.
  llvm::MapVector<Value, SmallVector<std::pair<Operation *, AffineMap>>>
      accesses;
  DenseSet<Value> written;
};
} // namespace

/// The linalg ops of `block` in runs separated by ops that cannot move out
/// of the way.
static SmallVector<SmallVector<linalg::LinalgOp>> runsOf(Block &block) {
  SmallVector<SmallVector<linalg::LinalgOp>> runs(1);
  for (Operation &op : block) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      runs.back().push_back(linalgOp);
    else if (!movesBefore(&op) && !movesAfter(&op) && !runs.back().empty())
      runs.emplace_back();
  }
  return runs;
}

/// The longest chains of `run`, each around a block reduction.
static SmallVector<Chain> chainsOf(MutableArrayRef<linalg::LinalgOp> run) {
  SmallVector<Chain> chains;
  size_t next = 0;
  while (next < run.size()) {
    size_t anchor = next;
    while (anchor < run.size() &&
           !(isa<linalg::GenericOp>(run[anchor].getOperation()) &&
             matchBlockReduction(cast<linalg::GenericOp>(run[anchor]))))
      ++anchor;
    if (anchor == run.size())
      break;
    unsigned rows = run[anchor].getNumParallelLoops();
    SmallVector<utils::IteratorType> iterators =
        run[anchor].getIteratorTypesArray();
    bool leading =
        rows > 0 && llvm::all_of(llvm::seq(0u, rows), [&](unsigned d) {
          return iterators[d] == utils::IteratorType::parallel;
        });
    if (!leading) {
      next = anchor + 1;
      continue;
    }
    // The anchor, the members before it that join, then those after.
    Chain chain(rows);
    (void)chain.tryAdd(run[anchor]);
    for (size_t begin = anchor; begin > next; --begin)
      if (!chain.tryAdd(run[begin - 1], /*before=*/true))
        break;
    for (size_t end = anchor + 1; end < run.size(); ++end)
      if (!chain.tryAdd(run[end]))
        break;
    chain.keepLinkedTo(run[anchor]);
    next = llvm::find(run, chain.members.back()) - run.begin() + 1;
    if (chain.members.size() > 1)
      chains.push_back(std::move(chain));
  }
  return chains;
}

/// Replaces the chain's ops with one launch, a block per row.
static void rewrite(Chain &chain, int64_t maxThreads) {
  IRRewriter rewriter(chain.members.front()->getContext());
  Operation *first = chain.members.front(), *last = chain.members.back();
  // The ops between the members move out of the way.
  SmallVector<Operation *> between;
  for (Operation *op = first->getNextNode(); op != last; op = op->getNextNode())
    if (!isa<linalg::LinalgOp>(op))
      between.push_back(op);
  for (Operation *op : between)
    if (movesBefore(op))
      op->moveBefore(first);
  for (Operation *op : llvm::reverse(between))
    if (movesAfter(op))
      op->moveAfter(last);

  SmallVector<linalg::GenericOp> ops;
  for (linalg::LinalgOp member : chain.members) {
    if (auto generic = dyn_cast<linalg::GenericOp>(member.getOperation())) {
      ops.push_back(generic);
      continue;
    }
    rewriter.setInsertionPoint(member);
    ops.push_back(*linalg::generalizeNamedOp(rewriter, member));
  }

  Location loc = ops.front().getLoc();
  OpBuilder b(ops.front());
  SmallVector<SmallVector<OpFoldResult>> extents;
  std::optional<int64_t> longest = 0;
  for (linalg::GenericOp op : ops) {
    extents.push_back(loopExtents(b, op));
    std::optional<int64_t> length = getConstantIntValue(
        foldedProduct(b, loc, ArrayRef(extents.back()).drop_front(chain.rows)));
    if (!length || !longest)
      longest = std::nullopt;
    else
      longest = std::max(*length, *longest);
  }
  int64_t threads = blockThreads(longest, maxThreads);
  // The rows' extents: the first op's (the buffers make them every op's).
  ArrayRef<OpFoldResult> rowExtents =
      ArrayRef(extents.front()).take_front(chain.rows);

  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto launch = gpu::LaunchOp::create(
      b, loc, materialize(b, loc, foldedProduct(b, loc, rowExtents)), one, one,
      arith::ConstantIndexOp::create(b, loc, threads), one, one);
  b.setInsertionPointToStart(&launch.getBody().front());
  SmallVector<Value> row =
      delinearize(b, loc, launch.getBlockIds().x, rowExtents);
  for (auto [i, op] : llvm::enumerate(ops)) {
    if (i > 0)
      gpu::BarrierOp::create(b, op.getLoc());
    SmallVector<Value> fixed(row);
    fixed.resize(op.getNumLoops());
    std::optional<Combiner> combiner;
    if (op.getNumReductionLoops() != 0)
      combiner = matchBlockReduction(op);
    emitBlockShare(b, op.getLoc(), op, extents[i], fixed,
                   launch.getThreadIds().x, threads, combiner);
  }
  gpu::TerminatorOp::create(b, loc);
  for (linalg::GenericOp op : ops)
    op.erase();
}

namespace {
struct GpuRowBlocksPass
    : mlir::trace::impl::TraceGpuRowBlocksBase<GpuRowBlocksPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(
            checkBlockThreads(getOperation(), "trace-gpu-row-blocks", threads)))
      return signalPassFailure();
    // linalg.reduce is the named form of the reductions handled here.
    generalizeReductions(getOperation());
    SmallVector<Block *> blocks;
    getOperation().walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks)
      for (SmallVector<linalg::LinalgOp> &run : runsOf(*block))
        for (Chain &chain : chainsOf(run))
          rewrite(chain, threads);
  }
};
} // namespace
