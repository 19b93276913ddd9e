//===- ShardToCollectives.cpp - The shard dialect's SPMD on trace collectives
//===//
//
// A module annotated with upstream's `shard` dialect (a `shard.grid` of
// processes, `shard.shard` annotations) is partitioned by upstream's
// sharding-propagation and shard-partition, whose collectives on a grid's
// axes then become trace collectives on groups of processes:
//
//   shard.grid @grid(shape = 2x2)
//   %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8xf32> -> ...
//     -> %r, %c = trace.all_reduce %x {reduction = "sum",
//                   groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>}
//
// The grid's processes are MPI's world in row-major order (a process's
// linear index is its rank, as shard.process_linear_index defines it); the
// group of a collective on `grid_axes` is the processes that differ only
// along those axes, listed row-major over the axes in their order (the
// in-group index of upstream's collectives). Groups are given even where
// one group is the whole world, so that running in a world of another size
// than the grid's fails with the collective's name, not a wrong answer.
// upstream's lowerings turn all_slice and process_multi_index into
// process_linear_index, which becomes trace.comm_rank in the world's group.
//
// Not lowered (an error at the op): grids of dynamic shape, all_to_all,
// shift, scatter, gather, send, recv, reduce, reductions other than sum,
// average, max and min, an accumulation type other than the operand's, and
// a broadcast of dynamic root.
//
//===----------------------------------------------------------------------===//

#include "tracec/Transforms/State/Passes.h"

#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Passes.h"
#include "mlir/Dialect/Shard/Transforms/Transforms.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACESHARDTOCOLLECTIVES
#include "tracec/Transforms/State/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;
using namespace mlir::trace;

namespace {

/// The process groups of a collective on `axes` of `grid` (static):
/// one row per combination of the other axes' indices, each row the
/// linear indices of the processes along `axes`, row-major over them.
DenseIntElementsAttr groupsOf(shard::GridOp grid,
                              ArrayRef<shard::GridAxis> axes) {
  ArrayRef<int64_t> shape = grid.getShape();
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  SmallVector<int64_t> others;
  for (int64_t d = 0, e = shape.size(); d < e; ++d)
    if (!llvm::is_contained(axes, d))
      others.push_back(d);
  // The offset of each process along `dims`, row-major over them.
  auto offsets = [&](ArrayRef<int64_t> dims) {
    SmallVector<int64_t> result = {0};
    for (int64_t d : dims) {
      SmallVector<int64_t> next;
      for (int64_t offset : result)
        for (int64_t i = 0; i < shape[d]; ++i)
          next.push_back(offset + i * strides[d]);
      result = std::move(next);
    }
    return result;
  };
  SmallVector<int64_t> along = offsets(SmallVector<int64_t>(axes)),
                       groupStarts = offsets(others);
  SmallVector<int64_t> ranks;
  for (int64_t start : groupStarts)
    for (int64_t offset : along)
      ranks.push_back(start + offset);
  auto type = RankedTensorType::get({static_cast<int64_t>(groupStarts.size()),
                                     static_cast<int64_t>(along.size())},
                                    IntegerType::get(grid.getContext(), 64));
  return DenseIntElementsAttr::get(type, ranks);
}

/// trace's name of a shard reduction, or an error at `op`.
FailureOr<StringRef> reductionOf(Operation *op, shard::ReductionKind kind) {
  switch (kind) {
  case shard::ReductionKind::Sum:
    return StringRef("sum");
  case shard::ReductionKind::Average:
    return StringRef("mean");
  case shard::ReductionKind::Max:
    return StringRef("max");
  case shard::ReductionKind::Min:
    return StringRef("min");
  default:
    return op->emitOpError("reduction '")
           << shard::stringifyReductionKind(kind)
           << "' has no trace collective (sum, average, max, min)";
  }
}

/// Replaces shard ops, one at a time, by trace ops.
class Lowering {
public:
  Lowering(MLIRContext *context, SymbolTableCollection &symbols)
      : control(ControlType::get(context)), symbols(symbols) {}

  /// The op's grid, which must have a static shape.
  FailureOr<shard::GridOp> gridOf(Operation *op, FlatSymbolRefAttr name) {
    shard::GridOp grid = shard::getGridOrNull(op, name, symbols);
    if (!grid)
      return op->emitOpError("refers to no shard.grid ") << name;
    if (ShapedType::isDynamicShape(grid.getShape()))
      return op->emitOpError("runs on a grid of dynamic shape: trace "
                             "collectives need its processes' number");
    return grid;
  }

