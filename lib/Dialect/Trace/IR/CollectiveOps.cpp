//===- CollectiveOps.cpp - Verifiers of the collectives ------------------===//

#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::trace;

#include "tracec/Dialect/Trace/IR/ProcessGroupsOpInterface.cpp.inc"

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

/// A reduction a collective can apply to `type`'s elements.
static LogicalResult verifyReduction(Operation *op, StringRef reduction,
                                     RankedTensorType type) {
  if (!llvm::is_contained({"sum", "mean", "max", "min"}, reduction))
    return op->emitOpError("reduction must be sum, mean, max or min, got '")
           << reduction << "'";
  if (reduction == "mean" && !isa<FloatType>(type.getElementType()))
    return op->emitOpError("mean needs float elements, got ")
           << type.getElementType();
  return success();
}

/// `whole` is `part` with `axis` `worldSize` times as long: what
/// all_gather makes of its operand and reduce_scatter of its result.
static LogicalResult verifyTiling(Operation *op, RankedTensorType part,
                                  RankedTensorType whole, int64_t axis,
                                  int64_t worldSize) {
  if (failed(verifyCollectiveOperand(op, part)) ||
      failed(verifyCollectiveOperand(op, whole)))
    return failure();
  if (worldSize < 1)
    return op->emitOpError("world_size must be at least 1, got ") << worldSize;
  if (axis < 0 || axis >= part.getRank())
    return op->emitOpError("axis ")
           << axis << " is out of range for " << part.getRank() << "-d tensors";
  SmallVector<int64_t> shape(part.getShape());
  std::optional<int64_t> tiled = llvm::checkedMul(shape[axis], worldSize);
  if (!tiled)
    return op->emitOpError("dim ")
           << axis << " of " << part << " times world_size " << worldSize
           << " overflows";
  shape[axis] = *tiled;
  if (whole.getShape() != ArrayRef<int64_t>(shape) ||
      whole.getElementType() != part.getElementType())
    return op->emitOpError("tiles ")
           << part << " over " << worldSize << " processes along axis " << axis
           << " into " << whole << "; expected "
           << RankedTensorType::get(shape, part.getElementType());
  return success();
}

LogicalResult
ProcessGroupsOpInterface::verifyGroups(Operation *op,
                                       DenseIntElementsAttr groups) {
  if (!groups)
    return success();
  auto type = cast<ShapedType>(groups.getType());
  if (type.getRank() != 2 || type.getNumElements() == 0)
    return op->emitOpError("groups must be a non-empty 2-d array of ranks "
                           "(a row per group), got ")
           << type;
  int64_t world = type.getNumElements();
  llvm::SmallVector<bool> seen(world, false);
  for (APInt value : groups.getValues<APInt>()) {
    int64_t rank = value.getSExtValue();
    if (rank < 0 || rank >= world)
      return op->emitOpError("groups must hold the ranks 0 ... ")
             << world - 1 << " of a world of " << world
             << " processes, got rank " << rank;
    if (seen[rank])
      return op->emitOpError("groups name rank ") << rank << " twice";
    seen[rank] = true;
  }
  return success();
}

/// With groups, a tiling collective's `world_size` is the length of a row.
static LogicalResult verifyTiledGroups(ProcessGroupsOpInterface op,
                                       int64_t worldSize) {
  int64_t groupSize = op.getGroupSize();
  if (groupSize && groupSize != worldSize)
    return op->emitOpError("world_size ")
           << worldSize << " must be the length of a row of groups, "
           << groupSize;
  return success();
}

LogicalResult AllReduceOp::verify() {
  if (failed(verifyReduction(*this, getReduction(), getX().getType())))
    return failure();
  return verifyCollectiveOperand(*this, getX().getType());
}

LogicalResult AllGatherOp::verify() {
  if (failed(verifyTiledGroups(*this, getWorldSizeAttr().getInt())))
    return failure();
  return verifyTiling(*this, getX().getType(), getResult().getType(),
                      getAxisAttr().getInt(), getWorldSizeAttr().getInt());
}

LogicalResult ReduceScatterOp::verify() {
  RankedTensorType type = getX().getType();
  if (failed(verifyReduction(*this, getReduction(), type)))
    return failure();
  if (failed(verifyCollectiveOperand(*this, type)))
    return failure();
  int64_t axis = getAxisAttr().getInt();
  int64_t worldSize = getWorldSizeAttr().getInt();
  if (failed(verifyTiledGroups(*this, worldSize)))
    return failure();
  if (worldSize >= 1 && axis >= 0 && axis < type.getRank() &&
      type.getDimSize(axis) % worldSize != 0)
    return emitOpError("axis ")
           << axis << " of " << type << " does not split into " << worldSize
           << " equal slices";
  return verifyTiling(*this, getResult().getType(), type, axis, worldSize);
}

LogicalResult BroadcastOp::verify() {
  // (getRoot() reads an I64Attr as unsigned.)
  int64_t root = getRootAttr().getInt();
  if (root < 0)
    return emitOpError("root must be a rank (>= 0), got ") << root;
  if (int64_t groupSize = getGroupSize(); groupSize && root >= groupSize)
    return emitOpError("root ")
           << root << " is not a position in a group of " << groupSize;
  return verifyCollectiveOperand(*this, getX().getType());
}

Value AllReduceOp::sumIdentity(OpBuilder &builder, Location loc,
                               RankedTensorType type) {
  TypedAttr zero = builder.getZeroAttr(type.getElementType());
  if (auto floatType = dyn_cast<FloatType>(type.getElementType()))
    zero = FloatAttr::get(floatType,
                          APFloat::getZero(floatType.getFloatSemantics(),
                                           /*Negative=*/true));
  return ConstantOp::create(builder, loc, DenseElementsAttr::get(type, zero));
}

Value BroadcastOp::onRootOnly(OpBuilder &builder, Location loc, Value value,
                              int64_t root, DenseIntElementsAttr groups) {
  auto rankType = RankedTensorType::get({}, builder.getI32Type());
  Value rank = CommRankOp::create(builder, loc, rankType, groups);
  Value rootRank = ConstantOp::create(
      builder, loc,
      DenseElementsAttr::get(rankType, builder.getI32IntegerAttr(root)));
  Value zeros = AllReduceOp::sumIdentity(
      builder, loc, cast<RankedTensorType>(value.getType()));
  // A select, not a product with a 0/1 mask: a non-root's inf or NaN
  // stays out of the sum.
  return SelectOp::create(
      builder, loc, EqOp::create(builder, loc, rank, rootRank), value, zeros);
}
