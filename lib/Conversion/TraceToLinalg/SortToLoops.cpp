//===- SortToLoops.cpp - sort -> a bottom-up merge sort in scf loops ------===//
//
// Each row along the axis is merge sorted bottom up: runs of width 1, 2,
// 4, ... are merged pairwise from one set of tensors into fresh ones
// (every operand moves with the keys), so the sort is stable and
// O(n log n) per row. The loops work on tensors with tensor.extract and
// tensor.insert; bufferization writes each pass in place into its new
// buffers.
//
//===----------------------------------------------------------------------===//

#include "tracec/Conversion/TraceToLinalg/TraceToLinalg.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "tracec/Dialect/Trace/IR/TraceShapes.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

/// Whether key `a` goes strictly before key `b`: ascending, NaN above every
/// number (NumPy's order); descending is the same order reversed. Equal
/// keys go in neither direction, which keeps the merge stable.
Value goesBefore(OpBuilder &b, Location loc, Value a, Value bValue,
                 bool descending) {
  if (descending)
    std::swap(a, bValue);
  Type type = a.getType();
  if (isa<FloatType>(type)) {
    Value less =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, a, bValue);
    Value aIsNumber =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD, a, a);
    Value bIsNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO,
                                         bValue, bValue);
    return arith::OrIOp::create(
        b, loc, less, arith::AndIOp::create(b, loc, aIsNumber, bIsNaN));
  }
  return arith::CmpIOp::create(b, loc,
                               type.isInteger(1) ? arith::CmpIPredicate::ult
                                                 : arith::CmpIPredicate::slt,
                               a, bValue);
}

