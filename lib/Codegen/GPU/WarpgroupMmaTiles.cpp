//===- WarpgroupMmaTiles.cpp - Hopper matmul: TMA loads, wgmma ------------===//
//
//   %mapA, %mapB = tensor maps of A and B (host, before the launch)
//   gpu.launch blocks(N/128, M/128) threads(128) dynamic_shared_memory(S x 32
//   KB) {
//     thread 0: load slabs 0 ... S-1 into stages 0 ... S-1 (TMA)
//     %d = scf.for %j = 0 to K/64 iter_args(%acc = 0) {
//       wait for stage %j mod S (its mbarrier's phase)
//       %acc' = wgmma(stage's A 128 x 64, stage's B 64 x 128) + %acc
//       barrier
//       thread 0: load slab %j - 1 + S into the stage slab %j - 1 used
//     }
//     %d to shared memory; C += it, a row of 128 threads at a time
//   }
//
// Hopper's tensor cores take their operands from shared memory: one
// warpgroup (4 warps) issues wgmma.mma_async (m64n128k16) on matrix
// descriptors, where Ampere's mma.sync needed each warp's fragments in
// registers (MmaBlockTiles.h). Slabs reach shared memory by TMA
// (cp.async.bulk.tensor): one thread asks for a whole 128 x 64 box of A
// and two 64 x 64 boxes of B, 128-byte swizzled as wgmma reads them, and
// the bytes' arrival completes the stage's mbarrier phase. The wgmma of a
// slab runs asynchronously under the wait for the next (nvgpu.warpgroup.mma
// waits until one group is pending), so a stage is refilled one iteration
// after its products were issued, once they are complete. This is the
// pipeline of upstream's sm90 GEMM test (mlir/test/Integration/GPU/CUDA/
// sm90), S stages deep and over a grid of tiles.
//
// C += A B (linalg's semantics): the accumulators start at zero and are
// added to C after the loop, through shared memory so that each warp's
// reads and writes of C are whole rows.
//
//===----------------------------------------------------------------------===//

#include "WarpgroupMmaTiles.h"

#include "GridLimits.h"
#include "MmaFragments.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace {

using namespace mlir::trace;

/// A block's tile of C (m and n), and the k extent of a slab: 64 16-bit
/// elements are the 128 bytes of the swizzle's span.
constexpr int64_t kTile = 128, kSlab = 64;
/// B's slab is loaded as two boxes 64 columns (128 bytes) wide.
constexpr int64_t kBoxOfB = 64;
/// Stages of the load pipeline, threads of the block (one warpgroup).
constexpr int64_t kStages = 4, kThreads = 128;
/// Bytes of a stage's slab of A, of B, and of both.
constexpr int64_t kBytesOfA = kTile * kSlab * 2, kBytesOfB = kSlab * kTile * 2,
                  kStageBytes = kBytesOfA + kBytesOfB;
/// Swizzled tiles start at multiples of 1024 bytes; dynamic shared memory
/// is only 16-byte aligned, so the stages start up to 1008 bytes into it.
constexpr int64_t kSharedAlignment = 1024;
/// How long an mbarrier wait spins before it polls again.
constexpr int64_t kWaitTicks = 10000000;

/// A matmul the kernel runs.
struct WarpgroupMatmul {
  linalg::LinalgOp op;
  Value a, b, c;
  Type element;
  int64_t m, n, k;
};

/// Whether `map`'s results are exactly (d`first`, d`second`).
bool resultsAre(AffineMap map, unsigned first, unsigned second) {
  return map.getNumResults() == 2 &&
         map.getResult(0) == getAffineDimExpr(first, map.getContext()) &&
         map.getResult(1) == getAffineDimExpr(second, map.getContext());
}

