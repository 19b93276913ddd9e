//===- MmaFragments.h - Tensor-core mma.sync operands of a warp's lanes ---===//
//
// What both tensor-core matmul kernels share: which instruction multiplies
// these element types, which elements of a tile each lane holds (the PTX
// ISA's fragment tables, lane = 4 * group + thread_in_group), and the
// instruction itself.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_CODEGEN_GPU_MMAFRAGMENTS_H
#define TRACEC_LIB_CODEGEN_GPU_MMAFRAGMENTS_H

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Builders.h"

#include <optional>
#include <utility>

namespace mlir::trace {

/// The rows and columns of C's tile one mma.sync computes.
inline constexpr int64_t kMmaTileM = 16, kMmaTileN = 8, kThreadsPerWarp = 32;

/// An mma.sync: its k extent and its operands' fragment shapes
/// (nvgpu.mma.sync's vector types: a row per register).
struct MmaShape {
  int64_t k;
  SmallVector<int64_t, 2> a, b;
  bool tf32 = false;
  /// bf16 multiplicands, which MLIR 22's nvgpu-to-nvvm cannot type:
  /// issued as nvvm.mma.sync.
  bool bf16 = false;
};

/// The instruction for these element types, if any: f16 products
/// accumulated in f32 or f16 and bf16 ones in f32 (m16n8k16), f32 as TF32
/// with f32 accumulation (m16n8k4, with `tf32`).
std::optional<MmaShape> mmaShapeFor(Type a, Type b, Type c, bool tf32);

/// The dims of `op` if tensor cores may run it: a contraction of two
/// buffers into a third whose body multiplies (after widening) and adds,
/// over a single m, n and k dim (and any batch dims).
std::optional<linalg::ContractionDimensions>
multiplyAddDimsOf(linalg::LinalgOp op);

/// (row, column) in its tile of each element of a lane's fragment, in the
/// fragment's order, as functions of the lane (d0).
using Fragment = SmallVector<std::pair<AffineExpr, AffineExpr>>;
Fragment fragmentOfA(MLIRContext *context, int64_t k);
Fragment fragmentOfB(MLIRContext *context, int64_t k);
Fragment fragmentOfC(MLIRContext *context);

/// This lane's fragment of the tile of `matrix` at (`row`, `col`) as a
/// vector of `shape` (element i at [i / columns, i % columns]); `leading`
/// indexes the dims before the matrix's two (a batch, a staging buffer's
/// stage); a `transposed` matrix is stored column by column.
Value loadFragment(OpBuilder &b, Location loc, Value matrix, ValueRange leading,
                   Value lane, Value row, Value col, const Fragment &fragment,
                   ArrayRef<int64_t> shape, bool transposed = false);

/// Stores C's fragment `accumulator` of this lane into the tile of `c` at
/// (`row`, `col`), after the `leading` indices.
void storeFragmentOfC(OpBuilder &b, Location loc, Value accumulator, Value c,
                      ValueRange leading, Value lane, Value row, Value col);

/// `accumulator` + `a` x `b`: one warp's mma.sync of `shape`.
Value issueMma(OpBuilder &b, Location loc, const MmaShape &shape, Value a,
               Value bFragment, Value accumulator);

} // namespace mlir::trace

#endif // TRACEC_LIB_CODEGEN_GPU_MMAFRAGMENTS_H
