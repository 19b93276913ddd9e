//===- PackContractions.cpp - Data tiling of contractions -----------------===//
//
// The "pack" step: contractions become pack -> packed contraction -> unpack
// in the micro-kernel's layout (see Passes.td). Convolutions of static shape
// become register-tiled loops of their own (DirectConvolution.cpp); the
// others first become a contraction through im2col, so they share the
// micro-kernel.
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/CPU/Passes.h"

#include "tracec/Codegen/CPU/ContractionTiling.h"

#include "DirectConvolution.h"
#include "LoopAccumulation.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/Support/Error.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEPACKCONTRACTIONS
#include "tracec/Codegen/CPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;
using namespace tracec;

namespace {

/// The micro-kernel tiling of a float contraction it handles (f32, f64,
/// bf16 into f32 with vdpbf16ps), or nothing.
std::optional<ContractionTiling> packableTiling(linalg::LinalgOp op,
                                                int64_t minWork,
                                                const CpuVectorInfo &cpu) {
  // Dynamic sizes are fine: packing pads them to whole tiles, and the
  // packed contraction's outer dims are then the dynamic ones.
  if (!op.hasPureTensorSemantics() || !linalg::isaContractionOpInterface(op))
    return std::nullopt;
  std::optional<ContractionTiling> tiling = getContractionTiling(cpu, op);
  if (!tiling)
    return std::nullopt;
  // A matmul has m, n and k dims; row-wise dot products (batch and k
  // only, as softmax's gradient has) or outer products are not one.
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.empty())
    return std::nullopt;
  // Below a few thousand multiply-adds the packs, padding to a whole
  // register tile and the code of the kernel cost more than they save: a
  // 3x5x3 eager matmul compiled 3x slower. Such contractions stay loops.
  // A dynamic size counts as kAssumedDynamicSize (a typical batch).
  constexpr int64_t kAssumedDynamicSize = 64;
  int64_t work = 1;
  for (int64_t size : op.getStaticLoopRanges())
    work *= ShapedType::isDynamic(size) ? kAssumedDynamicSize : size;
  if (work < minWork)
    return std::nullopt;
  return tiling;
}

