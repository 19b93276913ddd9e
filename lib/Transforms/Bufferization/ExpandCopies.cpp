//===- ExpandCopies.cpp - memref.copy -> linalg.copy ----------------------===//

#include "tracec/Transforms/Bufferization/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEEXPANDCOPIES
#include "tracec/Transforms/Bufferization/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {
struct ExpandCopiesPass
    : mlir::trace::impl::TraceExpandCopiesBase<ExpandCopiesPass> {
  void runOnOperation() override {
    getOperation()->walk([](memref::CopyOp copy) {
      OpBuilder builder(copy);
      linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    });
  }
};
} // namespace
