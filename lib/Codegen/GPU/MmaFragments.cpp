//===- MmaFragments.cpp - Tensor-core mma.sync operands of a warp's lanes -===//
//
// The fragments are the PTX ISA's tables for mma.m16n8k16 with .f16/.bf16
// multiplicands and mma.m16n8k4 with .tf32, which upstream's
// transform.nvgpu.rewrite_matmul_as_mma_sync uses too. bf16 takes
// nvvm.mma.sync directly (MLIR 22's nvgpu-to-nvvm cannot type bf16
// multiplicands), with the same layouts.
//
//===----------------------------------------------------------------------===//

#include "MmaFragments.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace mlir::trace {

std::optional<MmaShape> mmaShapeFor(Type a, Type b, Type c, bool tf32) {
  if (a.isF16() && b.isF16() && (c.isF32() || c.isF16()))
    return MmaShape{16, {4, 2}, {2, 2}};
  if (a.isBF16() && b.isBF16() && c.isF32())
    return MmaShape{16, {4, 2}, {2, 2}, /*tf32=*/false, /*bf16=*/true};
  if (tf32 && a.isF32() && b.isF32() && c.isF32())
    return MmaShape{4, {2, 1}, {1, 1}, /*tf32=*/true};
  return std::nullopt;
}

std::optional<linalg::ContractionDimensions>
multiplyAddDimsOf(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op))
    return std::nullopt;
  for (Operation &inBody : op->getRegion(0).front())
    if (!isa<arith::ExtFOp, arith::MulFOp, arith::AddFOp, linalg::YieldOp>(
            inBody))
      return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1)
    return std::nullopt;
  return *dims;
}

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

/// Where `element` of a lane's fragment of the tile at (`row`, `col`) is,
/// after the `leading` indices (column first if `transposed`).
static SmallVector<Value, 3>
elementIndices(OpBuilder &b, Location loc, ValueRange leading, Value lane,
               Value row, Value col, std::pair<AffineExpr, AffineExpr> element,
               bool transposed = false) {
  auto at = [&](Value origin, AffineExpr offset) -> Value {
    return arith::AddIOp::create(
        b, loc, origin,
        affine::AffineApplyOp::create(b, loc, AffineMap::get(1, 0, offset),
                                      lane));
  };
  SmallVector<Value, 3> indices(leading);
  indices.push_back(at(row, element.first));
  indices.push_back(at(col, element.second));
  if (transposed)
    std::swap(indices[indices.size() - 2], indices.back());
  return indices;
}

Value loadFragment(OpBuilder &b, Location loc, Value matrix, ValueRange leading,
                   Value lane, Value row, Value col, const Fragment &fragment,
                   ArrayRef<int64_t> shape, bool transposed) {
  SmallVector<Value> elements;
  for (std::pair<AffineExpr, AffineExpr> element : fragment)
    elements.push_back(memref::LoadOp::create(
        b, loc, matrix,
        elementIndices(b, loc, leading, lane, row, col, element, transposed)));
  auto type = VectorType::get(
      shape, cast<MemRefType>(matrix.getType()).getElementType());
  return vector::FromElementsOp::create(b, loc, type, elements);
}

void storeFragmentOfC(OpBuilder &b, Location loc, Value accumulator, Value c,
                      ValueRange leading, Value lane, Value row, Value col) {
  for (auto [i, at] : llvm::enumerate(fragmentOfC(b.getContext()))) {
    Value element = vector::ExtractOp::create(
        b, loc, accumulator,
        ArrayRef<int64_t>{static_cast<int64_t>(i) / 2,
                          static_cast<int64_t>(i) % 2});
    memref::StoreOp::create(
        b, loc, element, c,
        elementIndices(b, loc, leading, lane, row, col, at));
  }
}

/// Each register (row) of a bf16 fragment, two bf16 packed in an i32: the
/// operands nvvm.mma.sync takes.
static SmallVector<Value> packedRegisters(OpBuilder &b, Location loc,
                                          Value fragment) {
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
static Value bf16MmaSync(OpBuilder &b, Location loc, Value a, Value bFragment,
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
      ArrayRef<int64_t>{kMmaTileM, kMmaTileN, 16}, std::nullopt, std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  SmallVector<Value> elements;
  for (int64_t i = 0; i < 4; ++i)
    elements.push_back(LLVM::ExtractValueOp::create(b, loc, d, i));
  return vector::FromElementsOp::create(
      b, loc, cast<VectorType>(accumulator.getType()), elements);
}

Value issueMma(OpBuilder &b, Location loc, const MmaShape &shape, Value a,
               Value bFragment, Value accumulator) {
  if (shape.bf16)
    return bf16MmaSync(b, loc, a, bFragment, accumulator);
  return nvgpu::MmaSyncOp::create(
      b, loc, a, bFragment, accumulator,
      ArrayRef<int64_t>{kMmaTileM, kMmaTileN, shape.k}, shape.tf32);
}

} // namespace mlir::trace
