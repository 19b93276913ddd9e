//===- GpuMmaMatmul.cpp - Matmul on tensor cores (mma.sync, wgmma) --------===//
//
// On sm_90a, 16-bit matmuls of whole 128 x 128 tiles go to warpgroups that
// load by TMA and multiply with wgmma (WarpgroupMmaTiles.h). Else two
// kernels, by shape. Where C tiles into whole blocks (MmaBlockTiles.h),
// a block of warps stages A's and B's slabs through shared memory; else
// the fallback below, one warp per 16 x 8 tile of C reading its fragments
// from global memory:
//
//   linalg.matmul ins(%A, %B : memref<MxKxT>, memref<KxNxT>) outs(%C)
//     ->
//   gpu.launch blocks(%bx, %by) in (N/8, M/16) threads(%lane) in (32) {
//     %c = C's fragment of this lane in tile (%by * 16, %bx * 8)
//     %d = scf.for %k = 0 to K step kslab iter_args(%acc = %c) {
//       %a, %b = A's and B's fragments of this lane at k
//       nvgpu.mma.sync(%a, %b, %acc)           (one warp's mma.sync)
//     }
//     C's fragment = %d
//   }
//
// Both keep C's tiles in registers across k. Upstream's
// transform.nvgpu.rewrite_matmul_as_mma_sync has no f32 accumulation of
// f16 products (what trace.matmul of f16 lowers to) and reloads C at every
// k-slab, hence this pass.
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/GPU/Passes.h"

#include "GridLimits.h"
#include "MmaBlockTiles.h"
#include "MmaFragments.h"
#include "WarpgroupMmaTiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEGPUMMAMATMUL
#include "tracec/Codegen/GPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {

using namespace mlir::trace;

/// The instruction for `op` if it is a plain matmul on static buffers that
/// tiles into whole mma.sync tiles within CUDA's grid limits.
std::optional<MmaShape> matchTensorCoreMatmul(linalg::MatmulOp op, bool tf32) {
  if (!op.hasPureBufferSemantics() || op.hasUserDefinedMaps())
    return std::nullopt;
  auto a = cast<MemRefType>(op.getDpsInputOperand(0)->get().getType());
  auto b = cast<MemRefType>(op.getDpsInputOperand(1)->get().getType());
  auto c = cast<MemRefType>(op.getDpsInitOperand(0)->get().getType());
  if (!a.hasStaticShape() || !b.hasStaticShape() || !c.hasStaticShape())
    return std::nullopt;
  std::optional<MmaShape> shape = mmaShapeFor(
      a.getElementType(), b.getElementType(), c.getElementType(), tf32);
  int64_t m = a.getDimSize(0), k = a.getDimSize(1), n = b.getDimSize(1);
  if (!shape || m == 0 || n == 0 || k == 0 || m % kMmaTileM || n % kMmaTileN ||
      k % shape->k || m / kMmaTileM > kMaxGridYZ || n / kMmaTileN > kMaxGridX)
    return std::nullopt;
  return shape;
}

/// The launch of one warp per 16 x 8 tile of C.
void tileIntoWarps(linalg::MatmulOp op, const MmaShape &mma) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  MLIRContext *context = op.getContext();
  Value a = op.getDpsInputOperand(0)->get();
  Value bMatrix = op.getDpsInputOperand(1)->get();
  Value c = op.getDpsInitOperand(0)->get();
  int64_t m = cast<MemRefType>(a.getType()).getDimSize(0);
  int64_t k = cast<MemRefType>(a.getType()).getDimSize(1);
  int64_t n = cast<MemRefType>(bMatrix.getType()).getDimSize(1);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  Value one = constant(1);
  auto launch = gpu::LaunchOp::create(b, loc, constant(n / kMmaTileN),
                                      constant(m / kMmaTileM), one,
                                      constant(kThreadsPerWarp), one, one);
  b.setInsertionPointToStart(&launch.getBody().front());
  gpu::KernelDim3 block = launch.getBlockIds();
  Value lane = launch.getThreadIds().x;
  Value row = arith::MulIOp::create(b, loc, block.y, constant(kMmaTileM));
  Value col = arith::MulIOp::create(b, loc, block.x, constant(kMmaTileN));
  Value accumulator =
      loadFragment(b, loc, c, {}, lane, row, col, fragmentOfC(context), {2, 2});
  auto slabs = scf::ForOp::create(b, loc, constant(0), constant(k),
                                  constant(mma.k), ValueRange{accumulator});
  {
    OpBuilder::InsertionGuard inLoop(b);
    b.setInsertionPointToStart(slabs.getBody());
    Value kAt = slabs.getInductionVar();
    Value aFragment = loadFragment(b, loc, a, {}, lane, row, kAt,
                                   fragmentOfA(context, mma.k), mma.a);
    Value bFragment = loadFragment(b, loc, bMatrix, {}, lane, kAt, col,
                                   fragmentOfB(context, mma.k), mma.b);
    scf::YieldOp::create(
        b, loc,
        issueMma(b, loc, mma, aFragment, bFragment, slabs.getRegionIterArg(0)));
  }
  storeFragmentOfC(b, loc, slabs.getResult(0), c, {}, lane, row, col);
  gpu::TerminatorOp::create(b, loc);
  op->erase();
}

/// A contraction over several adjacent m dims (a dense layer applied to a
/// [batch, tokens, features] input) as one over their product, which the
/// block kernel takes: upstream's collapsing of iteration dims, which views
/// A and C through memref.collapse_shape. Only for element types tensor
/// cores multiply; else, or where the dims do not collapse, `op` itself.
static linalg::LinalgOp collapseRows(linalg::LinalgOp op, bool tf32) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op))
    return op;
  auto elementOf = [&](OpOperand *operand) {
    return getElementTypeOrSelf(operand->get().getType());
  };
  if (!mmaShapeFor(elementOf(op.getDpsInputOperand(0)),
                   elementOf(op.getDpsInputOperand(1)),
                   elementOf(op.getDpsInitOperand(0)), tf32))
    return op;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() < 2)
    return op;
  ReassociationIndices rows(dims->m.begin(), dims->m.end());
  llvm::sort(rows);
  for (auto [i, d] : llvm::enumerate(rows))
    if (d != rows.front() + i)
      return op;
  if (!linalg::areDimSequencesPreserved(op.getIndexingMapsArray(), {rows}))
    return op;
  IRRewriter rewriter(op);
  FailureOr<linalg::CollapseResult> collapsed =
      linalg::collapseOpIterationDims(op, {rows}, rewriter);
  if (failed(collapsed))
    return op;
  rewriter.replaceOp(op, collapsed->results);
  return collapsed->collapsedOp;
}

struct GpuMmaMatmulPass
    : mlir::trace::impl::TraceGpuMmaMatmulBase<GpuMmaMatmulPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    for (linalg::LinalgOp op : ops) {
      op = collapseRows(op, tf32);
      if ((wgmma && tileIntoWarpgroups(op)) || tileIntoBlocks(op, tf32))
        continue;
      auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation());
      if (!matmul)
        continue;
      if (std::optional<MmaShape> shape = matchTensorCoreMatmul(matmul, tf32))
        tileIntoWarps(matmul, *shape);
    }
  }
};

} // namespace
