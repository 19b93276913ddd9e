//===- RegionTokens.cpp - Control tokens out of scf ops -------------------===//
//
// trace-auto-control-deps makes scf.if/for/while carry control tokens (token
// results, loop-carried tokens, token operands of their yields) and joins
// tokens with trace.group. Once program order carries the order, they go:
// the scf ops are rebuilt without their token operands, results, block
// arguments and yield operands, and the groups are dropped from the `after`
// lists that use them.
//
//===----------------------------------------------------------------------===//

#include "StateLowerings.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

bool isToken(Value value) { return isa<ControlType>(value.getType()); }

/// A token that waits for nothing, standing in for `value` until the tokens
/// are erased.
void replaceByPlaceholder(OpBuilder &builder, Value value) {
  if (value.use_empty())
    return;
  value.replaceAllUsesWith(GroupOp::create(builder, value.getLoc(),
                                           value.getType(), ValueRange{}));
}

/// `op` rebuilt without its token operands and results; its regions lose
/// their token arguments and their terminators their token operands (which
/// pair up with the op's, so what remains still matches).
void stripTokens(Operation *op) {
  OpBuilder builder(op);
  OperationState state(op->getLoc(), op->getName());
  state.addOperands(llvm::to_vector(
      llvm::make_filter_range(op->getOperands(), [](Value v) {
        return !isToken(v);
      })));
  for (Value result : op->getResults())
    if (!isToken(result))
      state.addTypes(result.getType());
  state.propertiesAttr = op->getPropertiesAsAttribute();
  state.addAttributes(llvm::to_vector(op->getDiscardableAttrs()));
  for (unsigned i = 0; i < op->getNumRegions(); ++i)
    state.addRegion();
  Operation *newOp = builder.create(state);

  for (auto [from, to] : llvm::zip(op->getRegions(), newOp->getRegions())) {
    to.takeBody(from);
    for (Block &block : to) {
      OpBuilder atStart = OpBuilder::atBlockBegin(&block);
      for (BlockArgument arg : llvm::reverse(block.getArguments())) {
        if (!isToken(arg))
          continue;
        replaceByPlaceholder(atStart, arg);
        block.eraseArgument(arg.getArgNumber());
      }
      Operation *terminator = block.getTerminator();
      for (OpOperand &operand : llvm::reverse(terminator->getOpOperands()))
        if (isToken(operand.get()))
          terminator->eraseOperand(operand.getOperandNumber());
    }
  }

  auto newResults = newOp->getResults().begin();
  for (Value result : op->getResults()) {
    if (isToken(result))
      replaceByPlaceholder(builder, result);
    else
      result.replaceAllUsesWith(*newResults++);
  }
  op->erase();
}

} // namespace

void mlir::trace::stripRegionTokens(func::FuncOp func) {
  // Innermost first: an outer op's terminator may yield an inner op's token.
  SmallVector<Operation *> carriers;
  func.walk([&](Operation *op) {
    if (op->getNumRegions() && (llvm::any_of(op->getOperands(), isToken) ||
                                llvm::any_of(op->getResults(), isToken)))
      carriers.push_back(op);
  });
  for (Operation *op : carriers)
    stripTokens(op);

  // Groups (the joins, and the placeholders above) leave the `after` lists
  // of the stateful ops, identities and groups that use them.
  SmallVector<GroupOp> groups;
  func.walk([&](GroupOp group) { groups.push_back(group); });
  for (GroupOp group : groups) {
    for (OpOperand &use : llvm::make_early_inc_range(group->getUses())) {
      Operation *user = use.getOwner();
      if (isa<IdentityOp, GroupOp>(user) ||
          llvm::any_of(user->getResults(), isToken))
        user->eraseOperand(use.getOperandNumber());
    }
    if (group->use_empty())
      group->erase();
  }
}
