//===- RegionGradients.cpp - Helpers of the rules of region ops -----------===//

#include "RegionGradients.h"

#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

#include <functional>

using namespace mlir;
using namespace mlir::trace;

// The contracts are in RegionGradients.h.

SmallVector<Value> mlir::trace::activeCaptures(Operation *op,
                                               AdjointState &state) {
  llvm::SetVector<Value> captured;
  op->walk([&](Operation *nested) {
    // The op's own operands (a loop's initial values) get their cotangents
    // from the rule itself.
    if (nested == op)
      return;
    for (Value operand : nested->getOperands()) {
      Region *defRegion = operand.getParentRegion();
      if (!op->isProperAncestor(defRegion->getParentOp()) &&
          defRegion->getParentOp() != op && state.isActive(operand) &&
          carriesGradient(operand.getType()))
        captured.insert(operand);
    }
  });
  return captured.takeVector();
}

Operation *mlir::trace::findStatefulOp(Operation *op) {
  DenseSet<Operation *> visitedCallees;
  std::function<Operation *(Operation *)> find = [&](Operation *root) {
    Operation *found = nullptr;
    root->walk([&](Operation *nested) {
      if (nested == root)
        return WalkResult::advance();
      if (llvm::any_of(nested->getResultTypes(), llvm::IsaPred<ControlType>)) {
        found = nested;
        return WalkResult::interrupt();
      }
      if (auto call = dyn_cast<func::CallOp>(nested)) {
        auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
            call, call.getCalleeAttr());
        if (callee && visitedCallees.insert(callee).second && find(callee)) {
          found = nested;
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    return found;
  };
  return find(op);
}

LogicalResult mlir::trace::checkReplayable(Operation *op) {
  Operation *stateful = findStatefulOp(op);
  if (!stateful)
    return success();
  InFlightDiagnostic diag =
      op->emitOpError("cannot be differentiated: its body touches state "
                      "(variables, print, random), and the backward pass "
                      "would run the body again; move the stateful op out "
                      "of the region");
  diag.attachNote(stateful->getLoc()) << "stateful op here";
  return diag;
}

RankedTensorType mlir::trace::tapeType(Type carried) {
  if (auto tensor = dyn_cast<RankedTensorType>(carried)) {
    SmallVector<int64_t> shape = {ShapedType::kDynamic};
    llvm::append_range(shape, tensor.getShape());
    return RankedTensorType::get(shape, tensor.getElementType());
  }
  return RankedTensorType::get({ShapedType::kDynamic}, carried);
}

OpFoldResult mlir::trace::dimOf(OpBuilder &b, Location loc, Value value,
                                int64_t d) {
  auto tensor = cast<RankedTensorType>(value.getType());
  if (!tensor.isDynamicDim(d))
    return b.getIndexAttr(tensor.getDimSize(d));
  return tensor::DimOp::create(b, loc, value, d).getResult();
}

Value mlir::trace::record(OpBuilder &b, Location loc, Value tape, Value row,
                          Value value, StringRef what) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  if (!tensor)
    return tensor::InsertOp::create(b, loc, value, tape, row);
  int64_t rank = tensor.getRank();
  SmallVector<OpFoldResult> offsets = {row}, sizes = {b.getIndexAttr(1)},
                            strides(rank + 1, b.getIndexAttr(1));
  for (int64_t d = 0; d < rank; ++d) {
    offsets.push_back(b.getIndexAttr(0));
    OpFoldResult size = dimOf(b, loc, value, d);
    if (tensor.isDynamicDim(d)) {
      Value same = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq, cast<Value>(size),
          tensor::DimOp::create(b, loc, tape, d + 1));
      cf::AssertOp::create(
          b, loc, same,
          (what + ": a dynamic dim of a carried value changed size between "
                  "iterations")
              .str());
    }
    sizes.push_back(size);
  }
  return tensor::InsertSliceOp::create(b, loc, value, tape, offsets, sizes,
                                       strides);
}

Value mlir::trace::replay(OpBuilder &b, Location loc, Value tape, Value row,
                          Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return tensor::ExtractOp::create(b, loc, tape, row);
  int64_t rank = tensor.getRank();
  SmallVector<OpFoldResult> offsets = {row}, sizes = {b.getIndexAttr(1)},
                            strides(rank + 1, b.getIndexAttr(1));
  for (int64_t d = 0; d < rank; ++d) {
    offsets.push_back(b.getIndexAttr(0));
    sizes.push_back(dimOf(b, loc, tape, d + 1));
  }
  // Rank-reducing: drop the unit tape dim.
  return tensor::ExtractSliceOp::create(b, loc, tensor, tape, offsets, sizes,
                                        strides);
}

bool mlir::trace::isWriteOnly(BlockArgument carried, Operation *loop) {
  if (!isa<RankedTensorType>(carried.getType()))
    return false;
  // Follow the value and everything its contents go into; fail at the
  // first op that reads them.
  SmallVector<Value> worklist = {carried};
  DenseSet<Value> seen = {carried};
  auto follow = [&](Value value) {
    if (seen.insert(value).second)
      worklist.push_back(value);
  };
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      unsigned n = use.getOperandNumber();
      if (isa<tensor::DimOp>(user))
        continue;
      if (isa<tensor::InsertSliceOp, tensor::InsertOp, tensor::CastOp>(user)) {
        follow(user->getResult(0));
        continue;
      }
      if (isa<scf::YieldOp>(user)) {
        // `loop`'s next iteration: that carried value is taped on its own.
        Operation *parent = user->getParentOp();
        if (parent == loop)
          continue;
        if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
          follow(forOp.getRegionIterArgs()[n]);
          follow(forOp.getResult(n));
        } else if (auto whileOp = dyn_cast<scf::WhileOp>(parent)) {
          follow(whileOp.getBeforeArguments()[n]);
        } else if (auto ifOp = dyn_cast<scf::IfOp>(parent)) {
          follow(ifOp.getResult(n));
        } else {
          return false;
        }
        continue;
      }
      if (auto condition = dyn_cast<scf::ConditionOp>(user)) {
        if (n == 0)
          return false;
        auto whileOp = cast<scf::WhileOp>(condition->getParentOp());
        follow(whileOp.getAfterArguments()[n - 1]);
        // `loop`'s results are not swept by its own rule.
        if (whileOp != loop)
          follow(whileOp.getResult(n - 1));
        continue;
      }
      if (auto forOp = dyn_cast<scf::ForOp>(user)) {
        if (n < forOp.getNumControlOperands())
          return false;
        unsigned k = n - forOp.getNumControlOperands();
        follow(forOp.getRegionIterArgs()[k]);
        follow(forOp.getResult(k));
        continue;
      }
      if (auto whileOp = dyn_cast<scf::WhileOp>(user)) {
        follow(whileOp.getBeforeArguments()[n]);
        continue;
      }
      return false;
    }
  }
  return true;
}

