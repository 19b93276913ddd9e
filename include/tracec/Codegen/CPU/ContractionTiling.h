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
  /// Register tile: m0 rows of n0 columns, accumulated over k0 = 1 at a
  /// time. n0 is a whole number of vectors; m0 rows of them plus the row of
  /// the right operand fill the vector registers.
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

/// The name of the attribute the pack step leaves on a packed contraction:
/// its micro-kernel tile [m0, n0, k0], for the tile and vectorize steps.
inline constexpr llvm::StringLiteral kMicroKernelAttrName =
    "trace.micro_kernel";

} // namespace tracec

#endif // TRACEC_TARGET_CPU_CONTRACTIONTILING_H
