//===- GpuMmaMatmul.cpp - Matmul on tensor cores (mma.sync) ---------------===//
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
// One warp per 16 x 8 tile of C, its accumulator in registers across k.
// A fragment holds the elements the PTX ISA assigns to a lane (its tables
// for mma.m16n8k16 with .f16 multiplicands and mma.m16n8k4 with .tf32:
// lane = 4 * group + thread_in_group), which upstream's
// transform.nvgpu.rewrite_matmul_as_mma_sync uses too; upstream's rewrite
// itself has no f32 accumulation of f16 products (what trace.matmul of
// f16 lowers to) and reloads C at every k-slab, hence this pass. bf16
// takes nvvm.mma.sync directly (MLIR 22's nvgpu-to-nvvm cannot type bf16
// multiplicands), with the same layouts.
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/GPU/Passes.h"

#include "GridLimits.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEGPUMMAMATMUL
#include "tracec/Codegen/GPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {

constexpr int64_t kTileM = 16, kTileN = 8, kWarp = 32;

/// An mma.sync this pass issues: its k extent and its operands' fragment
/// shapes (nvgpu.mma.sync's vector types: a row per register).
struct MmaShape {
  int64_t k;
  SmallVector<int64_t, 2> a, b;
  bool tf32 = false;
  /// bf16 multiplicands, which MLIR 22's nvgpu-to-nvvm cannot type: the
  /// pass issues nvvm.mma.sync itself.
  bool bf16 = false;
};

/// The instruction for these element types, if any: f16 products
/// accumulated in f32 or f16 and bf16 ones in f32 (m16n8k16), f32 as TF32
/// with f32 accumulation (m16n8k4, with `tf32`).
std::optional<MmaShape> mmaShapeFor(Type a, Type b, Type c, bool tf32) {
  if (a.isF16() && b.isF16() && (c.isF32() || c.isF16()))
    return MmaShape{16, {4, 2}, {2, 2}};
  if (a.isBF16() && b.isBF16() && c.isF32())
    return MmaShape{16, {4, 2}, {2, 2}, /*tf32=*/false, /*bf16=*/true};
  if (tf32 && a.isF32() && b.isF32() && c.isF32())
    return MmaShape{4, {2, 1}, {1, 1}, /*tf32=*/true};
  return std::nullopt;
}

/// Each register (row) of a bf16 fragment, two bf16 packed in an i32: the
/// operands nvvm.mma.sync takes.
SmallVector<Value> packedRegisters(OpBuilder &b, Location loc, Value fragment) {
  auto type = cast<VectorType>(fragment.getType());
  SmallVector<Value> registers;
  for (int64_t row = 0; row < type.getDimSize(0); ++row) {
    Value pair =
        vector::ExtractOp::create(b, loc, fragment, ArrayRef<int64_t>{row});
    Value packed = vector::BitCastOp::create(
        b, loc, VectorType::get({1}, b.getI32Type()), pair);
    registers.push_back(
        vector::ExtractOp::create(b, loc, packed, ArrayRef<int64_t>{0}));
  }
  return registers;
}

/// `accumulator` + `a` x `b` with bf16 multiplicands (m16n8k16, f32
/// accumulation), as nvgpu.mma.sync would issue it.
Value bf16MmaSync(OpBuilder &b, Location loc, Value a, Value bFragment,
                  Value accumulator) {
  SmallVector<Value> c;
  for (int64_t i = 0; i < 4; ++i)
    c.push_back(vector::ExtractOp::create(b, loc, accumulator,
                                          ArrayRef<int64_t>{i / 2, i % 2}));
  Type f32 = b.getF32Type();
  auto result =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  Value d = NVVM::MmaOp::create(
      b, loc, result, packedRegisters(b, loc, a),
      packedRegisters(b, loc, bFragment), c,
      ArrayRef<int64_t>{kTileM, kTileN, 16}, std::nullopt, std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  SmallVector<Value> elements;
  for (int64_t i = 0; i < 4; ++i)
    elements.push_back(LLVM::ExtractValueOp::create(b, loc, d, i));
  return vector::FromElementsOp::create(
      b, loc, cast<VectorType>(accumulator.getType()), elements);
}

/// (row, column) in its tile of each element of a lane's fragment, in the
/// fragment's order, as functions of the lane (d0): the PTX ISA's tables,
/// with group = lane / 4 and thread = lane % 4.
using Fragment = SmallVector<std::pair<AffineExpr, AffineExpr>>;

Fragment fragmentOfA(MLIRContext *context, int64_t k) {
  AffineExpr lane = getAffineDimExpr(0, context);
  AffineExpr group = lane.floorDiv(4), thread = lane % 4;
  if (k == 4) // a0: (group, thread), a1: (group + 8, thread)
    return {{group, thread}, {group + 8, thread}};
  // a0 a1: (group, 2 thread + 0|1), a2 a3: rows + 8, a4 ... a7: columns + 8
  Fragment elements;
  for (int64_t i = 0; i < 8; ++i)
    elements.push_back(
        {group + 8 * ((i / 2) % 2), thread * 2 + (i % 2) + 8 * (i / 4)});
  return elements;
}

Fragment fragmentOfB(MLIRContext *context, int64_t k) {
  AffineExpr lane = getAffineDimExpr(0, context);
  AffineExpr group = lane.floorDiv(4), thread = lane % 4;
  if (k == 4) // b0: (thread, group)
    return {{thread, group}};
  // b0 b1: (2 thread + 0|1, group), b2 b3: rows + 8
  Fragment elements;
  for (int64_t i = 0; i < 4; ++i)
    elements.push_back({thread * 2 + (i % 2) + 8 * (i / 2), group});
  return elements;
}

/// C's (and the result's): c0 c1: (group, 2 thread + 0|1), c2 c3: rows + 8.
Fragment fragmentOfC(MLIRContext *context) {
  AffineExpr lane = getAffineDimExpr(0, context);
  AffineExpr group = lane.floorDiv(4), thread = lane % 4;
  Fragment elements;
  for (int64_t i = 0; i < 4; ++i)
    elements.push_back({group + 8 * (i / 2), thread * 2 + (i % 2)});
  return elements;
}

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
  if (!shape || m == 0 || n == 0 || k == 0 || m % kTileM || n % kTileN ||
      k % shape->k || m / kTileM > trace::kMaxGridYZ ||
      n / kTileN > trace::kMaxGridX)
    return std::nullopt;
  return shape;
}

