//===- GpuTileParallelLoops.cpp - scf.parallel -> blocks of threads -------===//

#include "tracec/Codegen/GPU/Passes.h"

#include "GridLimits.h"

#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEGPUTILEPARALLELLOOPS
#include "tracec/Codegen/GPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

/// Tile sizes that give the innermost dimensions up to `threads` threads:
/// a dimension takes as many as it has iterations (rounded up to a power of
/// two), the next outer one what is left. Dynamic extents take all.
static SmallVector<int64_t> defaultTileSizes(scf::ParallelOp loop,
                                             int64_t threads) {
  // Signed from the start: `getNumLoops() - 1` is unsigned and would wrap.
  int64_t rank = loop.getNumLoops();
  SmallVector<int64_t> sizes(rank, 1);
  for (int64_t d = rank - 1; d >= 0 && threads > 1; --d) {
    std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound()[d]);
    std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound()[d]);
    std::optional<int64_t> step = getConstantIntValue(loop.getStep()[d]);
    int64_t extent = threads;
    if (lower && upper && step && *step > 0)
      extent = llvm::divideCeil(*upper - *lower, *step);
    sizes[d] = std::min<int64_t>(llvm::PowerOf2Ceil(std::max<int64_t>(extent, 1)),
                                 threads);
    threads /= sizes[d];
  }
  return sizes;
}

using mlir::trace::kMaxGridYZ;

/// gpu-map-parallel-loops (innermost-first) gives the tile loop's last
/// dimension the grid's x, the one before y, the one before that z: a
/// launch with more blocks than CUDA allows there would fail at run time.
static LogicalResult checkGrid(scf::ParallelOp loop, ArrayRef<int64_t> sizes) {
  int64_t rank = loop.getNumLoops();
  for (int64_t back = 1; back <= 2 && back < rank; ++back) {
    int64_t d = rank - 1 - back;
    std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound()[d]);
    std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound()[d]);
    if (!lower || !upper)
      continue;
    int64_t blocks = llvm::divideCeil(*upper - *lower, sizes[d]);
    if (blocks > kMaxGridYZ)
      return loop.emitError() << "needs " << blocks << " blocks in grid "
                              << (back == 1 ? "y" : "z") << ", over CUDA's "
                              << kMaxGridYZ << " (use larger tile-sizes)";
  }
  return success();
}

namespace {
struct GpuTileParallelLoopsPass
    : mlir::trace::impl::TraceGpuTileParallelLoopsBase<
          GpuTileParallelLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (threads < 1) {
      getOperation().emitError("trace-gpu-tile-parallel-loops: threads must "
                               "be positive, got ")
          << threads.getValue();
      return signalPassFailure();
    }
    if (llvm::any_of(tileSizes, [](int64_t size) { return size < 1; })) {
      getOperation().emitError("trace-gpu-tile-parallel-loops: tile sizes "
                               "must be positive");
      return signalPassFailure();
    }
    SmallVector<scf::ParallelOp> outermost;
    getOperation().walk([&](scf::ParallelOp loop) {
      if (!loop->getParentOfType<scf::ParallelOp>())
        outermost.push_back(loop);
    });
    for (scf::ParallelOp loop : outermost) {
      SmallVector<int64_t> sizes = defaultTileSizes(loop, threads);
      if (!tileSizes.empty()) {
        // Align the given sizes with the innermost dimensions, from the
        // back: the last size is the innermost dimension's. Either list may
        // be the longer one (sizes beyond the loop's rank are dropped,
        // missing ones are 1), so the counts are signed: a size_t
        // difference of the two would wrap.
        int64_t rank = sizes.size();
        int64_t given = tileSizes.size();
        std::fill(sizes.begin(), sizes.end(), 1);
        for (int64_t i = 0, e = std::min(rank, given); i < e; ++i)
          sizes[rank - 1 - i] = tileSizes[given - 1 - i];
      }
      if (failed(checkGrid(loop, sizes)))
        return signalPassFailure();
      // Fixed-size tiles with an in-bounds check inside: the inner loop's
      // static bounds become the block size.
      scf::tileParallelLoop(loop, sizes, /*noMinMaxBounds=*/true);
    }
  }
};
} // namespace
