//===- LowerContractionVectors.cpp - Contracts to FMAs on buffers ---------===//
//
// After bufferization (see Passes.td): the accumulator's transfers move out
// of the k loop, unit dims go, and vector.contract becomes outer products:
// per row of the register tile, one broadcast of the left operand and an
// FMA with the right operand's row. Steps on bf16 pairs become vdpbf16ps
// (x86vector.avx512.dot) instead.
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/CPU/Passes.h"

#include "tracec/Codegen/CPU/CpuTarget.h"

#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/Error.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACELOWERCONTRACTIONVECTORS
#include "tracec/Codegen/CPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {

/// The dims of `type` larger than 1.
SmallVector<int64_t> nonUnitDims(VectorType type) {
  SmallVector<int64_t> dims;
  for (auto [i, size] : llvm::enumerate(type.getShape()))
    if (size != 1)
      dims.push_back(i);
  return dims;
}

/// A micro-kernel step: vector.contract whose reductions are all unit dims,
/// with one non-unit dim in each operand (m in the lhs, n in the rhs) and
/// [m, n] in the accumulator, i.e. acc += lhs (x) rhs. As a 1-D x 1-D
/// vector.outerproduct it lowers to one broadcast FMA per row; upstream's
/// contract lowering would first drop the unit reduction and then unroll
/// the contract into scalar dot products.
struct UnitReductionContractToOuterProduct
    : OpRewritePattern<vector::ContractionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::ContractionOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getKind() != vector::CombiningKind::ADD)
      return failure();
    auto accType = dyn_cast<VectorType>(op.getAccType());
    VectorType lhsType = op.getLhsType(), rhsType = op.getRhsType();
    if (!accType || !isa<FloatType>(accType.getElementType()) ||
        lhsType.getElementType() != accType.getElementType() ||
        rhsType.getElementType() != accType.getElementType())
      return failure();
    // Every reduction dim is a unit dim (of the iteration space).
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<int64_t> iterationShape;
    op.getIterationBounds(iterationShape);
    for (auto [i, type] : llvm::enumerate(op.getIteratorTypesArray()))
      if (type == vector::IteratorType::reduction && iterationShape[i] != 1)
        return failure();
    SmallVector<int64_t> lhsDims = nonUnitDims(lhsType);
    SmallVector<int64_t> rhsDims = nonUnitDims(rhsType);
    SmallVector<int64_t> accDims = nonUnitDims(accType);
    if (lhsDims.size() != 1 || rhsDims.size() != 1 || accDims.size() != 2)
      return failure();
    // acc's dims must be lhs's then rhs's, as iteration dims.
    unsigned m = maps[0].getDimPosition(lhsDims[0]);
    unsigned n = maps[1].getDimPosition(rhsDims[0]);
    if (maps[2].getDimPosition(accDims[0]) != m ||
        maps[2].getDimPosition(accDims[1]) != n)
      return failure();

    Location loc = op.getLoc();
    Type element = accType.getElementType();
    int64_t mSize = iterationShape[m], nSize = iterationShape[n];
    auto lhs = vector::ShapeCastOp::create(
        rewriter, loc, VectorType::get({mSize}, element), op.getLhs());
    auto rhs = vector::ShapeCastOp::create(
        rewriter, loc, VectorType::get({nSize}, element), op.getRhs());
    auto acc = vector::ShapeCastOp::create(
        rewriter, loc, VectorType::get({mSize, nSize}, element), op.getAcc());
    auto product = vector::OuterProductOp::create(
        rewriter, loc, acc.getType(), lhs, rhs, acc,
        vector::CombiningKind::ADD);
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(op, accType, product);
    return success();
  }
};

