//===- MmaBlockTiles.cpp - Tensor-core matmul staged through shared memory ===//
//
//   gpu.launch blocks(N/BN, M/BM) threads(32 x warps)
//              workgroup(%sa: 2 x BM x BK, %sb: 2 x BK x BN) {
//     %c = C's fragments of this warp's tiles, in registers
//     copy A's and B's slab 0 into stage 0 (cp.async); commit
//     %d = scf.for %s = 0 to K/BK iter_args(%acc = %c) {
//       wait for the copies; barrier
//       if %s + 1 < K/BK: copy slab %s + 1 into the other stage; commit
//       per mma k-step of the slab: this warp's fragments from stage
//         %s mod 2 (ldmatrix), an mma.sync per tile of the warp
//     }
//     C's fragments = %d
//   }
//
// A block computes a BM x BN tile of C, each of its warps a 32 x 64 (or
// 32 x 32) part as 16 x 8 mma.sync tiles. A and B reach the tensor cores
// through shared memory in BK-deep slabs (64 bytes of a row: 32 halves, 16
// floats), copied asynchronously 16 bytes a thread a copy (cp.async.cg, as
// CUTLASS's sm80 kernels), two stages deep: the copy of the next slab runs
// under the products of this one. One barrier a slab suffices: after it
// every warp has finished the products of the previous slab, whose stage
// the next copy overwrites. Each element of A is read from global memory
// once per block column of C and of B once per block row, where the
// one-warp kernel read them once per 8 columns and 16 rows.
//
// 16-bit fragments come from shared memory by ldmatrix: A's four 8 x 8
// matrices as the m16n8k16 fragment's four registers, B's two transposed
// (B is k-major in memory, the fragment n-major). TF32 fragments (32-bit
// elements, which ldmatrix does not distribute as mma.m16n8k4 takes them)
// are loaded element by element. Rows of the stages are padded (16 bytes
// for A, 8 elements for B) so that the 8 rows an ldmatrix reads, or the
// elements a warp's scalar loads read, fall in distinct banks.
//
//===----------------------------------------------------------------------===//

#include "MmaBlockTiles.h"

#include "GridLimits.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace {

using namespace mlir::trace;

/// How a block's warps share its tile of C.
struct BlockTiling {
  /// Warps along m and n.
  int64_t warpsM, warpsN;
  /// 16 x 8 mma tiles one warp computes along m and n.
  int64_t tilesM, tilesN;

  int64_t blockM() const { return warpsM * tilesM * kMmaTileM; }
  int64_t blockN() const { return warpsN * tilesN * kMmaTileN; }
  int64_t threads() const { return warpsM * warpsN * kThreadsPerWarp; }
};

/// Largest first: 128 x 128 by 8 warps of 32 x 64, then 64 x 64 by 4 of
/// 32 x 32 (CUTLASS's sm80 defaults are of this shape).
constexpr BlockTiling kTilings[] = {{4, 2, 2, 8}, {2, 2, 2, 4}};

/// Bytes one cp.async moves, and of a row of a stage's slab.
constexpr int64_t kCopyBytes = 16, kSlabBytes = 64;

/// Stages of the copy pipeline: the slab in use and the next one.
constexpr int64_t kStages = 2;

/// The kernel being built: its sizes and the values its pieces share.
class BlockKernel {
public:
  BlockKernel(linalg::MatmulOp op, const MmaShape &mma,
              const BlockTiling &tiling)
      : op(op), mma(mma), tiling(tiling), b(op), loc(op.getLoc()),
        a(op.getDpsInputOperand(0)->get()),
        bMatrix(op.getDpsInputOperand(1)->get()),
        c(op.getDpsInitOperand(0)->get()) {
    auto type = cast<MemRefType>(a.getType());
    element = type.getElementType();
    int64_t bytes = type.getElementTypeBitWidth() / 8;
    slab = kSlabBytes / bytes;
    vector = kCopyBytes / bytes;
    m = type.getDimSize(0);
    k = type.getDimSize(1);
    n = cast<MemRefType>(bMatrix.getType()).getDimSize(1);
  }

