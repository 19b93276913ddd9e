//===- LoopAccumulation.cpp - Loop-carried sums into contractions ---------===//
//
// The adjoint of a loop sums each iteration's weight gradient into a
// carried value: `acc' = acc + x^T dz`. As two ops, the contraction fills a
// fresh buffer, the addition reads it and `acc` and writes a third, and the
// loop copies that back into the carried buffer: for a 256x1024 gradient, 5
// MB of memory traffic per iteration beside the product itself. With the
// contraction accumulating into `acc` (its init), the packed contraction
// reads `acc` once and its unpack writes the result where `acc` was, in
// place: the carried buffer stays the same and nothing is copied.
//
// Only carried values: elsewhere the separate addition costs about what
// packing a non-zero accumulator does.
//
//===----------------------------------------------------------------------===//

#include "LoopAccumulation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace {

/// Whether `op` is `out = in0 + in1`, elementwise, with identity maps.
bool isElementwiseAddition(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return false;
  Block &body = op.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || &body.front() != add.getOperation())
    return false;
  Value a = body.getArgument(0), b = body.getArgument(1);
  return (add.getLhs() == a && add.getRhs() == b) ||
         (add.getLhs() == b && add.getRhs() == a);
}

/// Whether `value` is all zeros: a linalg.fill of 0 or a zero constant.
bool isZeros(Value value) {
  if (auto fill = value.getDefiningOp<linalg::FillOp>())
    return matchPattern(fill.getInputs()[0], m_AnyZeroFloat());
  return matchPattern(value, m_AnyZeroFloat());
}

/// The contraction into zeros that `value` is the only use of, or null.
linalg::LinalgOp contractionIntoZeros(Value value) {
  auto op = value.getDefiningOp<linalg::LinalgOp>();
  if (!op || !value.hasOneUse() || op->getNumResults() != 1 ||
      !op.hasPureTensorSemantics() || !linalg::isaContractionOpInterface(op) ||
      !isZeros(op.getDpsInits()[0]))
    return nullptr;
  return op;
}

/// Whether `value` is a value carried by an scf.for (its body's argument).
bool isCarried(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  return arg && isa<scf::ForOp>(arg.getOwner()->getParentOp()) &&
         arg.getArgNumber() > 0;
}

} // namespace

void tracec::accumulateLoopSumsInContractions(Operation *root,
                                              RewriterBase &rewriter) {
  SmallVector<linalg::GenericOp> additions;
  root->walk([&](linalg::GenericOp op) {
    if (op.hasPureTensorSemantics() && isElementwiseAddition(op))
      additions.push_back(op);
  });
  for (linalg::GenericOp add : additions) {
    for (auto [accIndex, productIndex] : {std::pair(0, 1), std::pair(1, 0)}) {
      Value acc = add.getDpsInputs()[accIndex];
      linalg::LinalgOp product =
          contractionIntoZeros(add.getDpsInputs()[productIndex]);
      if (!product || !isCarried(acc) ||
          acc.getType() != add->getResult(0).getType() ||
          acc.getType() != product->getResult(0).getType())
        continue;
      rewriter.modifyOpInPlace(
          product, [&] { product.getDpsInitsMutable()[0].assign(acc); });
      rewriter.replaceOp(add, product->getResults());
      break;
    }
  }
}
