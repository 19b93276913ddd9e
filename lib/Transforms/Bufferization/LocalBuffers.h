//===- LocalBuffers.h - Buffers freed where they are allocated ------------===//
//
// What trace-plan-workspace and trace-stack-loop-buffers both ask of a
// memref.alloc before they move it: that it is freed once, in its own
// block, and never leaves through a call, a return or a region.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_TRANSFORMS_BUFFERIZATION_LOCALBUFFERS_H
#define TRACEC_LIB_TRANSFORMS_BUFFERIZATION_LOCALBUFFERS_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::trace {

/// The one dealloc of `alloc`, in `alloc`'s block, calling `onUse` for
/// every other op that uses the buffer or a view of it; fails if the
/// buffer may outlive that block or be freed elsewhere: it (or a view of
/// it) goes to a call (but of a function that borrows its arguments), a return,
/// a region's successor (scf.for's iter_args, scf.yield) or a second dealloc.
FailureOr<memref::DeallocOp>
findLocalDealloc(memref::AllocOp alloc,
                 function_ref<void(Operation *)> onUse = {});

} // namespace mlir::trace

#endif // TRACEC_LIB_TRANSFORMS_BUFFERIZATION_LOCALBUFFERS_H