  void build();

private:
  Value constant(OpBuilder &builder, int64_t value) {
    return arith::ConstantIndexOp::create(builder, loc, value);
  }
  Value plus(OpBuilder &builder, Value x, int64_t offset) {
    return offset ? arith::AddIOp::create(builder, loc, x,
                                          constant(builder, offset))
                  : x;
  }
  Value ofThread(OpBuilder &builder, AffineExpr expr) {
    return affine::AffineApplyOp::create(builder, loc,
                                         AffineMap::get(1, 0, expr), thread);
  }
  void copySlab(OpBuilder &builder, Value k0, Value stage);
  void copyChunks(OpBuilder &builder, Value source, Value stages, Value stage,
                  int64_t rows, int64_t columns, Value row0, Value col0,
                  SmallVectorImpl<Value> &tokens);
  SmallVector<Value> multiplySlab(OpBuilder &builder, Value stage,
                                  ValueRange accumulators);

  linalg::MatmulOp op;
  const MmaShape &mma;
  const BlockTiling &tiling;
  OpBuilder b;
  Location loc;
  Value a, bMatrix, c;
  Type element;
  int64_t slab, vector, m, k, n;
  // In the kernel: the staging buffers, this thread, its lane, its block's
  // and its warp's origins.
  Value stagesOfA, stagesOfB, thread, lane, blockRow, blockCol, warpRow,
      warpCol;
};

/// Copies rows x columns of `source` at (`row0`, `col0`) into `stage` of
/// `stages`, each thread `vector` elements at a time.
void BlockKernel::copyChunks(OpBuilder &builder, Value source, Value stages,
                             Value stage, int64_t rows, int64_t columns,
                             Value row0, Value col0,
                             SmallVectorImpl<Value> &tokens) {
  MLIRContext *context = builder.getContext();
  AffineExpr t = getAffineDimExpr(0, context);
  int64_t perRow = columns / vector, threads = tiling.threads();
  for (int64_t i = 0; i < rows * perRow / threads; ++i) {
    AffineExpr chunk = t + i * threads;
    Value row = ofThread(builder, chunk.floorDiv(perRow));
    Value col = ofThread(builder, (chunk % perRow) * vector);
    Value at[] = {arith::AddIOp::create(builder, loc, row0, row),
                  arith::AddIOp::create(builder, loc, col0, col)};
    tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
        builder, loc, stages, ValueRange{stage, row, col}, source, at,
        builder.getIndexAttr(vector), /*srcElements=*/Value(),
        /*bypassL1=*/builder.getUnitAttr()));
  }
}

/// Starts copying the slabs of A and B at `k0` into `stage`: one group.
void BlockKernel::copySlab(OpBuilder &builder, Value k0, Value stage) {
  SmallVector<Value> tokens;
  copyChunks(builder, a, stagesOfA, stage, tiling.blockM(), slab, blockRow, k0,
             tokens);
  copyChunks(builder, bMatrix, stagesOfB, stage, slab, tiling.blockN(), k0,
             blockCol, tokens);
  nvgpu::DeviceAsyncCreateGroupOp::create(builder, loc, tokens);
}

