//===- ContractionTiling.h - Micro-kernel and cache tiles -----------------===//
//
// The sizes the contraction passes share: the register tile of the FMA
// micro-kernel (m0 x n0, one k at a time) derived from the target's vector
// unit, and the cache tiles around it.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_TARGET_CPU_CONTRACTIONTILING_H
#define TRACEC_TARGET_CPU_CONTRACTIONTILING_H

#include "tracec/Codegen/CPU/CpuTarget.h"

#include "mlir/IR/Operation.h"

#include <cstdint>
#include <optional>

namespace tracec {

struct ContractionTiling {
  /// Register tile: m0 rows of n0 columns, accumulated over k0 at a time
  /// (1 for FMAs; 2 for vdpbf16ps, which sums a pair of bf16 products into
  /// each f32 lane). n0 is a whole number of vectors; m0 rows of them plus
  /// the row of the right operand fill the vector registers.
  int64_t m0, n0, k0;
  /// Cache tiles, in elements: one parallel task computes mc x nc of the
  /// result; kc of the reduction is swept per pass over that task, so the
  /// right operand's kc x n0 panel stays in L1 and the left operand's
  /// mc x kc block in L2.
  int64_t mc, nc, kc;
};

/// The tiling of a contraction of `elementBits`-wide floats on `cpu`.
ContractionTiling getContractionTiling(const CpuVectorInfo &cpu,
                                       unsigned elementBits);

/// The tiling of the contraction `op` on `cpu` from its element types: one
/// float type throughout (f32, f64), or bf16 operands summed in f32 where
/// `cpu` has vdpbf16ps; else nothing (the micro-kernel does not take it).
std::optional<ContractionTiling>
getContractionTiling(const CpuVectorInfo &cpu, mlir::Operation *op);

/// The name of the attribute the pack step leaves on a packed contraction:
/// its micro-kernel tile [m0, n0, k0], for the tile and vectorize steps.
inline constexpr llvm::StringLiteral kMicroKernelAttrName =
    "trace.micro_kernel";

} // namespace tracec

#endif // TRACEC_TARGET_CPU_CONTRACTIONTILING_H