std::optional<WarpgroupMatmul> matchWarpgroupMatmul(linalg::LinalgOp op) {
  std::optional<linalg::ContractionDimensions> dims = multiplyAddDimsOf(op);
  if (!dims || !dims->batch.empty())
    return std::nullopt;
  unsigned m = dims->m[0], n = dims->n[0], k = dims->k[0];
  OpOperand *a = op.getDpsInputOperand(0), *b = op.getDpsInputOperand(1);
  OpOperand *c = op.getDpsInitOperand(0);
  if (!resultsAre(op.getMatchingIndexingMap(a), m, k) ||
      !resultsAre(op.getMatchingIndexingMap(b), k, n) ||
      !resultsAre(op.getMatchingIndexingMap(c), m, n))
    return std::nullopt;
  // TMA reads A and B as dense row-major tensors (rows of 128 bytes and
  // more, 16-byte aligned as allocations are).
  auto typeOfA = cast<MemRefType>(a->get().getType());
  auto typeOfB = cast<MemRefType>(b->get().getType());
  auto typeOfC = cast<MemRefType>(c->get().getType());
  Type element = typeOfA.getElementType();
  if (!typeOfA.getLayout().isIdentity() || !typeOfB.getLayout().isIdentity() ||
      !typeOfA.hasStaticShape() || !typeOfB.hasStaticShape() ||
      !typeOfC.hasStaticShape() || !(element.isF16() || element.isBF16()) ||
      typeOfB.getElementType() != element || !typeOfC.getElementType().isF32())
    return std::nullopt;
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  WarpgroupMatmul matmul{op,      a->get(),   b->get(),   c->get(),
                         element, extents[m], extents[n], extents[k]};
  if (matmul.m == 0 || matmul.n == 0 || matmul.k == 0 || matmul.m % kTile ||
      matmul.n % kTile || matmul.k % kSlab || matmul.n / kTile > kMaxGridX ||
      matmul.m / kTile > kMaxGridYZ)
    return std::nullopt;
  return matmul;
}

