//===- StackLoopBuffers.cpp - Small buffers of loops on the stack ---------===//
//
// See Passes.td: small buffers allocated and freed inside loops become one
// stack buffer per allocation scope (the function, or an OpenMP parallel
// region's thread).
//
//===----------------------------------------------------------------------===//

#include "tracec/Transforms/Bufferization/Passes.h"

#include "LocalBuffers.h"

#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACESTACKLOOPBUFFERS
#include "tracec/Transforms/Bufferization/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

/// The block where a stack buffer for `alloc` goes: the entry of the
/// nearest enclosing allocation scope that is not a loop's iteration, if
/// `alloc` is nested in some op there (buffers of the scope's own block are
/// the workspace's) and in no parallel loop of scf.
static Block *stackBlockFor(memref::AllocOp alloc) {
  bool nested = false;
  for (Operation *parent = alloc->getParentOp(); parent;
       parent = parent->getParentOp()) {
    // Their iterations may run at once: each needs a buffer of its own.
    if (isa<scf::ParallelOp, scf::ForallOp>(parent))
      return nullptr;
    // scf.for is a scope per iteration; iterations run one after the other
    // (so do an OpenMP worksharing loop's on one thread) and can share a
    // buffer of the scope around the loop.
    if (parent->hasTrait<OpTrait::AutomaticAllocationScope>() &&
        !isa<LoopLikeOpInterface>(parent)) {
      Region &body = parent->getRegion(0);
      return nested && !body.empty() ? &body.front() : nullptr;
    }
    nested = true;
  }
  return nullptr;
}

namespace {
struct StackLoopBuffersPass
    : mlir::trace::impl::TraceStackLoopBuffersBase<StackLoopBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    getOperation()->walk([&](memref::AllocOp alloc) { allocs.push_back(alloc); });
    for (memref::AllocOp alloc : allocs) {
      MemRefType type = alloc.getType();
      if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
          type.getMemorySpace() || !alloc.getSymbolOperands().empty())
        continue;
      DataLayout layout = DataLayout::closest(alloc);
      int64_t bytes = type.getNumElements() *
                      layout.getTypeSize(type.getElementType()).getFixedValue();
      if (bytes > maxBytes)
        continue;
      Block *block = stackBlockFor(alloc);
      if (!block)
        continue;
      FailureOr<memref::DeallocOp> dealloc = trace::findLocalDealloc(alloc);
      if (failed(dealloc))
        continue;
      OpBuilder builder(block, block->begin());
      auto alloca = memref::AllocaOp::create(builder, alloc.getLoc(), type,
                                             alloc.getAlignmentAttr());
      alloc.replaceAllUsesWith(alloca.getResult());
      dealloc->erase();
      alloc.erase();
    }
  }
};
} // namespace
