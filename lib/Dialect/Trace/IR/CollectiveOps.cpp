//===- CollectiveOps.cpp - all_reduce and broadcast -----------------------===//

#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;
using namespace mlir::trace;

/// The operand types the `mpi` lowering has a datatype for.
static LogicalResult verifyCollectiveOperand(Operation *op,
                                             RankedTensorType type) {
  Type element = type.getElementType();
  if (!element.isF32() && !element.isF64() && !element.isInteger(32) &&
      !element.isInteger(64))
    return op->emitOpError("elements must be f32, f64, i32 or i64, got ")
           << element;
  if (!type.hasStaticShape())
    return op->emitOpError("needs a static shape, got ") << type;
  return success();
}

LogicalResult AllReduceOp::verify() {
  StringRef reduction = getReduction();
  if (!llvm::is_contained({"sum", "mean", "max", "min"}, reduction))
    return emitOpError("reduction must be sum, mean, max or min, got '")
           << reduction << "'";
  RankedTensorType type = getX().getType();
  if (failed(verifyCollectiveOperand(*this, type)))
    return failure();
  if (reduction == "mean" && !isa<FloatType>(type.getElementType()))
    return emitOpError("mean needs float elements, got ")
           << type.getElementType();
  return success();
}

LogicalResult BroadcastOp::verify() {
  // (getRoot() reads an I64Attr as unsigned.)
  int64_t root = getRootAttr().getInt();
  if (root < 0)
    return emitOpError("root must be a rank (>= 0), got ") << root;
  return verifyCollectiveOperand(*this, getX().getType());
}

Value BroadcastOp::onRootOnly(OpBuilder &builder, Location loc, Value value,
                              int64_t root) {
  auto rankType = RankedTensorType::get({}, builder.getI32Type());
  Value rank = CommRankOp::create(builder, loc, rankType);
  Value rootRank = ConstantOp::create(
      builder, loc,
      DenseElementsAttr::get(rankType, builder.getI32IntegerAttr(root)));
  auto type = cast<RankedTensorType>(value.getType());
  Value zeros = ConstantOp::create(
      builder, loc,
      DenseElementsAttr::get(type, builder.getZeroAttr(type.getElementType())));
  // A select, not a product with a 0/1 mask: a non-root's inf or NaN
  // stays out of the sum.
  return SelectOp::create(
      builder, loc, EqOp::create(builder, loc, rank, rootRank), value, zeros);
}