/// Where `element` of a lane's fragment of the tile at (`row`, `col`) is.
SmallVector<Value, 2>
elementIndices(OpBuilder &b, Location loc, Value lane, Value row, Value col,
               std::pair<AffineExpr, AffineExpr> element) {
  auto at = [&](Value origin, AffineExpr offset) -> Value {
    return arith::AddIOp::create(
        b, loc, origin,
        affine::AffineApplyOp::create(b, loc, AffineMap::get(1, 0, offset),
                                      lane));
  };
  return {at(row, element.first), at(col, element.second)};
}

/// This lane's fragment of `matrix` at (`row`, `col`), as a vector of
/// `shape` (element i at [i / columns, i % columns]).
Value loadFragment(OpBuilder &b, Location loc, Value matrix, Value lane,
                   Value row, Value col, const Fragment &fragment,
                   ArrayRef<int64_t> shape) {
  SmallVector<Value> elements;
  for (std::pair<AffineExpr, AffineExpr> element : fragment)
    elements.push_back(memref::LoadOp::create(
        b, loc, matrix, elementIndices(b, loc, lane, row, col, element)));
  auto type = VectorType::get(
      shape, cast<MemRefType>(matrix.getType()).getElementType());
  return vector::FromElementsOp::create(b, loc, type, elements);
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
  auto launch =
      gpu::LaunchOp::create(b, loc, constant(n / kTileN), constant(m / kTileM),
                            one, constant(kWarp), one, one);
  b.setInsertionPointToStart(&launch.getBody().front());
  gpu::KernelDim3 block = launch.getBlockIds();
  Value lane = launch.getThreadIds().x;
  Value row = arith::MulIOp::create(b, loc, block.y, constant(kTileM));
  Value col = arith::MulIOp::create(b, loc, block.x, constant(kTileN));
  Fragment ofC = fragmentOfC(context);
  Value accumulator =
      loadFragment(b, loc, c, lane, row, col, ofC, ArrayRef<int64_t>{2, 2});
  auto slabs = scf::ForOp::create(b, loc, constant(0), constant(k),
                                  constant(mma.k), ValueRange{accumulator});
  {
    OpBuilder::InsertionGuard inLoop(b);
    b.setInsertionPointToStart(slabs.getBody());
    Value kAt = slabs.getInductionVar();
    Value aFragment = loadFragment(b, loc, a, lane, row, kAt,
                                   fragmentOfA(context, mma.k), mma.a);
    Value bFragment = loadFragment(b, loc, bMatrix, lane, kAt, col,
                                   fragmentOfB(context, mma.k), mma.b);
    Value accumulated = slabs.getRegionIterArg(0);
    Value product =
        mma.bf16 ? bf16MmaSync(b, loc, aFragment, bFragment, accumulated)
                 : nvgpu::MmaSyncOp::create(
                       b, loc, aFragment, bFragment, accumulated,
                       ArrayRef<int64_t>{kTileM, kTileN, mma.k}, mma.tf32);
    scf::YieldOp::create(b, loc, product);
  }
  for (auto [i, at] : llvm::enumerate(ofC)) {
    Value element = vector::ExtractOp::create(
        b, loc, slabs.getResult(0),
        ArrayRef<int64_t>{static_cast<int64_t>(i) / 2,
                          static_cast<int64_t>(i) % 2});
    memref::StoreOp::create(b, loc, element, c,
                            elementIndices(b, loc, lane, row, col, at));
  }
  gpu::TerminatorOp::create(b, loc);
  op->erase();
}

struct GpuMmaMatmulPass
    : mlir::trace::impl::TraceGpuMmaMatmulBase<GpuMmaMatmulPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<std::pair<linalg::MatmulOp, MmaShape>> matmuls;
    getOperation().walk([&](linalg::MatmulOp op) {
      if (std::optional<MmaShape> shape = matchTensorCoreMatmul(op, tf32))
        matmuls.push_back({op, *shape});
    });
    for (auto &[op, shape] : matmuls)
      tileIntoWarps(op, shape);
  }
};

} // namespace
