//===- ContractionTiling.cpp - Micro-kernel and cache tiles ---------------===//

#include "tracec/Codegen/CPU/ContractionTiling.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/TypeUtilities.h"

#include <algorithm>

using namespace mlir;
using namespace tracec;

ContractionTiling tracec::getContractionTiling(const CpuVectorInfo &cpu,
                                               unsigned elementBits) {
  ContractionTiling tiling;
  int64_t lanes = std::max<int64_t>(1, cpu.vectorBits / elementBits);
  // Two vectors per row: each broadcast element of the left operand feeds
  // two FMAs, and two rows of loads per step keep both FMA pipes busy.
  int64_t vectorsPerRow = 2;
  tiling.n0 = vectorsPerRow * lanes;
  // Accumulators for m0 rows, the right operand's row, and a spare for the
  // broadcast: 8 rows with 32 registers (AVX-512), 6 with 16 (AVX2).
  int64_t rows = (cpu.numRegisters - vectorsPerRow - 2) / vectorsPerRow;
  tiling.m0 = std::clamp<int64_t>(rows, 1, 8);
  tiling.k0 = 1;
  // kc x n0 of the right operand (32 KiB for f32 on AVX-512) in L1; the
  // left operand's mc x kc block (128 KiB) in L2.
  tiling.kc = std::max<int64_t>(64, (32 * 1024 * 8) / (elementBits * tiling.n0));
  tiling.mc = std::max<int64_t>(tiling.m0, (128 / tiling.m0) * tiling.m0);
  tiling.nc = std::max<int64_t>(tiling.n0, (256 / tiling.n0) * tiling.n0);
  return tiling;
}

std::optional<ContractionTiling>
tracec::getContractionTiling(const CpuVectorInfo &cpu, Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.getNumDpsInits() != 1)
    return std::nullopt;
  Type acc = getElementTypeOrSelf(linalgOp.getDpsInits()[0].getType());
  SmallVector<Type> inputs;
  for (Value input : linalgOp.getDpsInputs())
    inputs.push_back(getElementTypeOrSelf(input.getType()));
  auto all = [&](auto predicate) { return llvm::all_of(inputs, predicate); };
  if ((acc.isF32() || acc.isF64()) &&
      all([&](Type input) { return input == acc; }))
    return getContractionTiling(cpu, acc.getIntOrFloatBitWidth());
  if (acc.isF32() && cpu.avx512bf16 &&
      all([](Type input) { return input.isBF16(); })) {
    // The f32 accumulators' register tile, a bf16 pair per lane and step;
    // the right operand's kc x n0 panel still fills 32 KiB of L1.
    ContractionTiling tiling = getContractionTiling(cpu, 32);
    tiling.k0 = 2;
    tiling.kc = (32 * 1024) / (2 * tiling.n0);
    return tiling;
  }
  return std::nullopt;
}
