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

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"
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

/// The output size of a window sliding over `size` elements padded with
/// `padLow + padHigh`: floor((size + pads - dilation*(window-1) - 1)/stride)+1.
/// Dynamic in, dynamic out.
int64_t windowedOutputSize(int64_t size, int64_t window, int64_t stride,
                           int64_t padLow, int64_t padHigh,
                           int64_t dilation = 1);

} // namespace mlir::trace

#endif // TRACEC_DIALECT_TRACE_IR_TRACESHAPES_H
