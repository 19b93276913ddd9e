//===- Ukernels.cpp - Which contractions call precompiled micro-kernels ---===//

#include "tracec/Codegen/CPU/Ukernels.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace tracec;

std::optional<llvm::StringRef> tracec::getUkernelIsa(const CpuVectorInfo &cpu) {
  if (cpu.vectorBits == 512 && cpu.avx2 && cpu.fma)
    return llvm::StringRef("avx512");
  if (cpu.vectorBits == 256 && cpu.avx2 && cpu.fma)
    return llvm::StringRef("avx2");
  return std::nullopt;
}

std::optional<std::string>
tracec::getMmt4dUkernel(const CpuVectorInfo &cpu, linalg::LinalgOp op,
                        const ContractionTiling &tiling) {
  std::optional<llvm::StringRef> isa = getUkernelIsa(cpu);
  auto isF32 = [](Value value) {
    return getElementTypeOrSelf(value.getType()).isF32();
  };
  if (!isa || !llvm::all_of(op->getOperands(), isF32) || tiling.k0 != 1)
    return std::nullopt;
  // The tiles the variants' register blocking is written for.
  if ((*isa == "avx512" && (tiling.m0 != 8 || tiling.n0 != 32)) ||
      (*isa == "avx2" && (tiling.m0 != 6 || tiling.n0 != 16)))
    return std::nullopt;
  return ("tracec_uk_mmt4d_f32_" + *isa).str();
}

std::optional<std::string> tracec::getTransposeUkernel(const CpuVectorInfo &cpu,
                                                       Type element) {
  std::optional<llvm::StringRef> isa = getUkernelIsa(cpu);
  if (!isa || !element.isF32())
    return std::nullopt;
  return ("tracec_uk_transpose_f32_" + *isa).str();
}

std::optional<PackedDims>
tracec::classifyPackedContraction(linalg::LinalgOp op) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims))
    return std::nullopt;
  PackedDims result;
  result.numLoops = op.getNumLoops();
  if (result.numLoops < 3)
    return std::nullopt;
  unsigned firstInner = result.numLoops - 3;
  // The outermost-but-packed dim of each role is the innermost outer one of
  // that role; the rest (batch, extra m dims of an im2col) tile by 1.
  auto pick = [&](ArrayRef<unsigned> role, std::optional<unsigned> &slot,
                  SmallVector<unsigned> &rest) {
    for (unsigned d : role) {
      if (d >= firstInner)
        continue;
      if (slot)
        rest.push_back(*slot);
      slot = d;
    }
  };
  pick(dims->m, result.m1, result.otherParallel);
  pick(dims->n, result.n1, result.otherParallel);
  pick(dims->k, result.k1, result.otherReduction);
  llvm::append_range(result.otherParallel, dims->batch);
  if (!result.m1 || !result.n1 || !result.k1)
    return std::nullopt;
  return result;
}
