//===- MmaBlockTiles.cpp - Tensor-core matmul staged through shared memory ===//
//
//   gpu.launch blocks(N/BN, M/BM, batch) threads(32 x warps)
//              dynamic_shared_memory(3 x BM x BK + 3 x BK x BN) {
//     %c = C's fragments of this warp's tiles, in registers
//     copy A's and B's slabs 0 and 1 into stages 0 and 1 (cp.async); a
//       group each
//     %d = scf.for %s = 0 to K/BK iter_args(%acc = %c) {
//       wait for slab %s's group; barrier
//       copy slab %s + 2 (if any) into stage (%s + 2) mod 3; a group
//       per mma k-step of the slab: this warp's fragments from stage
//         %s mod 3 (ldmatrix), an mma.sync per tile of the warp
//     }
//     C's fragments = %d
//   }
//
// A block computes a BM x BN tile of C (of one batch), each of its warps
// a 32 x 64 (or 32 x 32) part as 16 x 8 mma.sync tiles. A and B reach the
// tensor cores through shared memory in BK-deep slabs (64 bytes: 32
// halves, 16 floats), copied asynchronously 16 bytes a thread a copy
// (cp.async.cg, as CUTLASS's sm80 kernels), three stages deep: the copies
// of the next two slabs run under the products of this one. One barrier a
// slab suffices: after it every warp has finished the products of the
// previous slab, whose stage the next copy overwrites. Every iteration
// commits one group, empty past the last slab, so that slab s is always
// group s and waiting until two newer groups are pending waits for it.
// Three stages of a 128 x 128 block take 57 KB, more than the 48 KB of
// static shared memory: they are dynamic shared memory, which the runtime
// opts the kernel in to. Each element of A is read
// from global memory once per block column of C and of B once per block
// row, where the one-warp kernel read them once per 8 columns and 16 rows.
//
// A slab keeps its operand's layout in memory: A as m x k, or k x m where
// A is transposed (the backward pass's X^T dY); B as k x n, or n x k
// (attention's Q K^T). 16-bit fragments come from shared memory by
// ldmatrix, which hands a warp four (A) or two (B) 8 x 8 matrices as the
// m16n8k16 fragment's registers, transposing them (.trans) where the slab
// holds the other layout than the fragment's (A m-major, B n-major). TF32
// fragments (32-bit elements, which ldmatrix does not distribute as
// mma.m16n8k4 takes them) are loaded element by element. Rows of the
// stages are padded (16 bytes for k-wide rows, 8 elements for others) so
// that the 8 rows an ldmatrix reads, or the elements a warp's scalar loads
// read, fall in distinct banks.
//
//===----------------------------------------------------------------------===//

#include "MmaBlockTiles.h"

#include "GridLimits.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
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

/// Stages of the copy pipeline: the slab in use and the next two.
constexpr int64_t kStages = 3;

/// An operand the kernel stages: its buffer and indexing map, whether its
/// matrix is stored transposed (A as k x m, B as n x k), its batch indices
/// in the kernel.
struct Staged {
  Value buffer;
  AffineMap map;
  bool transposed = false;
  SmallVector<Value, 2> batch;
};

/// A matmul the kernel runs: its operands, loop extents, instruction and
/// tiling.
struct BlockMatmul {
  linalg::LinalgOp op;
  Staged a, b, c;
  linalg::ContractionDimensions dims;
  SmallVector<int64_t> extents;
  MmaShape mma;
  BlockTiling tiling;
};

