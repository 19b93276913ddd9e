//===- StateOps.cpp - variables and ordering ------------------------------===//

#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/IR/PatternMatch.h"

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

namespace {

/// `after(%t)` with `%t = trace.group()`, a token available at once, waits
/// for nothing: drop the operand. A trace op's control tokens are its
/// trailing `after(...)` operands, so the op stays valid without one.
struct DropTokensAvailableAtOnce : RewritePattern {
  explicit DropTokensAvailableAtOnce(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa_and_nonnull<TraceDialect>(op->getDialect()) ||
        op->hasTrait<OpTrait::AttrSizedOperandSegments>())
      return failure();
    BitVector unneeded(op->getNumOperands());
    for (OpOperand &operand : op->getOpOperands())
      if (auto group = operand.get().getDefiningOp<GroupOp>();
          group && group.getTokens().empty())
        unneeded.set(operand.getOperandNumber());
    if (unneeded.none())
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op->eraseOperands(unneeded); });
    return success();
  }
};

} // namespace

void TraceDialect::getCanonicalizationPatterns(
    RewritePatternSet &results) const {
  results.add<DropTokensAvailableAtOnce>(getContext());
}
