//===- PoolingTaps.cpp - Poolings as elementwise ops over window taps -----===//
//
// linalg's NHWC poolings iterate (n, oh, ow, c, kh, kw): the window loops
// are innermost, so no operand is contiguous along the innermost loop and
// trace-cpu-vectorize leaves them to scalar loops (which LLVM's loop
// vectorizer then spends tens of milliseconds on). A window of kh x kw taps
// is also kh * kw strided slices of the input, each the size of the output
// (tap (i, j) reads input[n, oh * sh + i, ow * sw + j, c]): combined
// elementwise with the accumulator, in the pooling's own body (max or
// sum), they make one op of identity maps, contiguous along c.
//
//===----------------------------------------------------------------------===//

#include "PoolingTaps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace {

/// The window, strides and dilations of a 2-D NHWC pooling; failure for
/// other ops.
struct PoolingShape {
  ArrayRef<int64_t> window;
  SmallVector<int64_t> strides;
  bool unitDilations;
};

FailureOr<PoolingShape> nhwcPoolingShape(linalg::LinalgOp op) {
  auto shape = [&](auto pool) -> PoolingShape {
    auto window = cast<RankedTensorType>(pool.getInputs()[1].getType());
    return {window.getShape(),
            llvm::to_vector(pool.getStrides().template getValues<int64_t>()),
            llvm::all_of(pool.getDilations().template getValues<int64_t>(),
                         [](int64_t d) { return d == 1; })};
  };
  if (auto pool = dyn_cast<linalg::PoolingNhwcMaxOp>(op.getOperation()))
    return shape(pool);
  if (auto pool = dyn_cast<linalg::PoolingNhwcSumOp>(op.getOperation()))
    return shape(pool);
  if (auto pool = dyn_cast<linalg::PoolingNhwcMinOp>(op.getOperation()))
    return shape(pool);
  return failure();
}

void rewriteAsTaps(linalg::LinalgOp op, const PoolingShape &shape,
                   RewriterBase &rewriter) {
  Location loc = op.getLoc();
  Value input = op.getDpsInputs()[0];
  Value init = op.getDpsInits()[0];
  auto resultType = cast<RankedTensorType>(init.getType());
  ArrayRef<int64_t> out = resultType.getShape();

  rewriter.setInsertionPoint(op);
  SmallVector<Value> operands;
  for (int64_t i = 0; i < shape.window[0]; ++i)
    for (int64_t j = 0; j < shape.window[1]; ++j)
      operands.push_back(tensor::ExtractSliceOp::create(
          rewriter, loc, input,
          getAsIndexOpFoldResult(rewriter.getContext(), {0, i, j, 0}),
          getAsIndexOpFoldResult(rewriter.getContext(), out),
          getAsIndexOpFoldResult(rewriter.getContext(),
                                 {1, shape.strides[0], shape.strides[1], 1})));
  int64_t taps = operands.size();
  operands.push_back(init);

  Block *body = op.getBlock();
  BlockArgument inArg = op.getMatchingBlockArgument(op.getDpsInputOperand(0));
  BlockArgument outArg = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  SmallVector<AffineMap> maps(taps + 2, rewriter.getMultiDimIdentityMap(4));
  SmallVector<utils::IteratorType> iterators(4, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{resultType}, operands, ValueRange{init}, maps,
      iterators, [&](OpBuilder &b, Location l, ValueRange args) {
        // The accumulator folded with each tap by the pooling's own body.
        Value acc = args[taps];
        for (int64_t t = 0; t < taps; ++t) {
          IRMapping mapping;
          mapping.map(inArg, args[t]);
          mapping.map(outArg, acc);
          for (Operation &inner : body->without_terminator())
            b.clone(inner, mapping);
          acc = mapping.lookup(body->getTerminator()->getOperand(0));
        }
        linalg::YieldOp::create(b, l, acc);
      });
  rewriter.replaceOp(op, generic.getResults());
}

} // namespace

void tracec::rewritePoolingsAsTaps(Operation *root, RewriterBase &rewriter) {
  SmallVector<std::pair<linalg::LinalgOp, PoolingShape>> poolings;
  root->walk([&](linalg::LinalgOp op) {
    FailureOr<PoolingShape> shape = nhwcPoolingShape(op);
    if (failed(shape) || !shape->unitDilations ||
        !op.hasPureTensorSemantics() || op->getNumResults() != 1 ||
        !llvm::all_of(
            op->getOperandTypes(),
            [](Type t) { return cast<ShapedType>(t).hasStaticShape(); }) ||
        shape->window[0] * shape->window[1] > kMaxPoolingTaps)
      return;
    poolings.push_back({op, *shape});
  });
  for (auto &[op, shape] : poolings)
    rewriteAsTaps(op, shape, rewriter);
}
