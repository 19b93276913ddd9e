//===- Ukernels.h - Which contractions call precompiled micro-kernels -----===//
//
// What trace-cpu-tile-contractions (on tensors) and
// trace-cpu-lower-to-ukernels (on buffers) agree on: the marker, the
// variant of each kernel of include/tracec/ABI/tracec_ukernels.h a target
// CPU gets, and the roles of a packed contraction's loops.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_TARGET_CPU_UKERNELS_H
#define TRACEC_TARGET_CPU_UKERNELS_H

#include "tracec/Codegen/CPU/ContractionTiling.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace tracec {

/// Marks an op (a kc panel of a packed contraction, the transpose of a
/// lowered pack or unpack) that trace-cpu-lower-to-ukernels turns into a
/// call.
inline constexpr llvm::StringLiteral kUkernelAttrName = "trace.ukernel";

/// On a micro-kernel call: the operations it executes (multiply-adds or
/// elements moved), for trace-parallel-loops' estimate of a loop nest's
/// work, which counts a call as one op otherwise.
inline constexpr llvm::StringLiteral kUkernelWorkAttrName = "trace.work";

/// The suffix of the kernel variants `cpu` runs ("avx512", "avx2"), or
/// nothing when the library has no fast variant for it: its contractions
/// keep the generated micro-kernels.
std::optional<llvm::StringRef> getUkernelIsa(const CpuVectorInfo &cpu);

/// The mmt4d kernel for the packed contraction `op` tiled as `tiling` on
/// `cpu`, or nothing (only f32 operands and sums, with the tiles the
/// variant is written for).
std::optional<std::string> getMmt4dUkernel(const CpuVectorInfo &cpu,
                                           mlir::linalg::LinalgOp op,
                                           const ContractionTiling &tiling);

/// The relayout (transpose) kernel for `element` on `cpu`, or nothing.
std::optional<std::string> getTransposeUkernel(const CpuVectorInfo &cpu,
                                               mlir::Type element);

/// The most dims the relayout kernel takes.
inline constexpr unsigned kUkernelMaxRank = 6;

/// The loop positions of a packed contraction (pack step's layout: the
/// micro-kernel's [m0, n0, k0] last), split by role.
struct PackedDims {
  std::optional<unsigned> m1, n1, k1;
  llvm::SmallVector<unsigned> otherParallel, otherReduction;
  unsigned numLoops;
};
std::optional<PackedDims> classifyPackedContraction(mlir::linalg::LinalgOp op);

} // namespace tracec

#endif // TRACEC_TARGET_CPU_UKERNELS_H