/// conv_2d_nhwc_hwcf as im2col and a matmul. Unlike upstream's
/// rewriteInIm2Col, whose column matrix [N, OH*OW, KH*KW*C] needs a gather
/// (tensor.extract at computed indices, which stays a scalar loop), the
/// columns are built 6-D, [N, OH, OW, KH, KW, C], by a copy with affine
/// indexing — input (n, oh*sh + kh*dh, ow*sw + kw*dw, c) — whose innermost
/// dim is contiguous on both sides, so it vectorizes like any elementwise
/// op; collapsing it to [N*OH*OW, KH*KW*C] is free.
LogicalResult rewriteAsIm2ColMatmul(RewriterBase &rewriter,
                                    linalg::Conv2DNhwcHwcfOp conv) {
  // `?` sizes (a dynamic batch, or any other dim) come from the operands.
  Location loc = conv.getLoc();
  Value input = conv.getDpsInputs()[0], filter = conv.getDpsInputs()[1];
  Value output = conv.getDpsInits()[0];
  auto outputType = cast<RankedTensorType>(output.getType());
  SmallVector<OpFoldResult> filterSizes =
      tensor::getMixedSizes(rewriter, loc, filter);
  SmallVector<OpFoldResult> outSizes =
      tensor::getMixedSizes(rewriter, loc, output);
  SmallVector<int64_t> strides = llvm::to_vector(conv.getStrides().getValues<int64_t>());
  SmallVector<int64_t> dilations =
      llvm::to_vector(conv.getDilations().getValues<int64_t>());
  MLIRContext *context = rewriter.getContext();
  // The columns are the input's elements (bf16 where the sums are f32).
  Type element = getElementTypeOrSelf(input.getType());

  AffineExpr dN, dOH, dOW, dKH, dKW, dC;
  bindDims(context, dN, dOH, dOW, dKH, dKW, dC);
  AffineMap inputMap = AffineMap::get(
      6, 0,
      {dN, dOH * strides[0] + dKH * dilations[0],
       dOW * strides[1] + dKW * dilations[1], dC},
      context);
  AffineMap colMap = AffineMap::getMultiDimIdentityMap(6, context);
  SmallVector<OpFoldResult> colSizes = {outSizes[0],    outSizes[1],
                                        outSizes[2],    filterSizes[0],
                                        filterSizes[1], filterSizes[2]};
  Value empty = tensor::EmptyOp::create(rewriter, loc, colSizes, element);
  auto columns = linalg::GenericOp::create(
      rewriter, loc, empty.getType(), ValueRange{input}, ValueRange{empty},
      ArrayRef<AffineMap>{inputMap, colMap},
      SmallVector<utils::IteratorType>(6, utils::IteratorType::parallel),
      [](OpBuilder &b, Location loc, ValueRange args) {
        linalg::YieldOp::create(b, loc, args[0]);
      });
  // memref.expand_shape of a group with two `?` sizes crashes
  // expand-strided-metadata (LLVM 22): with `?` spatial dims, the output
  // stays 4-D and (n, oh, ow) are three m dims of one contraction.
  if (llvm::count_if(outputType.getShape().take_front(3),
                     ShapedType::isDynamic) > 1) {
    Value lhs = tensor::CollapseShapeOp::create(
        rewriter, loc, columns.getResult(0),
        SmallVector<ReassociationIndices>{{0}, {1}, {2}, {3, 4, 5}});
    Value rhs = tensor::CollapseShapeOp::create(
        rewriter, loc, filter,
        SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
    AffineExpr n, oh, ow, f, k;
    bindDims(context, n, oh, ow, f, k);
    ArrayAttr maps = rewriter.getAffineMapArrayAttr(
        {AffineMap::get(5, 0, {n, oh, ow, k}, context),
         AffineMap::get(5, 0, {k, f}, context),
         AffineMap::get(5, 0, {n, oh, ow, f}, context)});
    rewriter.replaceOpWithNewOp<linalg::ContractOp>(conv, TypeRange{outputType},
                                                    ValueRange{lhs, rhs},
                                                    ValueRange{output}, maps);
    return success();
  }
  SmallVector<ReassociationIndices> rowsAndColumns = {{0, 1, 2}, {3, 4, 5}};
  auto lhs = tensor::CollapseShapeOp::create(
      rewriter, loc, columns.getResult(0), rowsAndColumns);
  SmallVector<ReassociationIndices> outputDims = {{0, 1, 2}, {3}};
  auto rhs = tensor::CollapseShapeOp::create(rewriter, loc, filter, outputDims);
  auto acc = tensor::CollapseShapeOp::create(rewriter, loc, output, outputDims);
  auto matmul = linalg::MatmulOp::create(rewriter, loc, acc.getType(),
                                         ValueRange{lhs, rhs}, ValueRange{acc});
  rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
      conv, outputType, matmul.getResult(0), outputDims, outSizes);
  return success();
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
    accumulateLoopSumsInContractions(getOperation(), rewriter);

    // Convolutions of static shape are computed directly; the others
    // become an im2col copy and a contraction.
    SmallVector<linalg::Conv2DNhwcHwcfOp> convs;
    getOperation()->walk([&](linalg::Conv2DNhwcHwcfOp op) {
      if (op.hasPureTensorSemantics() &&
          isa<FloatType>(getElementTypeOrSelf(op.getType(0))))
        convs.push_back(op);
    });
    for (linalg::Conv2DNhwcHwcfOp conv : convs) {
      rewriter.setInsertionPoint(conv);
      if (failed(rewriteAsDirectConvolution(rewriter, conv, *info)))
        (void)rewriteAsIm2ColMatmul(rewriter, conv);
    }

    SmallVector<std::pair<linalg::LinalgOp, ContractionTiling>> contractions;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(kMicroKernelAttrName))
        return;
      if (std::optional<ContractionTiling> tiling =
              packableTiling(op, minWork, *info))
        contractions.push_back({op, *tiling});
    });
    llvm::SetVector<LoopLikeOpInterface> loops;
    for (auto &entry : contractions) {
      linalg::LinalgOp op = entry.first;
      const ContractionTiling &tiling = entry.second;
      auto control = [&](linalg::LinalgOp) {
        linalg::BlockPackMatmulOptions options;
        options.blockFactors = {tiling.m0, tiling.n0, tiling.k0};
        options.allowPadding = true;
        // Within a tile, k is outermost: a step of the micro-kernel reads
        // a contiguous row of m0 (and of n0) elements. With pairs of k
        // (k0 = 2), each m or n holds its pair: vdpbf16ps multiplies the
        // right operand's n0 pairs by one broadcast pair of the left's.
        bool pairs = tiling.k0 == 2;
        options.lhsTransposeOuterBlocks = false;
        options.lhsTransposeInnerBlocks = !pairs;
        options.rhsTransposeOuterBlocks = true;
        options.rhsTransposeInnerBlocks = pairs;
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
