//===- Vectorize.cpp - Elementwise ops and reductions to vectors ----------===//
//
// Tiles each elementwise or reduction linalg op on tensors to one vector of
// the target's width along its innermost loop (1 along the others), peels
// the innermost loop so full tiles need no mask, and vectorizes every tile
// with linalg's vectorizer. An innermost reduction is tiled as a partial
// reduction: the loop carries one accumulator per lane, and the lanes are
// reduced once after it. A `?` innermost loop is tiled and peeled the same
// way: full vectors while they fit (no mask), then the remainder (none when
// the size is a multiple of the width) as one masked vector; only with
// dynamic-inner=true (see the option: off by default, measured slower).
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/CPU/Passes.h"

#include "WindowTaps.h"

#include "tracec/Codegen/CPU/CpuTarget.h"
#include "tracec/Codegen/CPU/Ukernels.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACECPUVECTORIZE
#include "tracec/Codegen/CPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {

/// Marks the tiles (and the fills and lane reductions that partial
/// reductions add) that the second phase vectorizes.
constexpr llvm::StringLiteral kTileMarker = "__trace_cpu_vector_tile";

/// Whether `type`'s elements are laid out one per byte or more (i1 is not:
/// a vector<16xi1> would be stored as 2 bytes).
bool isByteElement(Type type) {
  Type element = getElementTypeOrSelf(type);
  return (isa<FloatType>(element) || isa<IntegerType>(element)) &&
         element.getIntOrFloatBitWidth() >= 8;
}

/// Whether `op` is an elementwise op or a reduction this pass vectorizes:
/// not a contraction or convolution (the contraction passes own those),
/// and walking every operand contiguously along its innermost loop (or not
/// at all: a broadcast). Dynamic loops are fine: the outer ones are tiled
/// by 1, the innermost one to full vectors and a remainder.
bool isCandidate(linalg::LinalgOp op, bool dynamicInner) {
  if (!op.hasPureTensorSemantics() || op.getNumLoops() == 0 ||
      op->hasAttr(tracec::kUkernelAttrName))
    return false;
  if (!dynamicInner && ShapedType::isDynamic(op.getStaticLoopRanges().back()))
    return false;
  // Matmul-like contractions (m, n and k dims) and convolutions; row-wise
  // dot products and matrix-vector products are reductions like any other.
  // Poolings are not the contraction passes': their fills (-inf for max
  // pooling) are vectorized here, not left to LLVM's loop vectorizer
  // (60 ms of the CNN step's compile for each of its two).
  auto isContraction = [](Operation *user) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
    if (!linalgOp)
      return false;
    if (linalg::isaConvolutionOpInterface(linalgOp))
      return !tracec::isPooling(linalgOp);
    if (!linalg::isaContractionOpInterface(linalgOp))
      return false;
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(linalgOp);
    return failed(dims) || (!dims->m.empty() && !dims->n.empty());
  };
  // A contraction's accumulator fill is the contraction passes' too.
  if (isContraction(op) ||
      (isa<linalg::FillOp>(op) && llvm::any_of(op->getUsers(), isContraction)))
    return false;
  if (!llvm::all_of(op->getOperandTypes(), isByteElement) ||
      !llvm::all_of(op->getResultTypes(), isByteElement))
    return false;
  // Gathers (tensor.extract in the body) stay loops.
  bool gathers = false;
  op->walk([&](tensor::ExtractOp) { gathers = true; });
  if (gathers)
    return false;
  unsigned last = op.getNumLoops() - 1;
  AffineExpr inner = getAffineDimExpr(last, op.getContext());
  for (AffineMap map : op.getIndexingMapsArray()) {
    if (!map.isFunctionOfDim(last))
      continue;
    if (map.getResults().back() != inner)
      return false;
    for (AffineExpr expr : map.getResults().drop_back())
      if (expr.isFunctionOfDim(last))
        return false;
  }
  return succeeded(linalg::vectorizeOpPrecondition(op));
}

/// The number of lanes of `vectorBits` for `op`'s widest element.
int64_t lanesFor(linalg::LinalgOp op, unsigned vectorBits) {
  unsigned widest = 8;
  for (Type type : llvm::concat<Type>(llvm::to_vector(op->getOperandTypes()),
                                      llvm::to_vector(op->getResultTypes())))
    widest =
        std::max(widest, getElementTypeOrSelf(type).getIntOrFloatBitWidth());
  return std::max<int64_t>(1, vectorBits / widest);
}

void mark(Operation *op, OpBuilder &b) {
  op->setAttr(kTileMarker, b.getUnitAttr());
}

