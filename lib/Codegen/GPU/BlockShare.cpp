//===- BlockShare.cpp - A linalg op's iterations shared by a block --------===//

#include "BlockShare.h"

#include "AffineMapValues.h"
#include "FoldedIndexMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::trace;

static std::optional<Combiner> matchCombiner(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  BlockArgument out = body.getArguments().back();
  Operation *combine = body.getTerminator()->getOperand(0).getDefiningOp();
  if (!combine || combine->getBlock() != &body || !out.hasOneUse() ||
      combine->getNumOperands() != 2 ||
      !llvm::is_contained(combine->getOperands(), Value(out)))
    return std::nullopt;
  using Kind = gpu::AllReduceOperation;
  std::optional<Kind> kind =
      llvm::TypeSwitch<Operation *, std::optional<Kind>>(combine)
          .Case([](arith::AddFOp) { return Kind::ADD; })
          .Case([](arith::MulFOp) { return Kind::MUL; })
          .Case([](arith::MaxNumFOp) { return Kind::MAXNUMF; })
          .Case([](arith::MinNumFOp) { return Kind::MINNUMF; })
          .Case([](arith::MaximumFOp) { return Kind::MAXIMUMF; })
          .Case([](arith::MinimumFOp) { return Kind::MINIMUMF; })
          .Case([](arith::AddIOp) { return Kind::ADD; })
          .Case([](arith::MulIOp) { return Kind::MUL; })
          .Case([](arith::MaxSIOp) { return Kind::MAXSI; })
          .Case([](arith::MinSIOp) { return Kind::MINSI; })
          .Case([](arith::OrIOp) { return Kind::OR; })
          .Case([](arith::AndIOp) { return Kind::AND; })
          .Case([](arith::XOrIOp) { return Kind::XOR; })
          .Default([](Operation *) { return std::nullopt; });
  // The identity of the combining op (upstream's table).
  std::optional<TypedAttr> identity = arith::getNeutralElement(combine);
  if (!kind || !identity)
    return std::nullopt;
  return Combiner{combine, *kind, *identity};
}

std::optional<Combiner> mlir::trace::matchBlockReduction(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0 ||
      (linalg::isaContractionOpInterface(op) &&
       op.getNumParallelLoops() >= 2) ||
      linalg::isaConvolutionOpInterface(op))
    return std::nullopt;
  Type type = op.getRegion().front().getArguments().back().getType();
  if (!type.isF32() && !type.isInteger(32))
    return std::nullopt;
  return matchCombiner(op);
}

LogicalResult mlir::trace::checkBlockThreads(Operation *op, StringRef pass,
                                             int64_t threads) {
  if (threads >= 32 && threads <= 1024 && llvm::isPowerOf2_64(threads))
    return success();
  return op->emitError()
         << pass << ": threads must be a power of two from 32 to 1024, got "
         << threads;
}

void mlir::trace::generalizeReductions(Operation *root) {
  IRRewriter rewriter(root->getContext());
  SmallVector<linalg::ReduceOp> named;
  root->walk([&](linalg::ReduceOp op) { named.push_back(op); });
  for (linalg::ReduceOp op : named) {
    rewriter.setInsertionPoint(op);
    (void)linalg::generalizeNamedOp(rewriter, op);
  }
}

SmallVector<OpFoldResult> mlir::trace::loopExtents(OpBuilder &b,
                                                   linalg::GenericOp op) {
  SmallVector<OpFoldResult> extents;
  for (Range range : cast<linalg::LinalgOp>(op.getOperation())
                         .createLoopRanges(b, op.getLoc()))
    extents.push_back(range.size);
  return extents;
}

int64_t mlir::trace::blockThreads(std::optional<int64_t> length,
                                  int64_t maxThreads) {
  if (!length)
    return maxThreads;
  return std::min<int64_t>(maxThreads,
                           std::max<int64_t>(32, llvm::PowerOf2Ceil(*length)));
}

SmallVector<Value> mlir::trace::delinearize(OpBuilder &b, Location loc,
                                            Value linear,
                                            ArrayRef<OpFoldResult> extents) {
  SmallVector<Value> indices(extents.size());
  for (int64_t d = extents.size() - 1; d >= 0; --d) {
    Value extent = materialize(b, loc, extents[d]);
    indices[d] = arith::RemUIOp::create(b, loc, linear, extent);
    linear = arith::DivUIOp::create(b, loc, linear, extent);
  }
  return indices;
}