Type mlir::trace::tapedType(Type carried, bool writeOnly) {
  if (!writeOnly)
    return carried;
  // At least one entry: a static shape's row would have no elements, and
  // a slice at offset 0 of an empty dim does not verify.
  auto tensor = cast<RankedTensorType>(carried);
  int64_t entries = std::max<int64_t>(1, tensor.getNumDynamicDims());
  return RankedTensorType::get({entries}, IndexType::get(carried.getContext()));
}

Value mlir::trace::tapedValue(OpBuilder &b, Location loc, Value carried,
                              bool writeOnly) {
  if (!writeOnly)
    return carried;
  auto tensor = cast<RankedTensorType>(carried.getType());
  auto type = cast<RankedTensorType>(tapedType(tensor, true));
  if (tensor.hasStaticShape())
    return tensor::FromElementsOp::create(
        b, loc, type, ValueRange{arith::ConstantIndexOp::create(b, loc, 0)});
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < tensor.getRank(); ++d)
    if (tensor.isDynamicDim(d))
      sizes.push_back(tensor::DimOp::create(b, loc, carried, d));
  return tensor::FromElementsOp::create(b, loc, type, sizes);
}

Value mlir::trace::untaped(OpBuilder &b, Location loc, Value recorded,
                           Type type, bool writeOnly) {
  if (!writeOnly)
    return recorded;
  auto tensor = cast<RankedTensorType>(type);
  SmallVector<Value> sizes;
  for (int64_t i = 0, e = tensor.getNumDynamicDims(); i < e; ++i)
    sizes.push_back(tensor::ExtractOp::create(
        b, loc, recorded, ValueRange{arith::ConstantIndexOp::create(b, loc, i)}));
  return tensor::EmptyOp::create(b, loc, tensor, sizes);
}

/// Zeros as zerosLike builds them: a splat constant, or a zero broadcast.
static bool isZeros(Value value) {
  if (auto broadcast = value.getDefiningOp<BroadcastToOp>())
    value = broadcast.getX();
  return matchPattern(value, m_AnyZeroFloat());
}

Value mlir::trace::addCotangent(OpBuilder &b, Location loc, Value sum,
                                Value cotangent) {
  if (sum.getType() == cotangent.getType() && isZeros(cotangent))
    return sum;
  auto slice = cotangent.getDefiningOp<tensor::InsertSliceOp>();
  if (!slice || !isZeros(slice.getDest()) ||
      sum.getType() != cotangent.getType())
    return AddOp::create(b, loc, sum, cotangent);
  SmallVector<OpFoldResult> offsets = slice.getMixedOffsets(),
                            sizes = slice.getMixedSizes(),
                            strides = slice.getMixedStrides();
  Value old = tensor::ExtractSliceOp::create(b, loc, slice.getSourceType(), sum,
                                             offsets, sizes, strides);
  Value added = AddOp::create(b, loc, old, slice.getSource());
  return tensor::InsertSliceOp::create(b, loc, added, sum, offsets, sizes,
                                       strides);
}