/// The warp's accumulators plus the products of the slab in `stage`.
SmallVector<Value> BlockKernel::multiplySlab(OpBuilder &builder, Value stage,
                                             ValueRange accumulators) {
  MLIRContext *context = builder.getContext();
  AffineExpr l = getAffineDimExpr(0, context);
  auto ofLane = [&](AffineExpr expr) -> Value {
    return affine::AffineApplyOp::create(builder, loc,
                                         AffineMap::get(1, 0, expr), lane);
  };
  // Where a lane's ldmatrix row starts in a 16-row tile: row l mod 16,
  // column 8 (l / 16).
  Value row16 = ofLane(l % 16), col8 = ofLane(l.floorDiv(16) * 8);
  SmallVector<Value> sums(accumulators);
  for (int64_t kk = 0; kk < slab; kk += mma.k) {
    SmallVector<Value> fragmentsOfA, fragmentsOfB;
    Value kAt = constant(builder, kk);
    for (int64_t i = 0; i < tiling.tilesM; ++i) {
      Value row = plus(builder, warpRow, i * kMmaTileM);
      if (mma.k == 4) {
        fragmentsOfA.push_back(loadFragment(builder, loc, stagesOfA, stage,
                                            lane, row, kAt,
                                            fragmentOfA(context, 4), mma.a));
        continue;
      }
      // Lane l addresses row l mod 16 of the 16 x 16 tile, columns
      // 8 (l / 16) onwards: matrices (rows 0-7, 8-15) x (columns 0-7, 8-15)
      // are the fragment's registers a0a1, a2a3, a4a5, a6a7.
      Value rowOfLane = arith::AddIOp::create(builder, loc, row, row16);
      Value colOfLane = plus(builder, col8, kk);
      fragmentsOfA.push_back(nvgpu::LdMatrixOp::create(
          builder, loc, VectorType::get(mma.a, element), stagesOfA,
          ValueRange{stage, rowOfLane, colOfLane}, /*transpose=*/false,
          /*numTiles=*/mma.a[0]));
    }
    for (int64_t j = 0; j < tiling.tilesN; ++j) {
      Value col = plus(builder, warpCol, j * kMmaTileN);
      if (mma.k == 4) {
        fragmentsOfB.push_back(loadFragment(builder, loc, stagesOfB, stage,
                                            lane, kAt, col,
                                            fragmentOfB(context, 4), mma.b));
        continue;
      }
      // Lanes 0-15 address rows kk + 0-15 of the 16 x 8 tile; transposed,
      // the two 8 x 8 matrices are the registers b0b1 and b2b3.
      Value rowOfLane = plus(builder, row16, kk);
      fragmentsOfB.push_back(nvgpu::LdMatrixOp::create(
          builder, loc, VectorType::get(mma.b, element), stagesOfB,
          ValueRange{stage, rowOfLane, col}, /*transpose=*/true,
          /*numTiles=*/mma.b[0]));
    }
    for (int64_t i = 0; i < tiling.tilesM; ++i)
      for (int64_t j = 0; j < tiling.tilesN; ++j) {
        Value &sum = sums[i * tiling.tilesN + j];
        sum =
            issueMma(builder, loc, mma, fragmentsOfA[i], fragmentsOfB[j], sum);
      }
  }
  return sums;
}

