//===- SumsOfProducts.cpp - A sum of products as one product --------------===//
//
// `a1 b1 + a2 b2 + ... + an bn` is one product `[a1 ... an] [b1; ...; bn]`
// of the operands joined along the contracted dim. A gradient unrolled
// over steps is such a sum: the weight gradient of an RNN unrolled for 64
// steps adds 64 products of 32 rows each (x_t^T dz_t, 256x1024). As a sum,
// each product is a skinny contraction whose 1 MB accumulator is packed,
// unpacked and added once per step; as one product it is a single
// 256x2048x1024 contraction at the micro-kernel's full rate, and joining
// the operands copies 160 KB per step.
//
// Only where the result is larger than the operands it joins (M*N >
// (M+N)*K for every term), so that the copies cost less than the passes
// over the accumulator they save.
//
//===----------------------------------------------------------------------===//

#include "tracec/Conversion/TraceToLinalg/TraceToLinalg.h"

#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

/// Whether `value` is an addend inside the tree: an addition of the same
/// type whose only use is the tree's next addition.
AddOp innerAddition(Value value, Type type) {
  auto add = value.getDefiningOp<AddOp>();
  if (!add || !value.hasOneUse() || add.getType() != type ||
      add.getLhs().getType() != type || add.getRhs().getType() != type)
    return nullptr;
  return add;
}

/// The terms of the sum `root` heads (its leaves, left to right) and its
/// inner additions, parents first.
void collectTerms(AddOp root, SmallVectorImpl<Value> &terms,
                  SmallVectorImpl<AddOp> &inner) {
  for (Value operand : {root.getLhs(), root.getRhs()}) {
    if (AddOp add = innerAddition(operand, root.getType())) {
      inner.push_back(add);
      collectTerms(add, terms, inner);
    } else {
      terms.push_back(operand);
    }
  }
}

/// The contracted size of a 2-D matmul term that can join the others
/// (`first` sets the flags and the M and N sizes), or nothing.
std::optional<int64_t> joinableK(Value term, MatmulOp first) {
  auto product = term.getDefiningOp<MatmulOp>();
  if (!product || !term.hasOneUse() ||
      product.getTransposeA() != first.getTransposeA() ||
      product.getTransposeB() != first.getTransposeB())
    return std::nullopt;
  auto lhs = cast<RankedTensorType>(product.getLhs().getType());
  auto rhs = cast<RankedTensorType>(product.getRhs().getType());
  auto result = cast<RankedTensorType>(product.getType());
  if (lhs.getRank() != 2 || rhs.getRank() != 2 || !lhs.hasStaticShape() ||
      !rhs.hasStaticShape() || result != first.getType() ||
      lhs.getElementType() != result.getElementType() ||
      rhs.getElementType() != result.getElementType() ||
      !isa<FloatType>(result.getElementType()))
    return std::nullopt;
  int64_t k = lhs.getDimSize(product.getTransposeA() ? 0 : 1);
  int64_t m = result.getDimSize(0), n = result.getDimSize(1);
  if (m * n <= (m + n) * k)
    return std::nullopt;
  return k;
}

/// Rewrites the sum `root` heads (its `terms` and `inner` additions) as
/// one product; false where it is not a sum of joinable products.
bool joinProducts(AddOp root, ArrayRef<Value> terms, ArrayRef<AddOp> inner) {
  auto first = terms.front().getDefiningOp<MatmulOp>();
  if (!first ||
      llvm::any_of(terms, [&](Value term) { return !joinableK(term, first); }))
    return false;
  SmallVector<Value> lhs, rhs;
  for (Value term : terms) {
    auto product = term.getDefiningOp<MatmulOp>();
    lhs.push_back(product.getLhs());
    rhs.push_back(product.getRhs());
  }
  OpBuilder builder(root);
  Location loc = root.getLoc();
  Value joinedLhs =
      ConcatOp::create(builder, loc, lhs, first.getTransposeA() ? 0 : 1);
  Value joinedRhs =
      ConcatOp::create(builder, loc, rhs, first.getTransposeB() ? 1 : 0);
  Value product =
      MatmulOp::create(builder, loc, root.getType(), joinedLhs, joinedRhs,
                       first.getTransposeAAttr(), first.getTransposeBAttr());
  root.replaceAllUsesWith(product);
  root.erase();
  for (AddOp add : inner)
    add.erase();
  for (Value term : terms)
    term.getDefiningOp()->erase();
  return true;
}

} // namespace

void mlir::trace::joinSumsOfProducts(Operation *root) {
  // Outermost sums first: an inner addition is part of its root's sum (and
  // is erased with it: the walk's list must not touch it again).
  SmallVector<AddOp> additions;
  root->walk([&](AddOp add) { additions.push_back(add); });
  DenseSet<Operation *> erased;
  for (AddOp add : llvm::reverse(additions)) {
    if (erased.contains(add))
      continue;
    Value sum = add.getResult();
    auto parent =
        sum.hasOneUse() ? dyn_cast<AddOp>(*sum.getUsers().begin()) : AddOp();
    if (parent && innerAddition(sum, parent.getType()))
      continue;
    SmallVector<Value> terms;
    SmallVector<AddOp> inner;
    collectTerms(add, terms, inner);
    if (joinProducts(add, terms, inner))
      for (AddOp op : inner)
        erased.insert(op);
  }
}