  LogicalResult lower(Operation *op) {
    IRRewriter rewriter(op);
    rewriter.setInsertionPoint(op);
    return llvm::TypeSwitch<Operation *, LogicalResult>(op)
        .Case([&](shard::AllReduceOp reduce) -> LogicalResult {
          auto type = dyn_cast<RankedTensorType>(reduce.getInput().getType());
          if (!type || type != reduce.getType())
            return reduce.emitOpError(
                "has no trace collective: it takes a memref or accumulates in "
                "another type than its operand's");
          FailureOr<StringRef> reduction =
              reductionOf(reduce, reduce.getReduction());
          if (failed(reduction))
            return failure();
          return replace(rewriter, reduce, reduce.getGridAttr(),
                         reduce.getGridAxes(), [&](DenseIntElementsAttr g) {
                           return AllReduceOp::create(
                               rewriter, reduce.getLoc(), type, control,
                               reduce.getInput(), ValueRange{}, *reduction, g);
                         });
        })
        .Case([&](shard::AllGatherOp gather) -> LogicalResult {
          return replace(rewriter, gather, gather.getGridAttr(),
                         gather.getGridAxes(), [&](DenseIntElementsAttr g) {
                           return AllGatherOp::create(
                               rewriter, gather.getLoc(), gather.getType(),
                               control, gather.getInput(), ValueRange{},
                               gather.getGatherAxis().getZExtValue(),
                               g.getType().getDimSize(1), g);
                         });
        })
        .Case([&](shard::ReduceScatterOp scatter) -> LogicalResult {
          if (scatter.getType().getElementType() !=
              scatter.getInput().getType().getElementType())
            return scatter.emitOpError(
                "has no trace collective: it accumulates in another type "
                "than its operand's");
          FailureOr<StringRef> reduction =
              reductionOf(scatter, scatter.getReduction());
          if (failed(reduction))
            return failure();
          return replace(rewriter, scatter, scatter.getGridAttr(),
                         scatter.getGridAxes(), [&](DenseIntElementsAttr g) {
                           return ReduceScatterOp::create(
                               rewriter, scatter.getLoc(), scatter.getType(),
                               control, scatter.getInput(), ValueRange{},
                               *reduction,
                               scatter.getScatterAxis().getZExtValue(),
                               g.getType().getDimSize(1), g);
                         });
        })
        .Case([&](shard::BroadcastOp broadcast) -> LogicalResult {
          if (!broadcast.getRootDynamic().empty())
            return broadcast.emitOpError(
                "has a dynamic root: trace.broadcast needs a constant one");
          FailureOr<shard::GridOp> grid =
              gridOf(broadcast, broadcast.getGridAttr());
          if (failed(grid))
            return failure();
          // The root's in-group multi-index, row-major over the axes.
          int64_t position = 0;
          for (auto [axis, index] :
               llvm::zip(broadcast.getGridAxes(), broadcast.getRoot()))
            position = position * grid->getShape()[axis] + index;
          return replace(rewriter, broadcast, broadcast.getGridAttr(),
                         broadcast.getGridAxes(), [&](DenseIntElementsAttr g) {
                           return BroadcastOp::create(
                               rewriter, broadcast.getLoc(),
                               broadcast.getType(), control,
                               broadcast.getInput(), ValueRange{}, position, g);
                         });
        })
        .Case([&](shard::ProcessLinearIndexOp index) -> LogicalResult {
          FailureOr<shard::GridOp> grid = gridOf(index, index.getGridAttr());
          if (failed(grid))
            return failure();
          // Every axis: one group, the world in rank order, whose size the
          // lookup checks.
          SmallVector<shard::GridAxis> all;
          for (int64_t d = 0, e = grid->getRank(); d < e; ++d)
            all.push_back(static_cast<shard::GridAxis>(d));
          Location loc = index.getLoc();
          Value rank = CommRankOp::create(rewriter, loc, groupsOf(*grid, all))
                           .getResult();
          Value scalar = tensor::ExtractOp::create(rewriter, loc, rank);
          rewriter.replaceOpWithNewOp<arith::IndexCastOp>(
              index, rewriter.getIndexType(), scalar);
          return success();
        })
        .Case([&](shard::GridShapeOp shape) -> LogicalResult {
          FailureOr<shard::GridOp> grid = gridOf(shape, shape.getGridAttr());
          if (failed(grid))
            return failure();
          SmallVector<Value> sizes;
          for (int64_t d = 0, e = grid->getRank(); d < e; ++d)
            if (shape.getAxes().empty() ||
                llvm::is_contained(shape.getAxes(), d))
              sizes.push_back(arith::ConstantIndexOp::create(
                  rewriter, shape.getLoc(), grid->getShape()[d]));
          rewriter.replaceOp(shape, sizes);
          return success();
        })
        .Default([](Operation *op) {
          return op->emitOpError("has no lowering to trace collectives");
        });
  }

private:
  /// Replaces `op` by what `create` builds on its groups; on no axes, by
  /// its operand (a group of one process).
  template <typename Create>
  LogicalResult replace(IRRewriter &rewriter, Operation *op,
                        FlatSymbolRefAttr name, ArrayRef<shard::GridAxis> axes,
                        Create create) {
    FailureOr<shard::GridOp> grid = gridOf(op, name);
    if (failed(grid))
      return failure();
    if (axes.empty() &&
        op->getOperand(0).getType() == op->getResult(0).getType()) {
      rewriter.replaceOp(op, op->getOperand(0));
      return success();
    }
    Operation *collective = create(groupsOf(*grid, axes));
    rewriter.replaceOp(op, collective->getResult(0));
    return success();
  }

