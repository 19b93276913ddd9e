//===- GpuGridStride.cpp - Grids within CUDA's limits, at any size --------===//
//
// With dynamic dims a launch's grid is computed at run time (ceil-div of a
// size by the tile), so it may exceed what CUDA launches in a dimension, or
// be 0 (a launch error too). Such a dimension is launched with
// max(1, min(size, limit)) blocks and the body becomes a grid-stride loop
// over the block ids it stands for.
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/GPU/Passes.h"

#include "GridLimits.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEGPUGRIDSTRIDE
#include "tracec/Codegen/GPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

/// The value of `size` where it folds to a constant (the sizes of static
/// loops are still affine.apply and arith of constants here).
static std::optional<int64_t> constantOf(Value size, int depth = 0) {
  if (std::optional<int64_t> value = getConstantIntValue(size))
    return value;
  Operation *op = size.getDefiningOp();
  if (!op || depth > 8 || op->getNumResults() != 1)
    return std::nullopt;
  SmallVector<Attribute> operands;
  for (Value operand : op->getOperands()) {
    std::optional<int64_t> value = constantOf(operand, depth + 1);
    if (!value)
      return std::nullopt;
    operands.push_back(IntegerAttr::get(operand.getType(), *value));
  }
  SmallVector<OpFoldResult> folded;
  if (failed(op->fold(operands, folded)) || folded.size() != 1)
    return std::nullopt;
  return getConstantIntValue(folded.front());
}

/// Whether threads of the body wait for each other: then an iteration may
/// not start before every thread has left the previous one.
static bool synchronizes(gpu::LaunchOp launch) {
  if (!launch.getWorkgroupAttributions().empty())
    return true;
  WalkResult result = launch.getBody().walk([](Operation *op) {
    return isa<gpu::BarrierOp, gpu::AllReduceOp>(op) ? WalkResult::interrupt()
                                                     : WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// Runs the body of `launch` for block ids `id`, `id + grid`, ... below
/// `size`, where `grid` is the grid's size in that dimension. Returns the
/// loop.
static scf::ForOp strideOver(gpu::LaunchOp launch, Value id, Value grid,
                             Value size) {
  Block &body = launch.getBody().front();
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  OpBuilder b = OpBuilder::atBlockBegin(&body);
  auto loop = scf::ForOp::create(b, launch.getLoc(), id, size, grid);
  Operation *yield = loop.getBody()->getTerminator();
  for (Operation *op : ops)
    op->moveBefore(yield);
  Value iv = loop.getInductionVar();
  id.replaceUsesWithIf(iv, [&](OpOperand &use) {
    return loop->isProperAncestor(use.getOwner());
  });
  return loop;
}

namespace {
struct GpuGridStridePass
    : mlir::trace::impl::TraceGpuGridStrideBase<GpuGridStridePass> {
  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk([&](gpu::LaunchOp op) { launches.push_back(op); });
    for (gpu::LaunchOp launch : launches)
      rewrite(launch);
  }

  void rewrite(gpu::LaunchOp launch) {
    Location loc = launch.getLoc();
    bool sync = synchronizes(launch);
    gpu::KernelDim3 ids = launch.getBlockIds(), grid = launch.getGridSize();
    struct Dim {
      OpOperand &size;
      Value id, grid;
      int64_t limit;
    };
    // x innermost, so neighbouring blocks still take neighbouring tiles.
    Dim dims[] = {
        {launch.getGridSizeXMutable(), ids.x, grid.x, trace::kMaxGridX},
        {launch.getGridSizeYMutable(), ids.y, grid.y, trace::kMaxGridYZ},
        {launch.getGridSizeZMutable(), ids.z, grid.z, trace::kMaxGridYZ}};
    bool first = true;
    for (Dim &dim : dims) {
      Value size = dim.size.get();
      std::optional<int64_t> known = constantOf(size);
      if (known && *known >= 1 && *known <= dim.limit)
        continue;
      OpBuilder b(launch);
      Value limit = arith::ConstantIndexOp::create(b, loc, dim.limit);
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      Value clamped = arith::MaxUIOp::create(
          b, loc, arith::MinUIOp::create(b, loc, size, limit), one);
      dim.size.set(clamped);
      scf::ForOp loop = strideOver(launch, dim.id, dim.grid, size);
      if (sync && first) {
        b.setInsertionPoint(loop.getBody()->getTerminator());
        gpu::BarrierOp::create(b, loc);
      }
      first = false;
    }
  }
};
} // namespace
