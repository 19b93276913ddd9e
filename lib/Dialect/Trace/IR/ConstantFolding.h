//===- ConstantFolding.h - Elementwise folding of small constants ---------===//
//
// Folders evaluate elementwise ops on constant operands when the result is a
// splat or has at most kMaxFoldedElements elements, so large constants are
// never duplicated. A callback returns nullopt for a value it will not fold
// (integer division by zero, an out-of-range cast), which cancels the fold.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_DIALECT_TRACE_IR_CONSTANTFOLDING_H
#define TRACEC_LIB_DIALECT_TRACE_IR_CONSTANTFOLDING_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include <optional>

namespace mlir::trace {

inline constexpr int64_t kMaxFoldedElements = 1024;

/// The number of elements of a static shape, or nullopt when a dim is
/// dynamic or the count overflows int64_t (ShapedType::getNumElements would
/// wrap, e.g. to 0 for 2^32 x 2^32).
inline std::optional<int64_t> getElementCount(llvm::ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (ShapedType::isDynamic(dim) || llvm::MulOverflow(count, dim, count))
      return std::nullopt;
  }
  return count;
}

using FloatUnaryFn =
    llvm::function_ref<std::optional<llvm::APFloat>(const llvm::APFloat &)>;
using IntUnaryFn =
    llvm::function_ref<std::optional<llvm::APInt>(const llvm::APInt &)>;
using FloatBinaryFn = llvm::function_ref<std::optional<llvm::APFloat>(
    const llvm::APFloat &, const llvm::APFloat &)>;
using IntBinaryFn = llvm::function_ref<std::optional<llvm::APInt>(
    const llvm::APInt &, const llvm::APInt &)>;
using FloatCompareFn =
    llvm::function_ref<bool(const llvm::APFloat &, const llvm::APFloat &)>;
using IntCompareFn =
    llvm::function_ref<bool(const llvm::APInt &, const llvm::APInt &)>;

/// For each result element, the linear index of the operand element that
/// NumPy broadcasting maps to it (both shapes static).
llvm::SmallVector<int64_t> broadcastSourceIndices(llvm::ArrayRef<int64_t> result,
                                                  llvm::ArrayRef<int64_t> operand);

/// Evaluates `fn` elementwise over constant operands broadcast to
/// `resultType`. `In` is the operands' element value (APFloat or APInt),
/// `Out` the result's. Null when an operand is not a dense constant, the
/// result is too large, or `fn` declines an element.
template <typename In, typename Out>
Attribute foldElementwise(llvm::ArrayRef<Attribute> operands,
                          RankedTensorType resultType,
                          llvm::function_ref<std::optional<Out>(llvm::ArrayRef<In>)> fn) {
  if (!resultType.hasStaticShape())
    return {};
  llvm::SmallVector<DenseElementsAttr> dense;
  for (Attribute operand : operands) {
    auto attr = llvm::dyn_cast_or_null<DenseElementsAttr>(operand);
    if (!attr)
      return {};
    dense.push_back(attr);
  }
  // An empty result has no element to evaluate (and an empty operand has no
  // splat value to read).
  if (llvm::is_contained(resultType.getShape(), 0))
    return DenseElementsAttr::get(resultType, llvm::ArrayRef<Out>());
  llvm::SmallVector<In, 3> args;
  if (llvm::all_of(dense, [](DenseElementsAttr d) { return d.isSplat(); })) {
    for (DenseElementsAttr d : dense)
      args.push_back(d.getSplatValue<In>());
    std::optional<Out> value = fn(args);
    if (!value)
      return {};
    return DenseElementsAttr::get(resultType, llvm::ArrayRef<Out>(*value));
  }
  std::optional<int64_t> count = getElementCount(resultType.getShape());
  if (!count || *count > kMaxFoldedElements)
    return {};
  llvm::SmallVector<llvm::SmallVector<In>> values;
  llvm::SmallVector<llvm::SmallVector<int64_t>> sources;
  for (DenseElementsAttr d : dense) {
    values.push_back(llvm::to_vector(d.getValues<In>()));
    sources.push_back(broadcastSourceIndices(
        resultType.getShape(), llvm::cast<ShapedType>(d.getType()).getShape()));
  }
  llvm::SmallVector<Out> results;
  for (int64_t i = 0; i < *count; ++i) {
    args.clear();
    for (size_t j = 0; j < values.size(); ++j)
      args.push_back(values[j][sources[j][i]]);
    std::optional<Out> value = fn(args);
    if (!value)
      return {};
    results.push_back(*value);
  }
  return DenseElementsAttr::get(resultType, results);
}

/// Applies `floatFn` or `intFn` (whichever matches the element type; a null
/// one means "does not fold") to every element of a constant `operand`.
Attribute foldUnary(Attribute operand, RankedTensorType resultType,
                    FloatUnaryFn floatFn, IntUnaryFn intFn);

/// Same for two operands, broadcast to `resultType` as NumPy does.
Attribute foldBinary(Attribute lhs, Attribute rhs, RankedTensorType resultType,
                     FloatBinaryFn floatFn, IntBinaryFn intFn);

/// Comparisons: the result is i1.
Attribute foldCompare(Attribute lhs, Attribute rhs, RankedTensorType resultType,
                      FloatCompareFn floatFn, IntCompareFn intFn);

/// Evaluates a double-precision function in `x`'s float semantics.
llvm::APFloat applyInDouble(const llvm::APFloat &x, double (*fn)(double));

/// True when `attr` is a splat constant equal to `value`: bitwise for floats
/// (so +0.0 and -0.0 differ, as they do for folding), by value for
/// integers (where -0.0 matches 0).
bool isSplatValue(Attribute attr, double value);

// Shape ops on small constants (ShapeConstantFolding.cpp): each returns
// null unless its constant operands and the static result have at most
// kMaxFoldedElements elements.

/// `operands` joined along `axis`.
Attribute foldConcat(llvm::ArrayRef<Attribute> operands, int64_t axis,
                     RankedTensorType resultType);
/// The elements at start + i * strides, i over the result's indices.
Attribute foldSlice(Attribute operand, llvm::ArrayRef<int64_t> start,
                    llvm::ArrayRef<int64_t> strides,
                    RankedTensorType resultType);
/// gather, its indices clamped as the op clamps them.
Attribute foldGather(Attribute params, Attribute indices, int64_t axis,
                     RankedTensorType resultType);
/// The product over `axes` of integers (wrapping, as the op does).
Attribute foldIntegerProduct(Attribute operand, llvm::ArrayRef<int64_t> axes,
                             RankedTensorType resultType);

} // namespace mlir::trace

#endif // TRACEC_LIB_DIALECT_TRACE_IR_CONSTANTFOLDING_H