void BlockKernel::build() {
  MLIRContext *context = b.getContext();
  Attribute workgroup =
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  int64_t bm = tiling.blockM(), bn = tiling.blockN();
  auto typeOfStagesA = MemRefType::get({kStages, bm, slab + vector}, element,
                                       MemRefLayoutAttrInterface(), workgroup);
  auto typeOfStagesB = MemRefType::get({kStages, slab, bn + 8}, element,
                                       MemRefLayoutAttrInterface(), workgroup);
  Value one = constant(b, 1);
  auto launch = gpu::LaunchOp::create(
      b, loc, constant(b, n / bn), constant(b, m / bm), one,
      constant(b, tiling.threads()), one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{},
      /*workgroupAttributions=*/TypeRange{typeOfStagesA, typeOfStagesB});
  b.setInsertionPointToStart(&launch.getBody().front());
  stagesOfA = launch.getWorkgroupAttributions()[0];
  stagesOfB = launch.getWorkgroupAttributions()[1];
  gpu::KernelDim3 block = launch.getBlockIds();
  thread = launch.getThreadIds().x;
  AffineExpr t = getAffineDimExpr(0, context);
  lane = ofThread(b, t % kThreadsPerWarp);
  AffineExpr warp = t.floorDiv(kThreadsPerWarp);
  warpRow =
      ofThread(b, warp.floorDiv(tiling.warpsN) * tiling.tilesM * kMmaTileM);
  warpCol = ofThread(b, (warp % tiling.warpsN) * tiling.tilesN * kMmaTileN);
  blockRow = arith::MulIOp::create(b, loc, block.y, constant(b, bm));
  blockCol = arith::MulIOp::create(b, loc, block.x, constant(b, bn));
  Value rowInC = arith::AddIOp::create(b, loc, blockRow, warpRow);
  Value colInC = arith::AddIOp::create(b, loc, blockCol, warpCol);

  SmallVector<Value> accumulators;
  for (int64_t i = 0; i < tiling.tilesM; ++i)
    for (int64_t j = 0; j < tiling.tilesN; ++j)
      accumulators.push_back(loadFragment(
          b, loc, c, {}, lane, plus(b, rowInC, i * kMmaTileM),
          plus(b, colInC, j * kMmaTileN), fragmentOfC(context), {2, 2}));

  Value zero = constant(b, 0);
  copySlab(b, zero, zero);
  int64_t slabs = k / slab;
  auto loop =
      scf::ForOp::create(b, loc, zero, constant(b, slabs), one, accumulators);
  {
    OpBuilder::InsertionGuard inLoop(b);
    b.setInsertionPointToStart(loop.getBody());
    Value s = loop.getInductionVar();
    // Waits for every group committed so far (an empty group names them).
    Value all = nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, ValueRange{});
    nvgpu::DeviceAsyncWaitOp::create(b, loc, all, b.getI32IntegerAttr(0));
    gpu::BarrierOp::create(b, loc);
    Value stage = arith::RemUIOp::create(b, loc, s, constant(b, kStages));
    Value next = arith::AddIOp::create(b, loc, s, one);
    Value more = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, next,
                                       constant(b, slabs));
    auto ifMore = scf::IfOp::create(b, loc, more, /*withElseRegion=*/false);
    {
      OpBuilder then = OpBuilder::atBlockBegin(&ifMore.getThenRegion().front());
      Value nextStage = arith::SubIOp::create(then, loc, one, stage);
      copySlab(then,
               arith::MulIOp::create(then, loc, next, constant(then, slab)),
               nextStage);
    }
    scf::YieldOp::create(b, loc,
                         multiplySlab(b, stage, loop.getRegionIterArgs()));
  }
  for (int64_t i = 0; i < tiling.tilesM; ++i)
    for (int64_t j = 0; j < tiling.tilesN; ++j)
      storeFragmentOfC(b, loc, loop.getResult(i * tiling.tilesN + j), c, lane,
                       plus(b, rowInC, i * kMmaTileM),
                       plus(b, colInC, j * kMmaTileN));
  gpu::TerminatorOp::create(b, loc);
  op->erase();
}

} // namespace

bool mlir::trace::tileIntoBlocks(linalg::MatmulOp op, const MmaShape &mma) {
  auto a = cast<MemRefType>(op.getDpsInputOperand(0)->get().getType());
  auto bType = cast<MemRefType>(op.getDpsInputOperand(1)->get().getType());
  // cp.async reads 16 aligned bytes: rows start at multiples of the slab
  // (k, n are multiples of it below) of buffers that start aligned.
  if (!a.getLayout().isIdentity() || !bType.getLayout().isIdentity())
    return false;
  int64_t bytes = a.getElementTypeBitWidth() / 8;
  int64_t slab = kSlabBytes / bytes, vector = kCopyBytes / bytes;
  int64_t m = a.getDimSize(0), k = a.getDimSize(1), n = bType.getDimSize(1);
  for (const BlockTiling &tiling : kTilings) {
    int64_t bm = tiling.blockM(), bn = tiling.blockN();
    int64_t threads = tiling.threads();
    if (m % bm || n % bn || k % slab || n / bn > kMaxGridX ||
        m / bm > kMaxGridYZ || (bm * slab / vector) % threads ||
        (slab * bn / vector) % threads)
      continue;
    BlockKernel(op, mma, tiling).build();
    return true;
  }
  return false;
}