/// Peels the remainder iteration off `loop` when its trip doesn't divide.
void peelRemainder(RewriterBase &rewriter, LoopLikeOpInterface loop) {
  auto forOp = dyn_cast_or_null<scf::ForOp>(loop.getOperation());
  if (!forOp)
    return;
  linalg::peelLoop(rewriter, forOp);
}

/// Elements of one chunk of a long row (see chunkLongRow): a multiple of
/// every vector length, 16 KiB of f32.
constexpr int64_t kRowChunk = 4096;

/// A parallel op that is one long static row (1-D, or with unit outer dims)
/// has no outer loop for the thread stage to split: its row becomes chunks
/// of kRowChunk elements in an scf.forall (a serial build makes it a
/// loop). Returns the chunk's op, or failure where `op` is not such a row.
FailureOr<linalg::LinalgOp> chunkLongRow(RewriterBase &rewriter,
                                         linalg::LinalgOp op) {
  unsigned last = op.getNumLoops() - 1;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (op.getNumLoops() == 0 || op.getNumReductionLoops() != 0 ||
      ShapedType::isDynamic(ranges[last]) || ranges[last] <= kRowChunk ||
      llvm::any_of(ArrayRef(ranges).drop_back(),
                   [](int64_t size) { return size != 1; }))
    return failure();
  SmallVector<OpFoldResult> sizes(op.getNumLoops(), rewriter.getIndexAttr(0));
  sizes[last] = rewriter.getIndexAttr(kRowChunk);
  scf::SCFTilingOptions options;
  options.setTileSizes(sizes);
  options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled))
    return failure();
  rewriter.replaceOp(op, tiled->replacements);
  return cast<linalg::LinalgOp>(tiled->tiledOps.front());
}

/// Tiles `op` to vectors of `lanes` along its innermost loop and 1 along
/// the others, and marks the tiles.
LogicalResult tileToVectors(RewriterBase &rewriter, linalg::LinalgOp op,
                            int64_t lanes) {
  if (FailureOr<linalg::LinalgOp> chunk = chunkLongRow(rewriter, op);
      succeeded(chunk))
    op = *chunk;
  unsigned numLoops = op.getNumLoops(), last = numLoops - 1;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  int64_t innerSize = op.getStaticLoopRanges()[last];
  bool innerReduction = iterators[last] == utils::IteratorType::reduction;
  // A `?` innermost loop may be longer than a vector: tiled, and its
  // remainder peeled, as a static one that does not divide.
  bool dynamicInner = ShapedType::isDynamic(innerSize);
  bool tileInner = dynamicInner || innerSize > lanes;
  bool remainder = dynamicInner || innerSize % lanes != 0;
  rewriter.setInsertionPoint(op);

  // Outer loops by 1; the innermost by `lanes` unless it reduces.
  SmallVector<OpFoldResult> sizes(numLoops, rewriter.getIndexAttr(1));
  sizes[last] =
      rewriter.getIndexAttr((innerReduction || !tileInner) ? 0 : lanes);
  SmallVector<unsigned> reductionDims;
  for (unsigned d = 0; d < last; ++d)
    if (iterators[d] == utils::IteratorType::reduction)
      reductionDims.push_back(d);

  Operation *tile = op;
  // Outer dims that are all parallel are tiled by an scf.forall, which the
  // thread stage may split across cores (a serial build makes it loops);
  // then the innermost dim by an scf.for, which can be peeled.
  if (last > 0 && reductionDims.empty()) {
    SmallVector<OpFoldResult> outer(sizes);
    outer[last] = rewriter.getIndexAttr(0);
    scf::SCFTilingOptions options;
    options.setTileSizes(outer);
    options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
    FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
        rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(tiled))
      return failure();
    rewriter.replaceOp(op, tiled->replacements);
    tile = tiled->tiledOps.front();
    for (unsigned d = 0; d < last; ++d)
      sizes[d] = rewriter.getIndexAttr(0);
  }
  if (llvm::any_of(sizes, [](OpFoldResult size) {
        return getConstantIntValue(size) != 0;
      })) {
    rewriter.setInsertionPoint(tile);
    scf::SCFTilingOptions options;
    options.setTileSizes(sizes);
    options.setReductionDims(reductionDims);
    FailureOr<scf::SCFTilingResult> tiled =
        scf::tileUsingSCF(rewriter, cast<TilingInterface>(tile), options);
    if (failed(tiled))
      return failure();
    rewriter.replaceOp(tile, tiled->replacements);
    tile = tiled->tiledOps.front();
    mark(tile, rewriter);
    if (!innerReduction && tileInner && remainder)
      peelRemainder(rewriter, tiled->loops.back());
  } else {
    mark(tile, rewriter);
  }
  if (!innerReduction || !tileInner)
    return success();

  // The innermost reduction: lanes accumulate independently (a partial
  // reduction), and are reduced across once after the loop.
  rewriter.setInsertionPoint(tile);
  SmallVector<OpFoldResult> partialSizes(numLoops, rewriter.getIndexAttr(0));
  partialSizes[last] = rewriter.getIndexAttr(lanes);
  scf::SCFTilingOptions options;
  options.setTileSizes(partialSizes);
  options.setReductionTilingStrategy(
      ReductionTilingStrategy::PartialReductionOuterReduction);
  options.setReductionDims({last});
  FailureOr<scf::SCFTilingResult> partial =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(tile), options);
  if (failed(partial))
    return failure();
  rewriter.replaceOp(tile, partial->replacements);
  for (Operation *op : partial->tiledOps)
    mark(op, rewriter);
  for (Operation *op : partial->mergeOps)
    mark(op, rewriter);
  for (Value init : partial->initialValues)
    if (Operation *def = init.getDefiningOp())
      mark(def, rewriter);
  if (remainder)
    peelRemainder(rewriter, partial->loops.back());
  return success();
}

