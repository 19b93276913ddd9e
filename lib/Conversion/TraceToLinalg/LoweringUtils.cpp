//===- LoweringUtils.cpp - Small builders the lowerings share -------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

Value mlir::trace::filledTensor(OpBuilder &builder, Location loc,
                                ArrayRef<int64_t> shape, TypedAttr value) {
  Value empty = tensor::EmptyOp::create(builder, loc, shape, value.getType());
  Value scalar = arith::ConstantOp::create(builder, loc, value);
  return linalg::FillOp::create(builder, loc, scalar, empty).getResult(0);
}

Value mlir::trace::dimSize(OpBuilder &builder, Location loc, Value value,
                           int64_t d) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.isDynamicDim(d))
    return arith::ConstantIndexOp::create(builder, loc, type.getDimSize(d));
  return tensor::DimOp::create(builder, loc, value, d);
}

SmallVector<Value> mlir::trace::dynamicSizes(OpBuilder &builder, Location loc,
                                             Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      sizes.push_back(tensor::DimOp::create(builder, loc, value, d));
  return sizes;
}

Value mlir::trace::filledTensor(OpBuilder &builder, Location loc,
                                ArrayRef<int64_t> shape, ValueRange dynamic,
                                TypedAttr value) {
  Value empty =
      tensor::EmptyOp::create(builder, loc, shape, value.getType(), dynamic);
  Value scalar = arith::ConstantOp::create(builder, loc, value);
  return linalg::FillOp::create(builder, loc, scalar, empty).getResult(0);
}

void mlir::trace::checkSameSize(OpBuilder &builder, Location loc, Operation *op,
                                Value lhs, Value rhs, const llvm::Twine &what) {
  if (lhs == rhs || (getConstantIntValue(lhs) && getConstantIntValue(rhs)))
    return;
  Value same =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, lhs, rhs);
  checkAtRunTime(builder, loc, op, same, what);
}

void mlir::trace::checkAtRunTime(OpBuilder &builder, Location loc,
                                 Operation *op, Value holds,
                                 const llvm::Twine &what) {
  std::string where;
  llvm::raw_string_ostream os(where);
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn() << ": ";
  os << "'" << op->getName() << "': " << what;
  cf::AssertOp::create(builder, loc, holds, where);
}

LogicalResult mlir::trace::checkLoopSizes(OpBuilder &builder, Location loc,
                                          Operation *op, ValueRange operands,
                                          ArrayRef<AffineMap> maps,
                                          unsigned numLoops) {
  MLIRContext *context = builder.getContext();
  for (unsigned loop = 0; loop < numLoops; ++loop)
    if (llvm::none_of(maps, [&](AffineMap map) {
          return map.getResultPosition(getAffineDimExpr(loop, context));
        }))
      return failure();
  for (unsigned loop = 0; loop < numLoops; ++loop) {
    Value reference;
    int64_t referenceOperand = 0, referenceDim = 0;
    for (auto [i, map] : llvm::enumerate(maps)) {
      std::optional<unsigned> position =
          map.getResultPosition(getAffineDimExpr(loop, context));
      if (!position)
        continue;
      Value size = dimSize(builder, loc, operands[i], *position);
      if (!reference) {
        reference = size;
        referenceOperand = i;
        referenceDim = *position;
        continue;
      }
      checkSameSize(builder, loc, op, reference, size,
                    "dim " + Twine(referenceDim) + " of operand " +
                        Twine(referenceOperand) + " and dim " +
                        Twine(*position) + " of operand " + Twine(i) +
                        " differ");
      // A static size is the better reference (a constant).
      if (getConstantIntValue(size) && !getConstantIntValue(reference)) {
        reference = size;
        referenceOperand = i;
        referenceDim = *position;
      }
    }
  }
  return success();
}

SmallVector<Value> mlir::trace::dynamicSizesOf(RankedTensorType type,
                                               ArrayRef<Value> sizes,
                                               ArrayRef<unsigned> dims) {
  SmallVector<Value> dynamic;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      dynamic.push_back(sizes[dims[d]]);
  return dynamic;
}

/// `value` (an f64 attribute) as an attribute of `element`: rounded to the
/// nearest float, truncated toward zero (saturating, NaN -> 0) for integers,
/// non-zero for i1.
TypedAttr mlir::trace::scalarAttr(Builder &b, Type element,
                                  llvm::APFloat value) {
  if (auto floatType = dyn_cast<FloatType>(element)) {
    bool losesInfo = false;
    value.convert(floatType.getFloatSemantics(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    return b.getFloatAttr(element, value);
  }
  unsigned width = element.getIntOrFloatBitWidth();
  if (width == 1)
    return b.getBoolAttr(!value.isZero());
  llvm::APSInt result(width, /*isUnsigned=*/false);
  bool isExact = false;
  value.convertToInteger(result, llvm::APFloat::rmTowardZero, &isExact);
  if (value.isNaN())
    result = 0;
  return b.getIntegerAttr(element, result);
}

Value mlir::trace::emptyLike(OpBuilder &b, Location loc,
                             RankedTensorType type, ValueRange dynamic) {
  return tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType(),
                                 dynamic);
}

SmallVector<utils::IteratorType> mlir::trace::parallel(int64_t rank) {
  return SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel);
}

Type mlir::trace::accumulatorType(Type element) {
  if (element.isF16() || element.isBF16())
    return Float32Type::get(element.getContext());
  return element;
}

Value mlir::trace::roundTo(OpBuilder &builder, Location loc, Value x,
                           Type element) {
  auto type = cast<RankedTensorType>(x.getType());
  Value out = emptyLike(builder, loc, type.clone(element),
                        dynamicSizes(builder, loc, x));
  SmallVector<AffineMap> maps(2,
                              builder.getMultiDimIdentityMap(type.getRank()));
  return linalg::GenericOp::create(
             builder, loc, TypeRange{out.getType()}, ValueRange{x},
             ValueRange{out}, maps, parallel(type.getRank()),
             [&](OpBuilder &b, Location l, ValueRange args) {
               linalg::YieldOp::create(
                   b, l,
                   arith::TruncFOp::create(b, l, element, args[0]).getResult());
             })
      .getResult(0);
}
