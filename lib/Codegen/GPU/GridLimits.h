//===- GridLimits.h - CUDA's limits on a launch's grid --------------------===//
//
// A grid over these limits would fail at launch: the kernel builders check
// static grids against them, trace-gpu-grid-stride clamps the others.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_TARGET_CUDA_GRIDLIMITS_H
#define TRACEC_LIB_TARGET_CUDA_GRIDLIMITS_H

#include <cstdint>

namespace mlir::trace {

/// Blocks in the grid's x dimension.
inline constexpr int64_t kMaxGridX = 2147483647;
/// Blocks in the grid's y and z dimensions.
inline constexpr int64_t kMaxGridYZ = 65535;

} // namespace mlir::trace

#endif // TRACEC_LIB_TARGET_CUDA_GRIDLIMITS_H
