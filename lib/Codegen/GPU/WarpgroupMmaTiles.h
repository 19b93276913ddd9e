//===- WarpgroupMmaTiles.h - Hopper matmul: TMA loads, wgmma --------------===//

#ifndef TRACEC_LIB_CODEGEN_GPU_WARPGROUPMMATILES_H
#define TRACEC_LIB_CODEGEN_GPU_WARPGROUPMMATILES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::trace {

/// Rewrites `op`, if it is a matmul C += A B of row-major f16 or bf16
/// buffers A (m x k) and B (k x n) into f32 C, m and n multiples of 128
/// and k of 64, into a launch of one warpgroup per 128 x 128 tile of C
/// that loads A's and B's slabs by TMA and multiplies them with wgmma
/// (sm_90a). Returns whether it did.
bool tileIntoWarpgroups(linalg::LinalgOp op);

} // namespace mlir::trace

#endif // TRACEC_LIB_CODEGEN_GPU_WARPGROUPMMATILES_H
