//===- ScheduleCollectives.cpp - All-reduces as early as their operands ---===//
//
// A data-parallel step lists its gradient all-reduces after the backward
// pass, the first layer's first, chained by their tokens:
//
//   %g1 = ... (the last layer's gradient, computed first)
//   ...
//   %g0 = ... (the first layer's, computed last)
//   %r0, %c0 = trace.all_reduce %g0 after(%t)
//   %r1, %c1 = trace.all_reduce %g1 after(%c0)
//
// becomes
//
//   %g1 = ...
//   %r1, %c1 = trace.all_reduce %g1 after(%t)
//   ...
//   %g0 = ...
//   %r0, %c0 = trace.all_reduce %g0 after(%c1)
//
// and the users of the chain's last token take the new last one's.
//
//===----------------------------------------------------------------------===//

#include "tracec/Transforms/State/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACESCHEDULECOLLECTIVES
#include "tracec/Transforms/State/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;
using namespace mlir::trace;

namespace {

/// The all-reduce that takes `reduce`'s token and nothing else, where that
/// token has no other user: the chain's next link.
AllReduceOp nextInChain(AllReduceOp reduce) {
  Value token = reduce.getControl();
  if (!token.hasOneUse())
    return nullptr;
  auto next = dyn_cast<AllReduceOp>(*token.getUsers().begin());
  if (!next || next->getBlock() != reduce->getBlock() ||
      next.getAfter().size() != 1)
    return nullptr;
  return next;
}

/// The op of `block` that `value` must follow: its definition (or the op
/// that holds it), null for a value defined before the block starts.
Operation *definitionIn(Block &block, Value value) {
  Operation *definition = value.getDefiningOp();
  return definition ? block.findAncestorOpInBlock(*definition) : nullptr;
}

/// The later of two ops of one block (null: the block's start).
Operation *later(Operation *a, Operation *b) {
  if (!a || !b)
    return a ? a : b;
  return a->isBeforeInBlock(b) ? b : a;
}

/// Moves the links of `chain` (in program order) up to their operands,
/// in the order the operands are computed, and relinks their tokens.
void schedule(SmallVectorImpl<AllReduceOp> &chain) {
  Block &block = *chain.front()->getBlock();
  SmallVector<Value> before = llvm::to_vector(chain.front().getAfter());
  Operation *tokensReady = nullptr;
  for (Value token : before)
    tokensReady = later(tokensReady, definitionIn(block, token));

  // Each link's operand's definition, and its position now (before any
  // move), which orders the links.
  DenseMap<Operation *, unsigned> position;
  for (auto [index, op] : llvm::enumerate(block))
    position[&op] = index;
  auto ready = [&](AllReduceOp reduce) {
    return later(tokensReady, definitionIn(block, reduce.getX()));
  };
  auto readyAt = [&](AllReduceOp reduce) -> int64_t {
    Operation *op = ready(reduce);
    return op ? static_cast<int64_t>(position.lookup(op)) : -1;
  };
  SmallVector<AllReduceOp> order(chain.begin(), chain.end());
  llvm::stable_sort(order, [&](AllReduceOp a, AllReduceOp b) {
    return readyAt(a) < readyAt(b);
  });

  // The users of the chain's last token (after every link) take the new
  // last link's; the links take each other's in the new order.
  Value lastToken = chain.back().getControl();
  Value newLastToken = order.back().getControl();
  if (lastToken != newLastToken)
    lastToken.replaceAllUsesWith(newLastToken);
  Operation *previous = nullptr;
  for (AllReduceOp reduce : order) {
    reduce.getAfterMutable().assign(
        previous ? ValueRange{cast<AllReduceOp>(previous).getControl()}
                 : ValueRange(before));
    Operation *after = later(ready(reduce), previous);
    if (after)
      reduce->moveAfter(after);
    else if (&block.front() != reduce)
      reduce->moveBefore(&block.front());
    previous = reduce;
  }
}

struct ScheduleCollectivesPass
    : mlir::trace::impl::TraceScheduleCollectivesBase<ScheduleCollectivesPass> {
  void runOnOperation() override {
    // The chains first (moving links would disturb the walk).
    SmallVector<SmallVector<AllReduceOp>> chains;
    DenseSet<Operation *> linked;
    getOperation().walk([&](AllReduceOp reduce) {
      if (linked.contains(reduce))
        return;
      SmallVector<AllReduceOp> &chain = chains.emplace_back();
      for (AllReduceOp link = reduce; link; link = nextInChain(link)) {
        chain.push_back(link);
        linked.insert(link);
      }
    });
    for (SmallVector<AllReduceOp> &chain : chains)
      schedule(chain);
  }
};

} // namespace