/// The kernel being built: its sizes and the values its pieces share.
class BlockKernel {
public:
  explicit BlockKernel(BlockMatmul matmul)
      : matmul(std::move(matmul)), mma(this->matmul.mma),
        tiling(this->matmul.tiling), a(this->matmul.a), bMatrix(this->matmul.b),
        c(this->matmul.c), b(this->matmul.op), loc(this->matmul.op.getLoc()) {
    auto type = cast<MemRefType>(a.buffer.getType());
    element = type.getElementType();
    int64_t bytes = type.getElementTypeBitWidth() / 8;
    slab = kSlabBytes / bytes;
    vector = kCopyBytes / bytes;
    const linalg::ContractionDimensions &dims = this->matmul.dims;
    m = this->matmul.extents[dims.m[0]];
    n = this->matmul.extents[dims.n[0]];
    k = this->matmul.extents[dims.k[0]];
    batch = 1;
    for (unsigned d : dims.batch)
      batch *= this->matmul.extents[d];
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
  /// Each operand's batch indices, from the grid's z.
  void indexBatches(Value linearBatch);
  void copySlab(OpBuilder &builder, Value k0, Value stage);
  void copyChunks(OpBuilder &builder, const Staged &source, Value stages,
                  Value stage, int64_t rows, int64_t columns, Value row0,
                  Value col0, SmallVectorImpl<Value> &tokens);
  SmallVector<Value> multiplySlab(OpBuilder &builder, Value stage,
                                  ValueRange accumulators);

  BlockMatmul matmul;
  const MmaShape &mma;
  const BlockTiling &tiling;
  Staged &a, &bMatrix, &c;
  OpBuilder b;
  Location loc;
  Type element;
  int64_t slab, vector, m, n, k, batch;
  // In the kernel: the staging buffers, this thread, its lane, its block's
  // and its warp's origins.
  Value stagesOfA, stagesOfB, thread, lane, blockRow, blockCol, warpRow,
      warpCol;
};

void BlockKernel::indexBatches(Value linearBatch) {
  DenseMap<unsigned, Value> ofDim;
  for (unsigned d : llvm::reverse(matmul.dims.batch)) {
    Value extent = constant(b, matmul.extents[d]);
    ofDim[d] = arith::RemUIOp::create(b, loc, linearBatch, extent);
    linearBatch = arith::DivUIOp::create(b, loc, linearBatch, extent);
  }
  for (Staged *operand : {&a, &bMatrix, &c})
    for (AffineExpr result : operand->map.getResults().drop_back(2))
      operand->batch.push_back(
          ofDim.lookup(cast<AffineDimExpr>(result).getPosition()));
}

/// Copies rows x columns of `source` at (`row0`, `col0`) into `stage` of
/// `stages`, each thread `vector` elements at a time.
void BlockKernel::copyChunks(OpBuilder &builder, const Staged &source,
                             Value stages, Value stage, int64_t rows,
                             int64_t columns, Value row0, Value col0,
                             SmallVectorImpl<Value> &tokens) {
  MLIRContext *context = builder.getContext();
  AffineExpr t = getAffineDimExpr(0, context);
  int64_t perRow = columns / vector, threads = tiling.threads();
  for (int64_t i = 0; i < rows * perRow / threads; ++i) {
    AffineExpr chunk = t + i * threads;
    Value row = ofThread(builder, chunk.floorDiv(perRow));
    Value col = ofThread(builder, (chunk % perRow) * vector);
    SmallVector<Value, 4> at(source.batch.begin(), source.batch.end());
    at.push_back(arith::AddIOp::create(builder, loc, row0, row));
    at.push_back(arith::AddIOp::create(builder, loc, col0, col));
    tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
        builder, loc, stages, ValueRange{stage, row, col}, source.buffer, at,
        builder.getIndexAttr(vector), /*srcElements=*/Value(),
        /*bypassL1=*/builder.getUnitAttr()));
  }
}