/// Vectorizes a marked tile: static tiles exactly, a remainder tile (its
/// innermost size dynamic, at most `lanes`) with masks.
LogicalResult vectorizeTile(RewriterBase &rewriter, linalg::LinalgOp op,
                            unsigned vectorBits) {
  op->removeAttr(kTileMarker);
  SmallVector<int64_t> sizes;
  if (op.hasDynamicShape()) {
    int64_t lanes = lanesFor(op, vectorBits);
    for (int64_t size : op.getStaticLoopRanges())
      sizes.push_back(ShapedType::isDynamic(size) ? lanes : size);
  }
  rewriter.setInsertionPoint(op);
  // Explicitly not scalable: without the flags, linalg's vectorizer builds
  // N-D masks of a type that does not verify against the masked transfers.
  SmallVector<bool> scalable(sizes.size(), false);
  FailureOr<linalg::VectorizationResult> result =
      linalg::vectorize(rewriter, op, sizes, scalable);
  if (failed(result))
    return failure();
  rewriter.replaceOp(op, result->replacements);
  return success();
}

/// Every canonicalization pattern of the loaded dialects and ops.
LogicalResult canonicalize(func::FuncOp func) {
  MLIRContext *context = func.getContext();
  RewritePatternSet patterns(context);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : context->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, context);
  return applyPatternsGreedily(func, std::move(patterns));
}

struct CpuVectorizePass
    : mlir::trace::impl::TraceCpuVectorizeBase<CpuVectorizePass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    llvm::Expected<tracec::CpuVectorInfo> info =
        tracec::getCpuVectorInfo(targetCpu);
    if (!info) {
      func.emitError() << "trace-cpu-vectorize: "
                       << llvm::toString(info.takeError());
      return signalPassFailure();
    }
    unsigned vectorBits = info->vectorBits;

    IRRewriter rewriter(&getContext());
    tracec::rewriteWindowsAsTaps(func, rewriter);
    SmallVector<linalg::LinalgOp> candidates;
    func.walk([&](linalg::LinalgOp op) {
      if (isCandidate(op, dynamicInner))
        candidates.push_back(op);
    });
    for (linalg::LinalgOp op : candidates) {
      // Tiling may fail on an op we misjudged: it then stays whole and is
      // lowered to loops later, correct but slower.
      (void)tileToVectors(rewriter, op, lanesFor(op, vectorBits));
    }

    // Peeled tiles get static sizes: fold them into the slices' types.
    if (failed(canonicalize(func)))
      return signalPassFailure();

    SmallVector<linalg::LinalgOp> tiles;
    func.walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(kTileMarker))
        tiles.push_back(op);
    });
    for (linalg::LinalgOp op : tiles)
      (void)vectorizeTile(rewriter, op, vectorBits);

    // Fold the tiles' slices into their transfers, and carry the partial
    // reductions' lane accumulators as vectors through their loops.
    RewritePatternSet patterns(&getContext());
    tensor::populateFoldTensorSubsetOpPatterns(patterns);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    scf::ForOp::getCanonicalizationPatterns(patterns, &getContext());
    affine::AffineMinOp::getCanonicalizationPatterns(patterns, &getContext());
    vector::TransferReadOp::getCanonicalizationPatterns(patterns,
                                                        &getContext());
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns,
                                                         &getContext());
    if (failed(applyPatternsGreedily(func, std::move(patterns))))
      return signalPassFailure();
    func.walk([&](scf::ForOp loop) {
      (void)hoistLoopInvariantSubsets(rewriter, loop);
    });
  }
};

} // namespace
