//===- VectorizeContractions.cpp - Micro-kernel steps as vectors ----------===//
//
// The "vectorize" step (see Passes.td): every op the tile step marked with
// `trace.micro_kernel` becomes vector code. A micro-kernel step (static
// [1..., m0, n0, k0]) becomes one vector.contract; a relayout tile becomes
// a transfer_read (transposing) and a transfer_write.
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/CPU/Passes.h"

#include "tracec/Codegen/CPU/ContractionTiling.h"
#include "tracec/Codegen/CPU/Ukernels.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEVECTORIZECONTRACTIONS
#include "tracec/Codegen/CPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;
using namespace tracec;

namespace {

struct VectorizeContractionsPass
    : mlir::trace::impl::TraceVectorizeContractionsBase<
          VectorizeContractionsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> marked;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(kMicroKernelAttrName) &&
          !op->hasAttr(kUkernelAttrName) && op.hasPureTensorSemantics())
        marked.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : marked) {
      // Tiles are static: sizes that do not divide were padded by the pack
      // step, and relayout tiles divide their dims.
      if (op.hasDynamicShape())
        continue;
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::VectorizationResult> vectorized = linalg::vectorize(
          rewriter, op, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
          /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
          /*assumeDynamicDimsMatchVecSizes=*/false,
          /*createNamedContraction=*/true);
      if (failed(vectorized)) {
        op.emitOpError("cannot be vectorized");
        return signalPassFailure();
      }
      rewriter.replaceOp(op, vectorized->replacements);
    }
  }
};

} // namespace
