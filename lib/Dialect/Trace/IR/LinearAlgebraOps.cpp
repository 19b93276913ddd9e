//===- LinearAlgebraOps.cpp - matmul --------------------------------------===//

#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::trace;

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  auto lhs = dyn_cast<RankedTensorType>(adaptor.getLhs().getType());
  auto rhs = dyn_cast<RankedTensorType>(adaptor.getRhs().getType());
  if (!lhs || !rhs)
    return emitOptionalError(loc, "'trace.matmul' op operands must be ranked tensors");
  if (lhs.getRank() < 2 || rhs.getRank() < 2)
    return emitOptionalError(loc, "'trace.matmul' op operands must be at least 2-D: lhs ",
                             formatShape(lhs.getShape()), ", rhs ",
                             formatShape(rhs.getShape()));
  if (lhs.getElementType() != rhs.getElementType())
    return emitOptionalError(loc, "'trace.matmul' op operand element types differ: lhs ",
                             lhs.getElementType(), " vs rhs ",
                             rhs.getElementType());
  ArrayRef<int64_t> l = lhs.getShape(), r = rhs.getShape();
  int64_t lr = l.size(), rr = r.size();
  bool ta = adaptor.getTransposeA(), tb = adaptor.getTransposeB();
  int64_t m = ta ? l[lr - 1] : l[lr - 2];
  int64_t kl = ta ? l[lr - 2] : l[lr - 1];
  int64_t kr = tb ? r[rr - 1] : r[rr - 2];
  int64_t n = tb ? r[rr - 2] : r[rr - 1];
  if (!ShapedType::isDynamic(kl) && !ShapedType::isDynamic(kr) && kl != kr)
    return emitOptionalError(loc, "'trace.matmul' op contraction dims differ: lhs ", kl,
                             " vs rhs ", kr);
  auto batch = broadcastShapes(l.drop_back(2), r.drop_back(2));
  if (!batch)
    return emitOptionalError(
        loc, "'trace.matmul' op batch dims are not broadcast-compatible: lhs ",
        formatShape(l.drop_back(2)), " vs rhs ", formatShape(r.drop_back(2)),
        " (",
        describeBroadcastMismatch(l.drop_back(2), "lhs", r.drop_back(2), "rhs"),
        "; only a static 1 broadcasts)");
  SmallVector<int64_t> shape = *batch;
  shape.push_back(m);
  shape.push_back(n);
  types.push_back(RankedTensorType::get(shape, lhs.getElementType()));
  return success();
}

LogicalResult MatmulOp::reifyResultShapes(OpBuilder &b,
                                          ReifiedRankedShapedTypeDims &shapes) {
  Location loc = getLoc();
  RankedTensorType type = getType();
  auto lhs = cast<RankedTensorType>(getLhs().getType());
  auto rhs = cast<RankedTensorType>(getRhs().getType());
  // The batch dims broadcast; then M from lhs and N from rhs.
  SmallVector<OpFoldResult> sizes = reifyBroadcastSizes(
      b, loc, {getLhs(), getRhs()}, type, /*trailing=*/2);
  sizes.push_back(tensor::getMixedSize(b, loc, getLhs(),
                                       lhs.getRank() - (getTransposeA() ? 1 : 2)));
  sizes.push_back(tensor::getMixedSize(b, loc, getRhs(),
                                       rhs.getRank() - (getTransposeB() ? 2 : 1)));
  return reifiedAs(b, getResult(), sizes, shapes);
}
