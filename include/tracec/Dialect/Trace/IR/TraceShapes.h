//===- TraceShapes.h - Shape rules shared by the trace ops ----------------===//
//
// Result-type inference for the op families whose rule is shared by several
// ops. Each function reports a violated rule at `loc` (when given) with a
// message that names the op, the operand and the rule, e.g.
// "'trace.add' op shapes are not broadcast-compatible: lhs 2x3 vs rhs 4x3".
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_DIALECT_TRACE_IR_TRACESHAPES_H
#define TRACEC_DIALECT_TRACE_IR_TRACESHAPES_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"
#include <optional>
#include <string>

namespace mlir::trace {

/// "'trace.add' op": how shape-rule messages start, as emitOpError's do.
std::string opPrefix(llvm::StringRef operationName);

/// A shape as messages print it: "2x3x?", or "scalar" for rank 0.
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// A list of integers as messages print it: "[1, 0, 2]".
std::string formatList(llvm::ArrayRef<int64_t> values);

/// Whether every value is > 0 (strides, dilations, windows, sizes).
inline bool allPositive(llvm::ArrayRef<int64_t> values) {
  return llvm::all_of(values, [](int64_t v) { return v > 0; });
}

/// `axis` in [-rank, rank) counted from the end when negative; nullopt when
/// out of range.
std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank);

/// The broadcast of two shapes (aligned from the right, missing leading dims
/// act as 1), or nullopt when two static dims are neither equal nor 1.
///
/// The dynamic-dim rule (as XLA/StableHLO): a `?` dim never broadcasts
/// implicitly, only a static 1 does. So `?` vs 1 gives `?`, `?` vs N gives N
/// and `?` vs `?` gives `?`; the last two are statically valid and need a
/// run-time check that the sizes are equal (a `?` that is 1 at run time is
/// not stretched). See DESIGN.md, "Dynamic dims".
std::optional<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> lhs, llvm::ArrayRef<int64_t> rhs);

/// True when a reshape from `from` to `to` only inserts or removes unit
/// dims: with the static 1s dropped, the shapes are equal (a `?` stands for
/// a `?`), so each result size is one operand dim's size, however many are
/// `?`.
bool onlyUnitDimsDiffer(llvm::ArrayRef<int64_t> from,
                        llvm::ArrayRef<int64_t> to);

/// Why `lhs` and `rhs` do not broadcast, naming the first offending dim of
/// each (right-aligned): "lhs dim 1 is 3, rhs dim 0 is 2".
std::string describeBroadcastMismatch(llvm::ArrayRef<int64_t> lhs,
                                      llvm::StringRef lhsName,
                                      llvm::ArrayRef<int64_t> rhs,
                                      llvm::StringRef rhsName);

/// A result type of an op that has no operand giving the size of a `?` dim
/// (fill, iota, random_*): an error naming the first dynamic dim.
llvm::LogicalResult verifyNoUnsourcedDynamicDims(Operation *op,
                                                 RankedTensorType result);

/// Elementwise binary ops: the broadcast shape of all operands, with the
/// first operand's element type (i1 for comparisons).
llvm::LogicalResult inferBroadcastResult(std::optional<Location> loc,
                                         llvm::StringRef opName,
                                         llvm::ArrayRef<Type> operandTypes,
                                         bool isComparison,
                                         llvm::SmallVectorImpl<Type> &results);

/// Reductions over `axes` (negative allowed, unique), optionally keeping the
/// reduced dims as size 1.
llvm::LogicalResult inferReductionResult(std::optional<Location> loc,
                                         llvm::StringRef opName, Type input,
                                         llvm::ArrayRef<int64_t> axes,
                                         bool keepdims,
                                         llvm::SmallVectorImpl<Type> &results);

/// NHWC pooling with a [kh, kw] window, [sh, sw] strides and
/// [top, bottom, left, right] padding.
llvm::LogicalResult inferPoolResult(std::optional<Location> loc,
                                    llvm::StringRef opName, Type input,
                                    llvm::ArrayRef<int64_t> window,
                                    llvm::ArrayRef<int64_t> strides,
                                    llvm::ArrayRef<int64_t> padding,
                                    llvm::SmallVectorImpl<Type> &results);

inline int64_t floorDiv(int64_t lhs, int64_t rhs) {
  return llvm::divideFloorSigned(lhs, rhs);
}
inline AffineExpr floorDiv(AffineExpr lhs, int64_t rhs) {
  return lhs.floorDiv(rhs);
}

