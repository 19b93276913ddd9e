//===- ContractionLoopOrder.cpp - Contiguous innermost loops --------------===//

#include "tracec/Codegen/CPU/Passes.h"

#include "tracec/Codegen/CPU/Ukernels.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACECONTRACTIONLOOPORDER
#include "tracec/Codegen/CPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {
struct ContractionLoopOrderPass
    : mlir::trace::impl::TraceContractionLoopOrderBase<
          ContractionLoopOrderPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> contractions;
    getOperation()->walk([&](linalg::LinalgOp op) {
      // A micro-kernel call's panel keeps its packed loop order.
      if (linalg::isaContractionOpInterface(op) &&
          !op->hasAttr(tracec::kUkernelAttrName))
        contractions.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : contractions) {
      rewriter.setInsertionPoint(op);
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        FailureOr<linalg::GenericOp> generalized =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(generalized))
          continue;
        generic = *generalized;
      }
      // Parallel loops but the last, then the reductions, then the last
      // parallel loop: (m, n, k) becomes (m, k, n).
      SmallVector<unsigned> parallel, reduction;
      for (auto [i, type] : llvm::enumerate(generic.getIteratorTypesArray()))
        (type == utils::IteratorType::parallel ? parallel : reduction)
            .push_back(i);
      if (parallel.empty() || reduction.empty())
        continue;
      unsigned innermost = parallel.pop_back_val();
      SmallVector<unsigned> order(parallel);
      llvm::append_range(order, reduction);
      order.push_back(innermost);
      (void)linalg::interchangeGenericOp(rewriter, generic, order);
    }
  }
};
} // namespace