/// A micro-kernel step on bf16 pairs (k0 = 2, ContractionTiling.h):
/// vector.contract of lhs [m, 2] and rhs [n, 2] bf16 (unit dims aside)
/// into acc [m, n] f32, every other reduction a unit dim. Per row of the
/// tile, the row's pair of the left operand is broadcast to every lane as
/// one 32-bit word, and each 16 columns take one vdpbf16ps with the right
/// operand's 16 pairs: 32 multiply-adds per instruction, twice an FMA's.
struct PairReductionContractToDotBF16
    : OpRewritePattern<vector::ContractionOp> {
  using OpRewritePattern::OpRewritePattern;

  /// The f32 lanes of one vdpbf16ps on 512-bit registers.
  static constexpr int64_t kLanes = 16;

  LogicalResult matchAndRewrite(vector::ContractionOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getKind() != vector::CombiningKind::ADD)
      return failure();
    auto accType = dyn_cast<VectorType>(op.getAccType());
    VectorType lhsType = op.getLhsType(), rhsType = op.getRhsType();
    if (!accType || !accType.getElementType().isF32() ||
        !lhsType.getElementType().isBF16() ||
        !rhsType.getElementType().isBF16())
      return failure();
    // One reduction of size 2, the others unit dims.
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<int64_t> iterationShape;
    op.getIterationBounds(iterationShape);
    std::optional<unsigned> k;
    for (auto [i, type] : llvm::enumerate(op.getIteratorTypesArray())) {
      if (type != vector::IteratorType::reduction || iterationShape[i] == 1)
        continue;
      if (k || iterationShape[i] != 2)
        return failure();
      k = i;
    }
    SmallVector<int64_t> lhsDims = nonUnitDims(lhsType);
    SmallVector<int64_t> rhsDims = nonUnitDims(rhsType);
    SmallVector<int64_t> accDims = nonUnitDims(accType);
    if (!k || lhsDims.size() != 2 || rhsDims.size() != 2 ||
        accDims.size() != 2)
      return failure();
    // Pairs innermost in both operands: lhs [m, k], rhs [n, k], acc [m, n].
    unsigned m = maps[0].getDimPosition(lhsDims[0]);
    unsigned n = maps[1].getDimPosition(rhsDims[0]);
    if (maps[0].getDimPosition(lhsDims[1]) != *k ||
        maps[1].getDimPosition(rhsDims[1]) != *k ||
        maps[2].getDimPosition(accDims[0]) != m ||
        maps[2].getDimPosition(accDims[1]) != n)
      return failure();
    int64_t mSize = iterationShape[m], nSize = iterationShape[n];
    if (nSize % kLanes != 0)
      return failure();

    Location loc = op.getLoc();
    Type bf16 = lhsType.getElementType(), f32 = accType.getElementType();
    Type i32 = rewriter.getI32Type();
    auto pairs = VectorType::get({2 * kLanes}, bf16);
    // The left operand's pairs as words, the right operand's as slices of
    // kLanes pairs, the accumulator as rows.
    Value lhsWords = vector::BitCastOp::create(
        rewriter, loc, VectorType::get({mSize}, i32),
        vector::ShapeCastOp::create(
            rewriter, loc, VectorType::get({2 * mSize}, bf16), op.getLhs()));
    Value rhs = vector::ShapeCastOp::create(
        rewriter, loc, VectorType::get({2 * nSize}, bf16), op.getRhs());
    SmallVector<Value> rhsSlices;
    for (int64_t j = 0; j < nSize; j += kLanes)
      rhsSlices.push_back(vector::ExtractStridedSliceOp::create(
          rewriter, loc, rhs, /*offsets=*/{2 * j}, /*sizes=*/{2 * kLanes},
          /*strides=*/{1}));
    Value acc = vector::ShapeCastOp::create(
        rewriter, loc, VectorType::get({mSize, nSize}, f32), op.getAcc());
    for (int64_t i = 0; i < mSize; ++i) {
      Value word = vector::ExtractOp::create(rewriter, loc, lhsWords, i);
      Value broadcast = vector::BitCastOp::create(
          rewriter, loc, pairs,
          vector::BroadcastOp::create(
              rewriter, loc, VectorType::get({kLanes}, i32), word));
      Value row = vector::ExtractOp::create(rewriter, loc, acc, i);
      for (auto [s, slice] : llvm::enumerate(rhsSlices)) {
        int64_t j = s * kLanes;
        Value sums = vector::ExtractStridedSliceOp::create(
            rewriter, loc, row, {j}, {kLanes}, {1});
        sums = x86vector::DotBF16Op::create(rewriter, loc, sums.getType(),
                                            sums, broadcast, slice);
        row = vector::InsertStridedSliceOp::create(rewriter, loc, sums, row,
                                                   {j}, {1});
      }
      acc = vector::InsertOp::create(rewriter, loc, row, acc, i);
    }
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(op, accType, acc);
    return success();
  }
};

