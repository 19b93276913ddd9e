//===- ExpandCopies.cpp - memref.copy -> linalg.copy ----------------------===//

#include "tracec/Transforms/Bufferization/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEEXPANDCOPIES
#include "tracec/Transforms/Bufferization/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {
/// The buffer `value` reshapes (through memref.collapse_shape and
/// memref.expand_shape), or `value` itself.
Value reshapedBuffer(Value value) {
  while (Operation *op = value.getDefiningOp()) {
    if (auto collapse = dyn_cast<memref::CollapseShapeOp>(op))
      value = collapse.getSrc();
    else if (auto expand = dyn_cast<memref::ExpandShapeOp>(op))
      value = expand.getSrc();
    else
      break;
  }
  return value;
}

/// Whether a copy writes each element onto itself: reshapes keep the
/// row-major order of elements, so two same-shaped reshapes of one buffer
/// (bufferized insert_slice of a slice updated in place through
/// unit-dim-dropping reshapes) name the same element at every index.
bool copiesOntoItself(memref::CopyOp copy) {
  return reshapedBuffer(copy.getSource()) == reshapedBuffer(copy.getTarget());
}

/// Whether the LLVM lowering of a memref.copy from or to `type` can use
/// memcpy (MemRefToLLVM's rule: an identity layout, or a static, non-empty,
/// contiguous row-major one).
bool isMemcpyBuffer(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && (memref.getLayout().isIdentity() ||
                    (memref.hasStaticShape() && memref.getNumElements() > 0 &&
                     memref::isStaticShapeAndContiguousRowMajor(memref)));
}

struct ExpandCopiesPass
    : mlir::trace::impl::TraceExpandCopiesBase<ExpandCopiesPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation()->walk([&](memref::CopyOp copy) {
      if (copiesOntoItself(copy)) {
        copy.erase();
        return;
      }
      if (memcpy && isMemcpyBuffer(copy.getSource().getType()) &&
          isMemcpyBuffer(copy.getTarget().getType()))
        return;
      OpBuilder builder(copy);
      linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    });
  }
};
} // namespace
