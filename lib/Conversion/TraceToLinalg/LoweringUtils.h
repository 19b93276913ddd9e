//===- LoweringUtils.h - Small builders the lowerings share ---------------===//

#ifndef TRACEC_LIB_CONVERSION_TRACETOLINALG_LOWERINGUTILS_H
#define TRACEC_LIB_CONVERSION_TRACETOLINALG_LOWERINGUTILS_H

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

namespace mlir::trace {

/// A tensor of `shape` filled with the constant `value` (tensor.empty +
/// linalg.fill): the accumulator of a contraction, reduction or pooling.
Value filledTensor(OpBuilder &builder, Location loc, ArrayRef<int64_t> shape,
                   TypedAttr value);

/// The size of dim `d` of the ranked tensor `value`: a constant index
/// where static, else tensor.dim.
Value dimSize(OpBuilder &builder, Location loc, Value value, int64_t d);

/// The sizes of `value`'s dynamic dims (tensor.dim), for a tensor.empty of
/// its type.
SmallVector<Value> dynamicSizes(OpBuilder &builder, Location loc, Value value);

/// filledTensor with the dynamic sizes `dynamic` (one per `?` of `shape`).
Value filledTensor(OpBuilder &builder, Location loc, ArrayRef<int64_t> shape,
                   ValueRange dynamic, TypedAttr value);

/// Asserts at run time that `holds` (an i1) is true; the message names
/// `op` and where it is (file:line:col), then `what`.
void checkAtRunTime(OpBuilder &builder, Location loc, Operation *op,
                    Value holds, const llvm::Twine &what);

/// A run-time check that two sizes (index values) agree, where the verifier
/// could not decide it (a `?` against a static size or another `?`):
/// `cf.assert (lhs == rhs), "<op>: <what>"`. Nothing is emitted when both
/// are constants. Entries do not run their checks: trace-shape-functions
/// moves them into the entry's shape function, which the caller runs
/// before every call (see ShapeFunctions.cpp for the convention).
void checkSameSize(OpBuilder &builder, Location loc, Operation *op, Value lhs,
                   Value rhs, const llvm::Twine &what);

/// Checks at run time (checkSameSize) that the operand dims each loop
/// indexes agree, for an op that reads `operands` through `maps` (one per
/// operand, over `numLoops` loops). Fails, checking nothing, where a loop
/// indexes no operand dim. The sizes themselves are the op's
/// (reifyResultShapes).
LogicalResult checkLoopSizes(OpBuilder &builder, Location loc, Operation *op,
                             ValueRange operands, ArrayRef<AffineMap> maps,
                             unsigned numLoops);

/// The dynamic sizes of `type` (a tensor indexed by the loops through an
/// identity-like map `dims`, one loop per dim) among `sizes`.
SmallVector<Value> dynamicSizesOf(RankedTensorType type, ArrayRef<Value> sizes,
                                  ArrayRef<unsigned> dims);

/// `value` (an f64 attribute) as an attribute of `element`: rounded to the
/// nearest float, truncated toward zero (saturating, NaN -> 0) for integers,
/// non-zero for i1.
TypedAttr scalarAttr(Builder &b, Type element, llvm::APFloat value);

/// A tensor.empty of `type` (`dynamic`: its `?` sizes).
Value emptyLike(OpBuilder &b, Location loc, RankedTensorType type,
                ValueRange dynamic = {});

/// `rank` parallel iterators.
SmallVector<utils::IteratorType> parallel(int64_t rank);

/// The element type sums of products of `element`s accumulate in: f32 for
/// f16 and bf16 (as PyTorch's and XLA's CPU kernels do: a bf16 sum of 512
/// ones stalls at 256), else `element` itself.
Type accumulatorType(Type element);

/// The ranked tensor `x` rounded elementwise to `element` (arith.truncf).
Value roundTo(OpBuilder &builder, Location loc, Value x, Type element);

} // namespace mlir::trace

#endif // TRACEC_LIB_CONVERSION_TRACETOLINALG_LOWERINGUTILS_H