void mlir::trace::emitBlockShare(OpBuilder &b, Location loc,
                                 linalg::GenericOp op,
                                 ArrayRef<OpFoldResult> extents,
                                 ArrayRef<Value> fixed, Value thread,
                                 int64_t threads,
                                 const std::optional<Combiner> &combiner) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  SmallVector<Value> ivs(fixed);
  SmallVector<unsigned> freeDims;
  SmallVector<OpFoldResult> freeExtents;
  for (auto [d, iv] : llvm::enumerate(fixed))
    if (!iv) {
      freeDims.push_back(d);
      freeExtents.push_back(extents[d]);
    }
  Block &body = op.getRegion().front();
  BlockArgument out = body.getArguments().back();
  SmallVector<Value> accumulator;
  if (combiner)
    accumulator.push_back(
        arith::ConstantOp::create(b, loc, combiner->identity));

  // This thread's iterations: thread, thread + T, ... of the free dims'
  // row-major space.
  auto loop = scf::ForOp::create(
      b, loc, thread, materialize(b, loc, foldedProduct(b, loc, freeExtents)),
      constant(threads), accumulator);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    for (auto [d, index] :
         llvm::zip(freeDims,
                   delinearize(b, loc, loop.getInductionVar(), freeExtents)))
      ivs[d] = index;
    auto indicesOf = [&](OpOperand &operand) {
      return applyMap(b, loc, op.getMatchingIndexingMap(&operand), ivs);
    };
    IRMapping mapping;
    for (OpOperand *input : op.getDpsInputOperands()) {
      Value value = input->get();
      BlockArgument arg = body.getArgument(input->getOperandNumber());
      // A scalar operand (a fill's value) is the value itself.
      mapping.map(arg,
                  isa<MemRefType>(value.getType())
                      ? memref::LoadOp::create(b, loc, value, indicesOf(*input))
                            .getResult()
                      : value);
    }
    if (combiner) {
      mapping.map(out, loop.getRegionIterArg(0));
    } else {
      for (OpOperand &init : op.getDpsInitsMutable()) {
        BlockArgument arg = body.getArgument(init.getOperandNumber());
        if (!arg.use_empty())
          mapping.map(
              arg, memref::LoadOp::create(b, loc, init.get(), indicesOf(init)));
      }
    }
    for (Operation &bodyOp : body.without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(bodyOp)) {
        mapping.map(index.getResult(), ivs[index.getDim()]);
        continue;
      }
      b.clone(bodyOp, mapping);
    }
    if (combiner) {
      scf::YieldOp::create(b, loc, mapping.lookup(combiner->op->getResult(0)));
    } else {
      b.setInsertionPoint(loop.getBody()->getTerminator());
      for (auto [init, yielded] : llvm::zip(
               op.getDpsInitsMutable(), body.getTerminator()->getOperands()))
        memref::StoreOp::create(b, loc, mapping.lookupOrDefault(yielded),
                                init.get(), indicesOf(init));
    }
  }
  if (!combiner)
    return;

  // The block's total, then thread 0 folds it into the output.
  Value element = combiner->op->getOperand(0) == out
                      ? combiner->op->getOperand(1)
                      : combiner->op->getOperand(0);
  Value total = gpu::AllReduceOp::create(
      b, loc, loop.getResult(0),
      gpu::AllReduceOperationAttr::get(b.getContext(), combiner->kind),
      /*uniform=*/true);
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread,
                                      constant(0));
  auto ifFirst = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifFirst.getThenRegion().front());
  // The output's map reads no free dim; the loop's indices are out of
  // scope here.
  for (unsigned d : freeDims)
    ivs[d] = constant(0);
  OpOperand *init = op.getDpsInitOperand(0);
  SmallVector<Value> indices =
      applyMap(b, loc, op.getMatchingIndexingMap(init), ivs);
  Value old = memref::LoadOp::create(b, loc, init->get(), indices);
  IRMapping mapping;
  mapping.map(out, old);
  mapping.map(element, total);
  Operation *folded = b.clone(*combiner->op, mapping);
  memref::StoreOp::create(b, loc, folded->getResult(0), init->get(), indices);
}
