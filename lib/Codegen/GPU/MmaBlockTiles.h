//===- MmaBlockTiles.h - Tensor-core matmul staged through shared memory --===//

#ifndef TRACEC_LIB_CODEGEN_GPU_MMABLOCKTILES_H
#define TRACEC_LIB_CODEGEN_GPU_MMABLOCKTILES_H

#include "MmaFragments.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::trace {

/// Rewrites `op` (a matmul on static buffers whose element types `mma`
/// multiplies) into a launch of blocks of warps that stage A and B through
/// shared memory, where C tiles into whole blocks and A and B are
/// row-major. Returns whether it did.
bool tileIntoBlocks(linalg::MatmulOp op, const MmaShape &mma);

} // namespace mlir::trace

#endif // TRACEC_LIB_CODEGEN_GPU_MMABLOCKTILES_H