struct SortToLoops : OpRewritePattern<SortOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SortOp sort,
                                PatternRewriter &rewriter) const override {
    Location loc = sort.getLoc();
    ValueRange inputs = sort.getInputs();
    auto keysType = cast<RankedTensorType>(inputs.front().getType());
    int64_t rank = keysType.getRank();
    int64_t axis = *normalizeAxis(sort.getAxis(), rank);
    bool descending = sort.getDescending();
    ReifiedRankedShapedTypeDims shapes;
    if (failed(reifyResultShapes(rewriter, sort, shapes)))
      return failure();
    SmallVector<Value> sizes =
        getValueOrCreateConstantIndexOp(rewriter, loc, shapes.front());

    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value n = sizes[axis];
    Value rows = one;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        rows = rewriter.createOrFold<arith::MulIOp>(loc, rows, sizes[d]);

    SmallVector<Type> carriedTypes = {rewriter.getIndexType()};
    llvm::append_range(carriedTypes, inputs.getTypes());
    SmallVector<Value> initial = {one};
    llvm::append_range(initial, inputs);

    // while (width < n): merge runs of `width` into fresh tensors.
    auto passes = scf::WhileOp::create(
        rewriter, loc, carriedTypes, initial,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value more = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt,
                                             args[0], n);
          scf::ConditionOp::create(b, l, more, args);
        },
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value width = args[0];
          ValueRange sources = args.drop_front();
          Value twice = arith::AddIOp::create(b, l, width, width);
          SmallVector<Value> empties;
          for (auto [input, shape] : llvm::zip(inputs, shapes))
            empties.push_back(tensor::EmptyOp::create(
                b, l, shape,
                cast<RankedTensorType>(input.getType()).getElementType()));
          auto rowLoop = scf::ForOp::create(
              b, l, zero, rows, one, empties,
              [&](OpBuilder &rb, Location rl, Value row, ValueRange rowDsts) {
                // The row's indices in the dims other than the axis.
                SmallVector<Value> indices(rank, zero);
                Value rest = row;
                for (int64_t d = rank - 1; d >= 0; --d) {
                  if (d == axis)
                    continue;
                  indices[d] =
                      rb.createOrFold<arith::RemUIOp>(rl, rest, sizes[d]);
                  rest = rb.createOrFold<arith::DivUIOp>(rl, rest, sizes[d]);
                }
                auto runLoop = scf::ForOp::create(
                    rb, rl, zero, n, twice, rowDsts,
                    [&](OpBuilder &mb, Location ml, Value low,
                        ValueRange dsts) {
                      scf::YieldOp::create(mb, ml,
                                           merge(mb, ml, sources, dsts, indices,
                                                 axis, low, width, twice, n,
                                                 descending));
                    });
                scf::YieldOp::create(rb, rl, runLoop.getResults());
              });
          SmallVector<Value> next = {twice};
          llvm::append_range(next, rowLoop.getResults());
          scf::YieldOp::create(b, l, next);
        });
    rewriter.replaceOp(sort, passes.getResults().drop_front());
    return success();
  }

  /// Merges the runs [low, mid) and [mid, high) of the row at `indices` of
  /// `sources` into `dsts`, mid = min(low + width, n), high = min(low +
  /// twice, n).
  static SmallVector<Value> merge(OpBuilder &b, Location loc,
                                  ValueRange sources, ValueRange dsts,
                                  SmallVector<Value> indices, int64_t axis,
                                  Value low, Value width, Value twice, Value n,
                                  bool descending) {
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value mid = arith::MinUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, low, width), n);
    Value high = arith::MinUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, low, twice), n);
    Value lastLeft = arith::SubIOp::create(b, loc, mid, one);
    Value lastRight = arith::SubIOp::create(b, loc, high, one);
    auto at = [&](Value position) {
      SmallVector<Value> where = indices;
      where[axis] = position;
      return where;
    };

    SmallVector<Type> types(3, b.getIndexType());
    llvm::append_range(types, dsts.getTypes());
    SmallVector<Value> initial = {low, mid, low};
    llvm::append_range(initial, dsts);
    auto loop = scf::WhileOp::create(
        b, loc, types, initial,
        [&](OpBuilder &cb, Location l, ValueRange args) {
          Value more = arith::CmpIOp::create(cb, l, arith::CmpIPredicate::ult,
                                             args[2], high);
          scf::ConditionOp::create(cb, l, more, args);
        },
        [&](OpBuilder &bb, Location l, ValueRange args) {
          Value i = args[0], j = args[1], k = args[2];
          // Read in bounds even where a run is used up; the flags decide.
          Value left = arith::MinUIOp::create(bb, l, i, lastLeft);
          Value right = arith::MinUIOp::create(bb, l, j, lastRight);
          Value leftKey =
              tensor::ExtractOp::create(bb, l, sources[0], at(left));
          Value rightKey =
              tensor::ExtractOp::create(bb, l, sources[0], at(right));
          Value leftDone =
              arith::CmpIOp::create(bb, l, arith::CmpIPredicate::uge, i, mid);
          Value rightLeft =
              arith::CmpIOp::create(bb, l, arith::CmpIPredicate::ult, j, high);
          Value takeRight = arith::AndIOp::create(
              bb, l, rightLeft,
              arith::OrIOp::create(
                  bb, l, leftDone,
                  goesBefore(bb, l, rightKey, leftKey, descending)));
          Value from = arith::SelectOp::create(bb, l, takeRight, right, left);
          SmallVector<Value> next = {
              arith::SelectOp::create(bb, l, takeRight, i,
                                      arith::AddIOp::create(bb, l, i, one)),
              arith::SelectOp::create(bb, l, takeRight,
                                      arith::AddIOp::create(bb, l, j, one), j),
              arith::AddIOp::create(bb, l, k, one)};
          for (auto [o, source] : llvm::enumerate(sources)) {
            Value value =
                o == 0 ? arith::SelectOp::create(bb, l, takeRight, rightKey,
                                                 leftKey)
                             .getResult()
                       : tensor::ExtractOp::create(bb, l, source, at(from))
                             .getResult();
            next.push_back(
                tensor::InsertOp::create(bb, l, value, args[3 + o], at(k)));
          }
          scf::YieldOp::create(bb, l, next);
        });
    return SmallVector<Value>(loop.getResults().drop_front(3));
  }
};

} // namespace

void mlir::trace::populateSortToLoopsPatterns(RewritePatternSet &patterns) {
  patterns.add<SortToLoops>(patterns.getContext());
}
