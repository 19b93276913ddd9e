//===- PackContractions.cpp - Data tiling of contractions -----------------===//
//
// The "pack" step: contractions become pack -> packed contraction -> unpack
// in the micro-kernel's layout (see Passes.td). Convolutions first become a
// contraction through im2col, so they share the micro-kernel.
//
//===----------------------------------------------------------------------===//

#include "tracec/Target/Cpu/Passes.h"

#include "tracec/Target/Cpu/ContractionTiling.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/Support/Error.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEPACKCONTRACTIONS
#include "tracec/Target/Cpu/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;
using namespace tracec;

namespace {

/// The element width of a float contraction on static tensors the
/// micro-kernel handles (f32, f64), or nothing.
std::optional<unsigned> packableElementBits(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.hasDynamicShape() ||
      !linalg::isaContractionOpInterface(op))
    return std::nullopt;
  Type element = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  for (Value input : op.getDpsInputs())
    if (getElementTypeOrSelf(input.getType()) != element)
      return std::nullopt;
  if (!element.isF32() && !element.isF64())
    return std::nullopt;
  // A matmul has m, n and k dims; row-wise dot products (batch and k
  // only, as softmax's gradient has) or outer products are not one.
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.empty())
    return std::nullopt;
  return element.getIntOrFloatBitWidth();
}

struct PackContractionsPass
    : mlir::trace::impl::TracePackContractionsBase<PackContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    llvm::Expected<CpuVectorInfo> info = getCpuVectorInfo(cpu);
    if (!info) {
      getOperation()->emitError() << llvm::toString(info.takeError());
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());

    // Convolutions become an im2col gather and a contraction.
    SmallVector<linalg::Conv2DNhwcHwcfOp> convs;
    getOperation()->walk([&](linalg::Conv2DNhwcHwcfOp op) {
      if (op.hasPureTensorSemantics() && !op.hasDynamicShape() &&
          isa<FloatType>(getElementTypeOrSelf(op.getType(0))))
        convs.push_back(op);
    });
    for (linalg::Conv2DNhwcHwcfOp conv : convs) {
      rewriter.setInsertionPoint(conv);
      (void)linalg::rewriteInIm2Col(rewriter, conv);
    }

    SmallVector<linalg::LinalgOp> contractions;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (packableElementBits(op) && !op->hasAttr(kMicroKernelAttrName))
        contractions.push_back(op);
    });
    llvm::SetVector<LoopLikeOpInterface> loops;
    for (linalg::LinalgOp op : contractions) {
      ContractionTiling tiling =
          getContractionTiling(*info, *packableElementBits(op));
      auto control = [&](linalg::LinalgOp) {
        linalg::BlockPackMatmulOptions options;
        options.blockFactors = {tiling.m0, tiling.n0, tiling.k0};
        options.allowPadding = true;
        // Within a tile, k is outermost: a step of the micro-kernel reads
        // a contiguous row of m0 (and of n0) elements.
        options.lhsTransposeOuterBlocks = false;
        options.lhsTransposeInnerBlocks = true;
        options.rhsTransposeOuterBlocks = true;
        options.rhsTransposeInnerBlocks = false;
        return std::optional<linalg::BlockPackMatmulOptions>(options);
      };
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::PackResult> packed =
          linalg::blockPackMatmul(rewriter, op, control);
      if (failed(packed))
        continue;
      // As a linalg.contract (the packed generic's maps; its body is the
      // default multiply-add), which vectorizes to one vector.contract.
      linalg::LinalgOp packedOp = packed->packedLinalgOp;
      rewriter.setInsertionPoint(packedOp);
      auto contract = linalg::ContractOp::create(
          rewriter, packedOp.getLoc(), packedOp->getResultTypes(),
          packedOp.getDpsInputs(), packedOp.getDpsInits(),
          packedOp.getIndexingMaps());
      contract->setAttr(
          kMicroKernelAttrName,
          rewriter.getDenseI64ArrayAttr({tiling.m0, tiling.n0, tiling.k0}));
      rewriter.replaceOp(packedOp, contract->getResults());
      for (auto loop = contract->getParentOfType<LoopLikeOpInterface>(); loop;
           loop = loop->getParentOfType<LoopLikeOpInterface>())
        loops.insert(loop);
    }
    // A contraction in a loop (conv2d_backprop_filter's loop over the
    // window taps) packs its loop-invariant operands once, before the loop.
    for (LoopLikeOpInterface loop : loops)
      moveLoopInvariantCode(loop);
  }
};

} // namespace
