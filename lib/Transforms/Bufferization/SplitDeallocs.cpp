//===- SplitDeallocs.cpp - One dealloc per distinct allocation ------------===//

#include "tracec/Transforms/Bufferization/Passes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACESPLITDEALLOCS
#include "tracec/Transforms/Bufferization/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

/// The buffer `memref` views: itself, or the source of its views.
static Value viewedBuffer(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  return memref;
}

/// Whether `buffer` is the result of an op that allocates it: no other
/// buffer aliases it but its own views.
static bool isAllocation(Value buffer) {
  Operation *def = buffer.getDefiningOp();
  return def && hasSingleEffect<MemoryEffects::Allocate>(def, buffer);
}

static void split(bufferization::DeallocOp dealloc) {
  if (!dealloc.getRetained().empty() || dealloc.getMemrefs().size() < 2)
    return;
  // Which allocation each memref views; any other origin (an argument, a
  // loop's result) might alias anything, so the dealloc stays whole.
  llvm::DenseMap<Value, unsigned> viewsOf;
  for (Value memref : dealloc.getMemrefs()) {
    Value buffer = viewedBuffer(memref);
    if (!isAllocation(buffer))
      return;
    ++viewsOf[buffer];
  }
  SmallVector<Value> keptMemrefs, keptConditions;
  OpBuilder builder(dealloc);
  for (auto [memref, condition] :
       llvm::zip_equal(dealloc.getMemrefs(), dealloc.getConditions())) {
    if (viewsOf[viewedBuffer(memref)] == 1) {
      bufferization::DeallocOp::create(builder, dealloc.getLoc(), memref,
                                       condition, ValueRange{});
      continue;
    }
    keptMemrefs.push_back(memref);
    keptConditions.push_back(condition);
  }
  if (keptMemrefs.empty()) {
    dealloc.erase();
    return;
  }
  dealloc.getMemrefsMutable().assign(keptMemrefs);
  dealloc.getConditionsMutable().assign(keptConditions);
}

namespace {
struct SplitDeallocsPass
    : mlir::trace::impl::TraceSplitDeallocsBase<SplitDeallocsPass> {
  void runOnOperation() override {
    SmallVector<bufferization::DeallocOp> deallocs;
    getOperation()->walk(
        [&](bufferization::DeallocOp dealloc) { deallocs.push_back(dealloc); });
    for (bufferization::DeallocOp dealloc : deallocs)
      split(dealloc);
  }
};
} // namespace