/// Starts copying the slabs of A and B at `k0` into `stage`, each in its
/// layout in memory: one group.
void BlockKernel::copySlab(OpBuilder &builder, Value k0, Value stage) {
  SmallVector<Value> tokens;
  int64_t bm = tiling.blockM(), bn = tiling.blockN();
  if (a.transposed)
    copyChunks(builder, a, stagesOfA, stage, slab, bm, k0, blockRow, tokens);
  else
    copyChunks(builder, a, stagesOfA, stage, bm, slab, blockRow, k0, tokens);
  if (bMatrix.transposed)
    copyChunks(builder, bMatrix, stagesOfB, stage, bn, slab, blockCol, k0,
               tokens);
  else
    copyChunks(builder, bMatrix, stagesOfB, stage, slab, bn, k0, blockCol,
               tokens);
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
  // ldmatrix: lane l gives the address of row l mod 8 of matrix l / 8.
  Value row16 = ofLane(l % 16), row8 = ofLane(l % 8);
  Value second16 = ofLane(l.floorDiv(16) * 8),
        second8 = ofLane((l.floorDiv(8) % 2) * 8);
  auto ldmatrix = [&](Value stages, ArrayRef<int64_t> shape, Value row,
                      Value col, bool transpose) -> Value {
    return nvgpu::LdMatrixOp::create(
        builder, loc, VectorType::get(shape, element), stages,
        ValueRange{stage, row, col}, transpose, /*numTiles=*/shape[0]);
  };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(builder, loc, x, y);
  };
  SmallVector<Value> sums(accumulators);
  for (int64_t kk = 0; kk < slab; kk += mma.k) {
    SmallVector<Value> fragmentsOfA, fragmentsOfB;
    Value kAt = constant(builder, kk);
    for (int64_t i = 0; i < tiling.tilesM; ++i) {
      Value row = plus(builder, warpRow, i * kMmaTileM);
      if (mma.k == 4)
        fragmentsOfA.push_back(
            loadFragment(builder, loc, stagesOfA, stage, lane, row, kAt,
                         fragmentOfA(context, 4), mma.a, a.transposed));
      // The fragment's registers a0a1, a2a3, a4a5, a6a7 are the 16 x 16
      // tile's 8 x 8 matrices (rows 0-7, 8-15) x (columns 0-7, 8-15).
      else if (a.transposed) // k x m: rows k + l mod 8 + 8 (l / 16)
        fragmentsOfA.push_back(ldmatrix(stagesOfA, mma.a,
                                        plus(builder, add(row8, second16), kk),
                                        add(row, second8), true));
      else // m x k: row l mod 16, columns 8 (l / 16) onwards
        fragmentsOfA.push_back(ldmatrix(stagesOfA, mma.a, add(row, row16),
                                        plus(builder, second16, kk), false));
    }
    for (int64_t j = 0; j < tiling.tilesN; ++j) {
      Value col = plus(builder, warpCol, j * kMmaTileN);
      if (mma.k == 4)
        fragmentsOfB.push_back(
            loadFragment(builder, loc, stagesOfB, stage, lane, kAt, col,
                         fragmentOfB(context, 4), mma.b, bMatrix.transposed));
      // The registers b0b1, b2b3 are the 16 x 8 tile's rows 0-7 and 8-15.
      else if (bMatrix.transposed) // n x k: row l mod 8, columns 8 (l / 8)
        fragmentsOfB.push_back(ldmatrix(stagesOfB, mma.b, add(col, row8),
                                        plus(builder, second8, kk), false));
      else // k x n: rows kk + l mod 16
        fragmentsOfB.push_back(
            ldmatrix(stagesOfB, mma.b, plus(builder, row16, kk), col, true));
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
  // Rows k wide are padded by 16 bytes, others by 8 elements.
  auto stages = [&](int64_t rows, int64_t columns) {
    int64_t pad = columns == slab ? vector : 8;
    return MemRefType::get({kStages, rows, columns + pad}, element,
                           MemRefLayoutAttrInterface(), workgroup);
  };
  MemRefType typeOfStagesA = a.transposed ? stages(slab, bm) : stages(bm, slab);
  MemRefType typeOfStagesB =
      bMatrix.transposed ? stages(bn, slab) : stages(slab, bn);
  auto bytesOf = [](MemRefType type) {
    return type.getNumElements() * type.getElementTypeBitWidth() / 8;
  };
  // (Both multiples of 16 bytes: rows are 64 bytes and more.)
  int64_t bytesOfA = bytesOf(typeOfStagesA), bytesOfB = bytesOf(typeOfStagesB);
  Value one = constant(b, 1);
  auto launch = gpu::LaunchOp::create(
      b, loc, constant(b, n / bn), constant(b, m / bm), constant(b, batch),
      constant(b, tiling.threads()), one, one,
      arith::ConstantIntOp::create(b, loc, bytesOfA + bytesOfB, 32));
  b.setInsertionPointToStart(&launch.getBody().front());
  Value shared = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                      MemRefLayoutAttrInterface(), workgroup));
  stagesOfA = memref::ViewOp::create(b, loc, typeOfStagesA, shared,
                                     constant(b, 0), ValueRange{});
  stagesOfB = memref::ViewOp::create(b, loc, typeOfStagesB, shared,
                                     constant(b, bytesOfA), ValueRange{});
  gpu::KernelDim3 block = launch.getBlockIds();
  thread = launch.getThreadIds().x;
  indexBatches(block.z);
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
          b, loc, c.buffer, c.batch, lane, plus(b, rowInC, i * kMmaTileM),
          plus(b, colInC, j * kMmaTileN), fragmentOfC(context), {2, 2}));

  Value zero = constant(b, 0);
  int64_t slabs = k / slab;
  for (int64_t s = 0; s + 1 < kStages; ++s) {
    if (s < slabs)
      copySlab(b, constant(b, s * slab), constant(b, s));
    else
      nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, ValueRange{});
  }
  auto loop =
      scf::ForOp::create(b, loc, zero, constant(b, slabs), one, accumulators);
  {
    OpBuilder::InsertionGuard inLoop(b);
    b.setInsertionPointToStart(loop.getBody());
    Value s = loop.getInductionVar();
    // Waits for slab s's group: all but the newest kStages - 1 groups,
    // counting an empty group that names them.
    Value all = nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, ValueRange{});
    nvgpu::DeviceAsyncWaitOp::create(b, loc, all,
                                     b.getI32IntegerAttr(kStages - 1));
    gpu::BarrierOp::create(b, loc);
    Value stages = constant(b, kStages);
    Value stage = arith::RemUIOp::create(b, loc, s, stages);
    Value next = plus(b, s, kStages - 1);
    Value more = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, next,
                                       constant(b, slabs));
    auto ifMore = scf::IfOp::create(b, loc, more, /*withElseRegion=*/true);
    {
      OpBuilder then = OpBuilder::atBlockBegin(&ifMore.getThenRegion().front());
      copySlab(then,
               arith::MulIOp::create(then, loc, next, constant(then, slab)),
               arith::RemUIOp::create(then, loc, next, stages));
      OpBuilder otherwise =
          OpBuilder::atBlockBegin(&ifMore.getElseRegion().front());
      nvgpu::DeviceAsyncCreateGroupOp::create(otherwise, loc, ValueRange{});
    }
    scf::YieldOp::create(b, loc,
                         multiplySlab(b, stage, loop.getRegionIterArgs()));
  }
  for (int64_t i = 0; i < tiling.tilesM; ++i)
    for (int64_t j = 0; j < tiling.tilesN; ++j)
      storeFragmentOfC(b, loc, loop.getResult(i * tiling.tilesN + j), c.buffer,
                       c.batch, lane, plus(b, rowInC, i * kMmaTileM),
                       plus(b, colInC, j * kMmaTileN));
  gpu::TerminatorOp::create(b, loc);
  matmul.op->erase();
}