/// A transpose of the packing loops moves unit dims along with the others
/// (vector<8x16x1> to <16x1x8>). Upstream's transpose lowering would
/// flatten it element by element (a shape_cast whose trailing dim is 1);
/// as a transpose of the non-unit dims between shape casts, which fold into
/// the transfers around it, it is one 2-D shuffle.
struct TransposeOfNonUnitDims : OpRewritePattern<vector::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    VectorType sourceType = op.getSourceVectorType();
    SmallVector<int64_t> kept = nonUnitDims(sourceType);
    if (sourceType.isScalable() || kept.empty() ||
        kept.size() == static_cast<size_t>(sourceType.getRank()))
      return failure();
    // The permutation of the kept dims, in their order in the result.
    SmallVector<int64_t> position(sourceType.getRank(), -1);
    for (auto [i, dim] : llvm::enumerate(kept))
      position[dim] = i;
    SmallVector<int64_t> permutation, shape;
    for (int64_t dim : op.getPermutation())
      if (position[dim] >= 0)
        permutation.push_back(position[dim]);
    for (int64_t dim : kept)
      shape.push_back(sourceType.getDimSize(dim));
    Location loc = op.getLoc();
    Value value = vector::ShapeCastOp::create(
        rewriter, loc, VectorType::get(shape, sourceType.getElementType()),
        op.getVector());
    if (!llvm::is_sorted(permutation))
      value = vector::TransposeOp::create(rewriter, loc, value, permutation);
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(op, op.getResultVectorType(),
                                                     value);
    return success();
  }
};

/// A transpose that keeps its innermost dim in place, on elements narrower
/// than 32 bits (a tile of bf16 pairs: <8x16x2xbf16> to <16x8x2xbf16>),
/// moves each innermost row as one 32- or 64-bit integer; upstream unrolls
/// it row by row.
struct TransposeOfNarrowRows : OpRewritePattern<vector::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    VectorType sourceType = op.getSourceVectorType();
    ArrayRef<int64_t> permutation = op.getPermutation();
    int64_t rank = sourceType.getRank();
    Type element = sourceType.getElementType();
    if (sourceType.isScalable() || rank < 3 ||
        permutation.back() != rank - 1 || !element.isIntOrFloat())
      return failure();
    int64_t bits = element.getIntOrFloatBitWidth() * sourceType.getShape().back();
    if (element.getIntOrFloatBitWidth() >= 32 || (bits != 32 && bits != 64))
      return failure();
    Location loc = op.getLoc();
    auto word = rewriter.getIntegerType(bits);
    SmallVector<int64_t> rows(sourceType.getShape().drop_back());
    SmallVector<int64_t> unitRows(rows);
    unitRows.push_back(1);
    Value value = vector::BitCastOp::create(
        rewriter, loc, VectorType::get(unitRows, word), op.getVector());
    value = vector::ShapeCastOp::create(rewriter, loc,
                                        VectorType::get(rows, word), value);
    value = vector::TransposeOp::create(rewriter, loc, value,
                                        permutation.drop_back());
    SmallVector<int64_t> transposed(op.getResultVectorType().getShape());
    transposed.back() = 1;
    value = vector::ShapeCastOp::create(
        rewriter, loc, VectorType::get(transposed, word), value);
    rewriter.replaceOpWithNewOp<vector::BitCastOp>(
        op, op.getResultVectorType(), value);
    return success();
  }
};

