//===- DirectFilterGradients.cpp - conv2d_backprop_filter as tiles --------===//
//
// The pass around rewriteFilterGradientDirectly (DirectConvolution.cpp);
// see Passes.td.
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/CPU/Passes.h"

#include "DirectConvolution.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/Error.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACECPUDIRECTFILTERGRADIENTS
#include "tracec/Codegen/CPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;
using namespace tracec;

namespace {

struct DirectFilterGradientsPass
    : mlir::trace::impl::TraceCpuDirectFilterGradientsBase<
          DirectFilterGradientsPass> {
  using Base::Base;

  void runOnOperation() override {
    llvm::Expected<CpuVectorInfo> info = getCpuVectorInfo(cpu);
    if (!info) {
      getOperation()->emitError() << llvm::toString(info.takeError());
      return signalPassFailure();
    }
    SmallVector<trace::Conv2DBackpropFilterOp> ops;
    getOperation()->walk(
        [&](trace::Conv2DBackpropFilterOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (trace::Conv2DBackpropFilterOp op : ops) {
      rewriter.setInsertionPoint(op);
      (void)rewriteFilterGradientDirectly(rewriter, op, *info);
    }
  }
};

} // namespace
