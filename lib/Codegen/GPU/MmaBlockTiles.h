//===- MmaBlockTiles.h - Tensor-core matmul staged through shared memory --===//

#ifndef TRACEC_LIB_CODEGEN_GPU_MMABLOCKTILES_H
#define TRACEC_LIB_CODEGEN_GPU_MMABLOCKTILES_H

#include "MmaFragments.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::trace {

/// Rewrites `op`, if it is a matmul (plain, batched, A or B transposed)
/// on static buffers whose element types an mma.sync multiplies (f32 in
/// TF32 only with `tf32`), whose C tiles into whole blocks and whose A and
/// B are row-major buffers, into a launch of blocks of warps that stage A
/// and B through shared memory. Returns whether it did.
bool tileIntoBlocks(linalg::LinalgOp op, bool tf32);

} // namespace mlir::trace

#endif // TRACEC_LIB_CODEGEN_GPU_MMABLOCKTILES_H