void build(WarpgroupMatmul matmul) {
  OpBuilder b(matmul.op);
  Location loc = matmul.op.getLoc();
  MLIRContext *context = b.getContext();
  auto constant = [&](OpBuilder &builder, int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  Attribute shared =
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  auto sharedOf = [&](ArrayRef<int64_t> shape, Type element) {
    return MemRefType::get(shape, element, MemRefLayoutAttrInterface(), shared);
  };
  MemRefType boxOfA = sharedOf({kTile, kSlab}, matmul.element);
  MemRefType boxOfB = sharedOf({kSlab, kBoxOfB}, matmul.element);
  auto tensorMapOf = [&](MemRefType box) {
    return nvgpu::TensorMapDescriptorType::get(
        context, box, nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
        nvgpu::TensorMapL2PromoKind::L2PROMO_NONE,
        nvgpu::TensorMapOOBKind::OOB_ZERO,
        nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  };
  auto createTensorMap = [&](Value buffer, MemRefType box) -> Value {
    Value unranked = memref::CastOp::create(
        b, loc, UnrankedMemRefType::get(matmul.element, Attribute()), buffer);
    return nvgpu::TmaCreateDescriptorOp::create(
        b, loc, tensorMapOf(box), unranked,
        ValueRange{constant(b, box.getDimSize(0)),
                   constant(b, box.getDimSize(1))});
  };
  Value mapOfA = createTensorMap(matmul.a, boxOfA);
  Value mapOfB = createTensorMap(matmul.b, boxOfB);

  int64_t sharedBytes = kStages * kStageBytes + kSharedAlignment;
  Value one = constant(b, 1);
  auto launch = gpu::LaunchOp::create(
      b, loc, constant(b, matmul.n / kTile), constant(b, matmul.m / kTile), one,
      constant(b, kThreads), one, one,
      arith::ConstantIntOp::create(b, loc, sharedBytes, 32));
  b.setInsertionPointToStart(&launch.getBody().front());
  Value thread = launch.getThreadIds().x;
  gpu::KernelDim3 block = launch.getBlockIds();
  Value blockRow = arith::MulIOp::create(b, loc, block.y, constant(b, kTile));
  Value blockCol = arith::MulIOp::create(b, loc, block.x, constant(b, kTile));
  Value zero = constant(b, 0);
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread, zero);

  auto plus = [&](OpBuilder &builder, Value x, int64_t offset) -> Value {
    return arith::AddIOp::create(builder, loc, x, constant(builder, offset));
  };
  Value bytes = gpu::DynamicSharedMemoryOp::create(
      b, loc, sharedOf({ShapedType::kDynamic}, b.getI8Type()));
  // The stages start at the first multiple of 1024 bytes in it.
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, bytes);
  Value mask = constant(b, kSharedAlignment - 1);
  Value base = arith::AndIOp::create(
      b, loc,
      arith::SubIOp::create(b, loc, constant(b, kSharedAlignment),
                            arith::AndIOp::create(b, loc, address, mask)),
      mask);
  auto view = [&](OpBuilder &builder, Value byteOffset, MemRefType type) {
    return memref::ViewOp::create(builder, loc, type, bytes, byteOffset,
                                  ValueRange{});
  };
  auto stageStart = [&](OpBuilder &builder, Value stage) -> Value {
    return arith::AddIOp::create(
        builder, loc, base,
        arith::MulIOp::create(builder, loc, stage,
                              constant(builder, kStageBytes)));
  };

  auto barriers = nvgpu::MBarrierCreateOp::create(
      b, loc,
      nvgpu::MBarrierGroupType::get(
          context,
          gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup),
          kStages));
  for (int64_t s = 0; s < kStages; ++s)
    nvgpu::MBarrierInitOp::create(b, loc, barriers, one, constant(b, s), first);
  nvgpu::TmaPrefetchOp::create(b, loc, mapOfA, first);
  nvgpu::TmaPrefetchOp::create(b, loc, mapOfB, first);
  // The initialized barriers visible to TMA (as CUTLASS's sm90 kernels
  // fence them), then to every thread.
  NVVM::FenceMbarrierInitOp::create(b, loc);
  gpu::BarrierOp::create(b, loc);

  // Thread 0 asks for slab `slab` of A and B in `stage`; its bytes'
  // arrival completes the stage's phase.
  auto load = [&](OpBuilder &builder, Value slab, Value stage) {
    Value start = stageStart(builder, stage);
    Value k0 =
        arith::MulIOp::create(builder, loc, slab, constant(builder, kSlab));
    nvgpu::MBarrierArriveExpectTxOp::create(builder, loc, barriers,
                                            constant(builder, kStageBytes),
                                            stage, /*predicate=*/Value());
    // TMA coordinates go innermost first.
    nvgpu::TmaAsyncLoadOp::create(builder, loc, view(builder, start, boxOfA),
                                  barriers, mapOfA, ValueRange{k0, blockRow},
                                  stage, Value(), Value());
    for (int64_t half = 0; half < kTile / kBoxOfB; ++half)
      nvgpu::TmaAsyncLoadOp::create(
          builder, loc,
          view(builder,
               plus(builder, start, kBytesOfA + half * kSlab * kBoxOfB * 2),
               boxOfB),
          barriers, mapOfB,
          ValueRange{plus(builder, blockCol, half * kBoxOfB), k0}, stage,
          Value(), Value());
  };
  int64_t slabs = matmul.k / kSlab;
  {
    auto prologue = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
    OpBuilder then = OpBuilder::atBlockBegin(&prologue.getThenRegion().front());
    for (int64_t s = 0; s < std::min(kStages, slabs); ++s)
      load(then, constant(then, s), constant(then, s));
  }

  auto accumulatorType = nvgpu::WarpgroupAccumulatorType::get(
      context, VectorType::get({kTile, kTile}, b.getF32Type()));
  Value initial =
      nvgpu::WarpgroupMmaInitAccumulatorOp::create(b, loc, accumulatorType);
  auto loop = scf::ForOp::create(b, loc, zero, constant(b, slabs), one,
                                 ValueRange{initial});
  {
    OpBuilder::InsertionGuard inLoop(b);
    b.setInsertionPointToStart(loop.getBody());
    Value j = loop.getInductionVar();
    Value stages = constant(b, kStages);
    Value stage = arith::RemUIOp::create(b, loc, j, stages);
    // The n-th use of a stage waits for its barrier's phase n mod 2.
    Value use = arith::DivUIOp::create(b, loc, j, stages);
    Value parity = arith::TruncIOp::create(
        b, loc, b.getI1Type(),
        arith::IndexCastOp::create(b, loc, b.getI64Type(), use));
    nvgpu::MBarrierTryWaitParityOp::create(b, loc, barriers, parity,
                                           constant(b, kWaitTicks), stage);
    Value start = stageStart(b, stage);
    MemRefType tileOfA = boxOfA,
               tileOfB = sharedOf({kSlab, kTile}, matmul.element);
    Value descriptorOfA = nvgpu::WarpgroupGenerateDescriptorOp::create(
        b, loc, nvgpu::WarpgroupMatrixDescriptorType::get(context, tileOfA),
        view(b, start, tileOfA), mapOfA);
    Value descriptorOfB = nvgpu::WarpgroupGenerateDescriptorOp::create(
        b, loc, nvgpu::WarpgroupMatrixDescriptorType::get(context, tileOfB),
        view(b, plus(b, start, kBytesOfA), tileOfB), mapOfB);
    // B is k x n in memory (n-major): wgmma's transposed B.
    Value product = nvgpu::WarpgroupMmaOp::create(
        b, loc, accumulatorType, descriptorOfA, descriptorOfB,
        /*waitGroup=*/uint64_t(1), /*transposeA=*/UnitAttr(),
        /*transposeB=*/b.getUnitAttr(), loop.getRegionIterArg(0));
    // Every warp has waited for the previous slab's products: their stage
    // takes slab j - 1 + S.
    gpu::BarrierOp::create(b, loc);
    Value previous = arith::SubIOp::create(b, loc, j, one);
    Value refill = plus(b, previous, kStages);
    Value refills = arith::AndIOp::create(
        b, loc, first,
        arith::AndIOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, j, one),
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, refill,
                                  constant(b, slabs))));
    auto ifRefills = scf::IfOp::create(b, loc, refills,
                                       /*withElseRegion=*/false);
    {
      OpBuilder then =
          OpBuilder::atBlockBegin(&ifRefills.getThenRegion().front());
      load(then, refill, arith::RemUIOp::create(then, loc, previous, stages));
    }
    scf::YieldOp::create(b, loc, product);
  }
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  gpu::BarrierOp::create(b, loc);
  Value products = view(b, base, sharedOf({kTile, kTile}, b.getF32Type()));
  nvgpu::WarpgroupMmaStoreOp::create(b, loc, loop.getResult(0), products);
  gpu::BarrierOp::create(b, loc);
  // C += the products: thread t takes column t of each row.
  auto rows = scf::ForOp::create(b, loc, zero, constant(b, kTile), one);
  {
    OpBuilder::InsertionGuard inLoop(b);
    b.setInsertionPointToStart(rows.getBody());
    Value row = rows.getInductionVar();
    Value product =
        memref::LoadOp::create(b, loc, products, ValueRange{row, thread});
    SmallVector<Value, 2> at = {
        arith::AddIOp::create(b, loc, blockRow, row),
        arith::AddIOp::create(b, loc, blockCol, thread)};
    Value sum = arith::AddFOp::create(
        b, loc, memref::LoadOp::create(b, loc, matmul.c, at), product);
    memref::StoreOp::create(b, loc, sum, matmul.c, at);
  }
  gpu::TerminatorOp::create(b, loc);
  matmul.op->erase();
}

} // namespace

bool mlir::trace::tileIntoWarpgroups(linalg::LinalgOp op) {
  std::optional<WarpgroupMatmul> matmul = matchWarpgroupMatmul(op);
  if (!matmul)
    return false;
  build(std::move(*matmul));
  return true;
}