/// Whether `map`'s results are batch dims followed by `first`, `second`
/// (or, where `transposable`, `second`, `first`: then sets `transposed`).
bool hasMatrixDims(AffineMap map, const linalg::ContractionDimensions &dims,
                   unsigned first, unsigned second, bool transposable,
                   bool &transposed) {
  if (!map.isProjectedPermutation() || map.getNumResults() < 2)
    return false;
  ArrayRef<AffineExpr> results = map.getResults();
  for (AffineExpr result : results.drop_back(2))
    if (!llvm::is_contained(dims.batch,
                            cast<AffineDimExpr>(result).getPosition()))
      return false;
  unsigned row = cast<AffineDimExpr>(results[results.size() - 2]).getPosition();
  unsigned col = cast<AffineDimExpr>(results.back()).getPosition();
  transposed = transposable && row == second && col == first;
  return (row == first && col == second) || transposed;
}

/// The matmul `op` is, if the block kernel runs it: a contraction of
/// single m, n and k dims (and batch dims) on static buffers whose body
/// multiplies (after widening) and adds, with A and B row-major buffers
/// (cp.async reads 16 aligned bytes: rows start at multiples of 64 bytes,
/// as k, m and n are multiples of the slab and block below) and C's last
/// dims m and n.
std::optional<BlockMatmul> matchBlockMatmul(linalg::LinalgOp op, bool tf32) {
  std::optional<linalg::ContractionDimensions> dims = multiplyAddDimsOf(op);
  if (!dims)
    return std::nullopt;
  BlockMatmul matmul;
  matmul.op = op;
  matmul.dims = *dims;
  matmul.extents = op.getStaticLoopRanges();
  if (llvm::any_of(matmul.extents, [](int64_t e) {
        return ShapedType::isDynamic(e) || e == 0;
      }))
    return std::nullopt;
  unsigned m = dims->m[0], n = dims->n[0], k = dims->k[0];
  OpOperand *a = op.getDpsInputOperand(0), *bOperand = op.getDpsInputOperand(1);
  OpOperand *c = op.getDpsInitOperand(0);
  auto staged = [&](OpOperand *operand) {
    Staged operandOf;
    operandOf.buffer = operand->get();
    operandOf.map = op.getMatchingIndexingMap(operand);
    return operandOf;
  };
  matmul.a = staged(a);
  matmul.b = staged(bOperand);
  matmul.c = staged(c);
  bool cTransposed;
  if (!hasMatrixDims(matmul.a.map, *dims, m, k, true, matmul.a.transposed) ||
      !hasMatrixDims(matmul.b.map, *dims, k, n, true, matmul.b.transposed) ||
      !hasMatrixDims(matmul.c.map, *dims, m, n, false, cTransposed))
    return std::nullopt;
  for (Value buffer : {matmul.a.buffer, matmul.b.buffer})
    if (!cast<MemRefType>(buffer.getType()).getLayout().isIdentity())
      return std::nullopt;
  auto elementOf = [](Value buffer) {
    return cast<MemRefType>(buffer.getType()).getElementType();
  };
  std::optional<MmaShape> mma =
      mmaShapeFor(elementOf(matmul.a.buffer), elementOf(matmul.b.buffer),
                  elementOf(matmul.c.buffer), tf32);
  if (!mma)
    return std::nullopt;
  matmul.mma = *mma;
  int64_t bytes = elementOf(matmul.a.buffer).getIntOrFloatBitWidth() / 8;
  int64_t slab = kSlabBytes / bytes, vector = kCopyBytes / bytes;
  int64_t batch = 1;
  for (unsigned d : dims->batch)
    batch *= matmul.extents[d];
  int64_t rows = matmul.extents[m], cols = matmul.extents[n];
  for (const BlockTiling &tiling : kTilings) {
    int64_t bm = tiling.blockM(), bn = tiling.blockN();
    int64_t threads = tiling.threads();
    if (rows % bm || cols % bn || matmul.extents[k] % slab ||
        cols / bn > kMaxGridX || rows / bm > kMaxGridYZ || batch > kMaxGridYZ ||
        (bm * slab / vector) % threads || (slab * bn / vector) % threads)
      continue;
    matmul.tiling = tiling;
    return matmul;
  }
  return std::nullopt;
}

} // namespace

bool mlir::trace::tileIntoBlocks(linalg::LinalgOp op, bool tf32) {
  std::optional<BlockMatmul> matmul = matchBlockMatmul(op, tf32);
  if (!matmul)
    return false;
  BlockKernel(std::move(*matmul)).build();
  return true;
}
