//===- StateOps.cpp - variables and ordering ------------------------------===//

#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;
using namespace mlir::trace;

LogicalResult VarReadOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  auto resource = dyn_cast<ResourceType>(adaptor.getResource().getType());
  if (!resource)
    return emitOptionalError(loc, "'trace.var.read' op operand must be a !trace.resource, got ",
                             adaptor.getResource().getType());
  types.push_back(resource.getValueType());
  types.push_back(ControlType::get(context));
  return success();
}

LogicalResult IdentityOp::reifyResultShapes(OpBuilder &b,
                                            ReifiedRankedShapedTypeDims &shapes) {
  return reifySameShapeResult(b, *this, shapes, getX());
}

OpFoldResult IdentityOp::fold(FoldAdaptor) {
  // Without control tokens there is nothing to wait for.
  if (getAfter().empty())
    return getX();
  return {};
}

OpFoldResult GroupOp::fold(FoldAdaptor) {
  // A group of one token is that token.
  if (getTokens().size() == 1)
    return getTokens().front();
  return {};
}