/// The output size of a window of `window` elements, dilated by `dilation`,
/// sliding by `stride` over `size` elements padded by `padLow + padHigh`:
///   (size + pads - ((window - 1) * dilation + 1)) floordiv stride + 1.
/// The one rule of every window op, written once over any size arithmetic:
/// int64_t for static inference, AffineExpr for run-time sizes
/// (reifyWindowedSize). Valid where the window fits the padded input.
template <typename Size>
Size windowedSize(Size size, Size window, int64_t stride, int64_t padLow,
                  int64_t padHigh, int64_t dilation) {
  Size span = (window - 1) * dilation + 1;
  return floorDiv(size + (padLow + padHigh) - span, stride) + 1;
}

/// gather's (and scatter_add's updates') shape: `params`' dims around
/// `axis`, the indices' dims in its place. Over static and run-time sizes.
template <typename Size>
SmallVector<Size> gatheredShape(ArrayRef<Size> params, ArrayRef<Size> indices,
                                int64_t axis) {
  SmallVector<Size> shape(params.take_front(axis));
  llvm::append_range(shape, indices);
  llvm::append_range(shape, params.drop_front(axis + 1));
  return shape;
}

/// windowedSize of static sizes: `?` where `size` or `window` is, 0 where
/// the window does not fit.
int64_t windowedOutputSize(int64_t size, int64_t window, int64_t stride,
                           int64_t padLow, int64_t padHigh,
                           int64_t dilation = 1);

//===----------------------------------------------------------------------===//
// Run-time sizes (ReifyRankedShapedTypeOpInterface)
//
// The same rules over OpFoldResults: a result dim is a constant where the
// result type has it static, else computed from the operands' sizes
// (tensor.dim, affine.apply). They build no checks: a lowering checks at
// run time what the verifier could not.
//===----------------------------------------------------------------------===//

/// lhs + rhs, lhs * rhs, lhs - rhs, lhs / rhs (floor, non-negative sizes):
/// a constant where both are, else an arith op.
OpFoldResult addSizes(OpBuilder &b, Location loc, OpFoldResult lhs,
                      OpFoldResult rhs);
OpFoldResult mulSizes(OpBuilder &b, Location loc, OpFoldResult lhs,
                      OpFoldResult rhs);
OpFoldResult subSizes(OpBuilder &b, Location loc, OpFoldResult lhs,
                      OpFoldResult rhs);
OpFoldResult divSizes(OpBuilder &b, Location loc, OpFoldResult lhs,
                      OpFoldResult rhs);

/// windowedSize at run time: a constant where `size` and `window` are, else
/// an affine.apply.
OpFoldResult reifyWindowedSize(OpBuilder &b, Location loc, OpFoldResult size,
                               OpFoldResult window, int64_t stride,
                               int64_t padLow, int64_t padHigh,
                               int64_t dilation);

/// The NHWC result sizes of a window op over `input`: its batch, the
/// windowed H and W, and `channels`.
SmallVector<OpFoldResult>
reifyWindowResult(OpBuilder &b, Location loc, Value input,
                  OpFoldResult channels, ArrayRef<OpFoldResult> window,
                  ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
                  ArrayRef<int64_t> dilations);

/// `sizes` as the one result's reified shape, with the result type's static
/// dims as constants (a result type may be more static than the rule).
LogicalResult reifiedAs(OpBuilder &b, Value result,
                        ArrayRef<OpFoldResult> sizes,
                        ReifiedRankedShapedTypeDims &shapes);

/// Ops whose result has the shape of `shapeOf` (by default the first
/// operand): the unary ops, softmax, max_pool2d_grad.
LogicalResult reifySameShapeResult(OpBuilder &b, Operation *op,
                                   ReifiedRankedShapedTypeDims &shapes,
                                   Value shapeOf = {});

/// The broadcast of `operands`' shapes without their last `trailing` dims
/// (aligned from the right), as `result`'s leading dims: an operand's
/// static size other than 1 where there is one, else the size of the first
/// operand with a `?` dim there, else 1.
SmallVector<OpFoldResult> reifyBroadcastSizes(OpBuilder &b, Location loc,
                                              ValueRange operands,
                                              RankedTensorType result,
                                              int64_t trailing = 0);

/// Broadcasting ops: reifyBroadcastSizes of all their operands.
LogicalResult reifyBroadcastResult(OpBuilder &b, Operation *op,
                                   ReifiedRankedShapedTypeDims &shapes);

/// Reductions of `input` over `axes`: the kept dims' sizes (1 for the
/// reduced ones with `keepdims`).
LogicalResult reifyReductionResult(OpBuilder &b, Operation *op, Value input,
                                   ArrayRef<int64_t> axes, bool keepdims,
                                   ReifiedRankedShapedTypeDims &shapes);

} // namespace mlir::trace

#endif // TRACEC_DIALECT_TRACE_IR_TRACESHAPES_H
