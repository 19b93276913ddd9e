//===- GridLimits.h - CUDA's limits on a launch's grid --------------------===//
//
// The kernel builders size grids from static loop ranges; a grid over these
// limits would fail at launch, so they check against them first.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_TARGET_CUDA_GRIDLIMITS_H
#define TRACEC_LIB_TARGET_CUDA_GRIDLIMITS_H

#include <cstdint>

namespace mlir::trace {

/// Blocks in the grid's y and z dimensions.
inline constexpr int64_t kMaxGridYZ = 65535;

} // namespace mlir::trace

#endif // TRACEC_LIB_TARGET_CUDA_GRIDLIMITS_H