  Type control; // the trace collectives' token
  SymbolTableCollection &symbols;
};

/// The type each result of `function` has on one process where its
/// returned value is annotated (`shard.shard ... annotate_for_users`), else
/// null.
SmallVector<Type> annotatedResultTypes(func::FuncOp function,
                                       SymbolTableCollection &symbols) {
  SmallVector<Type> types(function.getNumResults());
  function.walk([&](func::ReturnOp ret) {
    for (auto [index, value] : llvm::enumerate(ret.getOperands())) {
      auto annotation = value.getDefiningOp<shard::ShardOp>();
      if (!annotation || !annotation.getAnnotateForUsers())
        continue;
      shard::GridOp grid = shard::getGrid(annotation, symbols);
      if (grid && !ShapedType::isDynamicShape(grid.getShape()))
        types[index] = shard::shardType(
            value.getType(), grid, shard::Sharding(annotation.getSharding()));
    }
  });
  return types;
}

/// Upstream's partition leaves a value in its sharding where it cannot
/// reshard it to the annotation's (MLIR 22 reshards across the axes of a
/// grid of more than one axis only in some cases): the result would then be
/// a shard where the annotation promised another.
LogicalResult checkResults(func::FuncOp function, ArrayRef<Type> promised) {
  for (auto [index, type] : llvm::enumerate(promised))
    if (type && function.getResultTypes()[index] != type)
      return function.emitError("result ")
             << index << " of @" << function.getSymName()
             << " is annotated to be " << type
             << " on each process, but upstream's shard-partition cannot "
                "reshard it to that sharding (it gives "
             << function.getResultTypes()[index] << ")";
  return success();
}

struct ShardToCollectivesPass
    : trace::impl::TraceShardToCollectivesBase<ShardToCollectivesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<shard::GridOp> grids(module.getOps<shard::GridOp>());
    if (grids.empty())
      return; // nothing sharded
    // Functions with annotations; those without are already one
    // process's program (or not sharded at all), which upstream's
    // partition would reject for the ops that have no sharding interface.
    OpPassManager partition(func::FuncOp::getOperationName());
    partition.addPass(shard::createShardingPropagation());
    partition.addPass(shard::createPartition());
    SymbolTableCollection symbols;
    for (auto function : module.getOps<func::FuncOp>()) {
      bool annotated =
          function.walk([](shard::ShardOp) { return WalkResult::interrupt(); })
              .wasInterrupted();
      if (!annotated)
        continue;
      SmallVector<Type> promised = annotatedResultTypes(function, symbols);
      if (failed(runPipeline(partition, function)) ||
          failed(checkResults(function, promised)))
        return signalPassFailure();
    }

    // Upstream's: all_slice and process_multi_index on the linear index.
    RewritePatternSet patterns(&getContext());
    shard::populateAllOpLoweringPatterns(patterns, symbols);
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();

    SmallVector<Operation *> shardOps;
    module.walk([&](Operation *op) {
      if (isa_and_nonnull<shard::ShardDialect>(op->getDialect()) &&
          !isa<shard::GridOp>(op))
        shardOps.push_back(op);
    });
    Lowering lowering(&getContext(), symbols);
    bool failedAny = false;
    for (Operation *op : shardOps)
      failedAny |= failed(lowering.lower(op));
    if (failedAny)
      return signalPassFailure();
    for (shard::GridOp grid : grids)
      grid.erase();
  }
};

} // namespace
