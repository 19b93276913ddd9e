//===- TraceToLinalg.h - Patterns lowering trace ops to linalg ------------===//

#ifndef TRACEC_CONVERSION_TRACETOLINALG_TRACETOLINALG_H
#define TRACEC_CONVERSION_TRACETOLINALG_TRACETOLINALG_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::trace {

/// Unary, binary, comparison, select and cast ops -> linalg.generic.
void populateElementwiseToLinalgPatterns(RewritePatternSet &patterns);

/// matmul -> linalg.matmul / linalg.batch_matmul / linalg.generic.
void populateMatmulToLinalgPatterns(RewritePatternSet &patterns);

/// reduce_{sum,mean,max,min} -> linalg.reduce.
void populateReductionToLinalgPatterns(RewritePatternSet &patterns);

/// conv2d -> linalg.conv_2d_nhwc_hwcf, max_pool2d -> linalg.pooling_nhwc_max,
/// avg_pool2d -> linalg.pooling_nhwc_sum divided by the in-bounds count.
void populateConvPoolToLinalgPatterns(RewritePatternSet &patterns);

/// conv2d_backprop_input/filter -> contractions and strided slices (f32,
/// f64) or linalg.generic gathers (see ConvBackpropToLinalg.cpp).
void populateConvBackpropToLinalgPatterns(RewritePatternSet &patterns);

/// max_pool2d_grad, max_pool2d_select, avg_pool2d_grad -> linalg.generic
/// (window argmax, gathers over input positions).
void populatePoolingGradToLinalgPatterns(RewritePatternSet &patterns);

/// softmax, log_softmax (max-subtracted) and argmax -> linalg.
void populateSoftmaxToLinalgPatterns(RewritePatternSet &patterns);

/// constant -> arith.constant, fill -> linalg.fill, iota -> linalg.generic
/// with linalg.index, identity without control tokens -> its operand.
void populateSourcesToLinalgPatterns(RewritePatternSet &patterns);

/// reshape, transpose, broadcast_to, size -> tensor reshapes and linalg.
void populateShapeToLinalgPatterns(RewritePatternSet &patterns);
/// concat, slice, pad, split -> tensor slices and pads.
void populateConcatSliceToTensorPatterns(RewritePatternSet &patterns);
/// gather, scatter_add, one_hot -> linalg.generic (scatter_add: an scf.for
/// nest).
void populateIndexingToLinalgPatterns(RewritePatternSet &patterns);
/// sort -> a stable bottom-up merge sort per row, in scf loops.
void populateSortToLoopsPatterns(RewritePatternSet &patterns);

/// A linalg contraction one of whose operands is a splat (constant or fill)
/// -> the sum of the other operand over the contracted dims, scaled and
/// broadcast (lib/Conversion/TraceToLinalg/SplatContractions.cpp).
void populateSplatContractionPatterns(RewritePatternSet &patterns);

/// Rewrites each sum of 2-D products `a1 b1 + ... + an bn` (trace.add
/// trees of trace.matmul ops used nowhere else, with the same flags and
/// result type, each result larger than its operands) under `root` as one
/// product of the operands joined along the contracted dim
/// (lib/Conversion/TraceToLinalg/SumsOfProducts.cpp).
void joinSumsOfProducts(Operation *root);

} // namespace mlir::trace

#endif // TRACEC_CONVERSION_TRACETOLINALG_TRACETOLINALG_H
