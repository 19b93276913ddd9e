//===- BlockShare.h - A linalg op's iterations shared by a block's threads ===//
//
// What one block of a gpu.launch runs for a linalg.generic on buffers
// once some of its dims are fixed (the block's output element, or row):
// the threads take strided turns over the other dims. Shared by
// trace-gpu-block-reductions (a block per output element of a reduction)
// and trace-gpu-row-blocks (a block per row of a chain of ops).
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_CODEGEN_GPU_BLOCKSHARE_H
#define TRACEC_LIB_CODEGEN_GPU_BLOCKSHARE_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir::trace {

/// The op that folds one value into a reduction's accumulator (`out`),
/// and what it is as a gpu.all_reduce.
struct Combiner {
  Operation *op;
  gpu::AllReduceOperation kind;
  TypedAttr identity;
};

/// The reductions a block combines as a tree: on buffers, one f32 or i32
/// output (what one warp shuffle moves), a body `yield combine(f(inputs),
/// out)` with combine one of add, mul, max, min, and, or, xor; not a
/// matmul-like contraction or a convolution (those want their many outputs
/// spread over threads; a dot product or matvec is fine).
std::optional<Combiner> matchBlockReduction(linalg::GenericOp op);

/// Checks a pass's threads-per-block option (a power of two from 32 to
/// 1024), with an error on `op` naming `pass` if it is not.
LogicalResult checkBlockThreads(Operation *op, StringRef pass, int64_t threads);

/// Rewrites the linalg.reduce ops under `root` as linalg.generic, the form
/// matchBlockReduction reads.
void generalizeReductions(Operation *root);

/// The sizes of `op`'s loops, built at `b`'s insertion point: constants
/// where static, memref.dim of the operands where dynamic.
SmallVector<OpFoldResult> loopExtents(OpBuilder &b, linalg::GenericOp op);

/// The threads a block needs for `length` iterations (unknown: all of
/// `maxThreads`): a power of two from 32 to `maxThreads`.
int64_t blockThreads(std::optional<int64_t> length, int64_t maxThreads);

/// Emits, inside a gpu.launch, the iterations of `op` whose fixed dims
/// have the indices `fixed` holds (the other entries null), shared by the
/// block's `threads` threads (this one is `thread`) in strided turns over
/// the other dims. A parallel op stores each iteration's results; a
/// reduction (`combiner`: its other dims are its reduction dims) combines
/// the threads' partial results with gpu.all_reduce, and thread 0 folds
/// the total into the output. With no dims left, thread 0 runs the one
/// iteration. Every thread of the block must reach it (the all_reduce).
void emitBlockShare(OpBuilder &b, Location loc, linalg::GenericOp op,
                    ArrayRef<OpFoldResult> extents, ArrayRef<Value> fixed,
                    Value thread, int64_t threads,
                    const std::optional<Combiner> &combiner);

/// The indices of `linear` in a row-major space of `extents`.
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                               ArrayRef<OpFoldResult> extents);

} // namespace mlir::trace

#endif // TRACEC_LIB_CODEGEN_GPU_BLOCKSHARE_H