/// A transpose that keeps its leading dim in place (the pairs of a bf16
/// tile: <16x2x32> to <16x32x2>) as one transpose of the rest per index of
/// it: upstream lowers a transpose of 3 or more dims element by element, a
/// 2-D one as one shuffle.
struct TransposeUnderLeadingDim : OpRewritePattern<vector::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    VectorType sourceType = op.getSourceVectorType();
    ArrayRef<int64_t> permutation = op.getPermutation();
    if (sourceType.isScalable() || sourceType.getRank() < 3 ||
        permutation.front() != 0)
      return failure();
    SmallVector<int64_t> inner;
    for (int64_t dim : permutation.drop_front())
      inner.push_back(dim - 1);
    Location loc = op.getLoc();
    VectorType resultType = op.getResultVectorType();
    Value result = arith::ConstantOp::create(
        rewriter, loc, resultType, rewriter.getZeroAttr(resultType));
    for (int64_t i = 0; i < sourceType.getDimSize(0); ++i) {
      Value slice = vector::ExtractOp::create(rewriter, loc, op.getVector(), i);
      slice = vector::TransposeOp::create(rewriter, loc, slice, inner);
      result = vector::InsertOp::create(rewriter, loc, slice, result, i);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct LowerContractionVectorsPass
    : mlir::trace::impl::TraceLowerContractionVectorsBase<
          LowerContractionVectorsPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    MLIRContext *context = &getContext();
    llvm::Expected<tracec::CpuVectorInfo> info = tracec::getCpuVectorInfo(cpu);
    if (!info) {
      root->emitError() << llvm::toString(info.takeError());
      return signalPassFailure();
    }
    // The accumulator stays in registers across the k loop.
    linalg::hoistRedundantVectorTransfers(root, /*verifyNonZeroTrip=*/true);

    // Micro-kernel steps become outer products, then unit dims (of the
    // packed layout's outer dims) go.
    {
      RewritePatternSet patterns(context);
      patterns.add<UnitReductionContractToOuterProduct>(context);
      // vdpbf16ps only where the target has it (the pack step makes pair
      // tiles only there).
      if (info->avx512bf16)
        patterns.add<PairReductionContractToDotBF16>(context);
      if (failed(applyPatternsGreedily(root, std::move(patterns))))
        return signalPassFailure();
    }
    {
      RewritePatternSet patterns(context);
      vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
      vector::populateVectorTransferDropUnitDimsPatterns(patterns);
      vector::populateDropUnitDimWithShapeCastPatterns(patterns);
      vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
      vector::populateDropInnerMostUnitDimsXferOpPatterns(patterns);
      patterns.add<TransposeOfNonUnitDims, TransposeOfNarrowRows,
                   TransposeUnderLeadingDim>(context);
      // A tile of bf16 pairs ([n0, 2]) is read as one 1-D vector, not as
      // n0 loads of a pair; rows of 4-byte floats are 1-D already.
      vector::populateFlattenVectorTransferPatterns(
          patterns, /*targetVectorBitwidth=*/64);
      vector::ShapeCastOp::getCanonicalizationPatterns(patterns, context);
      if (failed(applyPatternsGreedily(root, std::move(patterns))))
        return signalPassFailure();
    }
    {
      RewritePatternSet patterns(context);
      vector::populateVectorContractLoweringPatterns(
          patterns, vector::VectorContractLowering::OuterProduct);
      vector::populateVectorOuterProductLoweringPatterns(patterns);
      vector::populateVectorTransposeLoweringPatterns(
          patterns, vector::VectorTransposeLowering::Shuffle1D);
      vector::populateVectorMaskOpLoweringPatterns(patterns);
      vector::populateVectorShapeCastLoweringPatterns(patterns);
      vector::populateVectorBitCastLoweringPatterns(patterns);
      vector::populateVectorBroadcastLoweringPatterns(patterns);
      vector::populateVectorTransferLoweringPatterns(patterns,
                                                     /*maxTransferRank=*/1);
      if (failed(applyPatternsGreedily(root, std::move(patterns))))
        return signalPassFailure();
    }
  }
};

} // namespace
