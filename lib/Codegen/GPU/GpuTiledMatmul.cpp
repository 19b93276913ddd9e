//===- GpuTiledMatmul.cpp - Matmul through shared-memory tiles ------------===//
//
// The classic tiled kernel: a block computes a T x T tile of C, stepping
// along k one T-wide slab at a time; its threads first copy the slabs of A
// and B into shared memory (one element each, zero outside the matrices),
// wait at a barrier, accumulate T products from shared memory, and wait
// again before the next slab overwrites it. Each element of A and B is read
// from global memory once per tile instead of once per product.
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/GPU/Passes.h"

#include "AffineMapValues.h"
#include "FoldedIndexMath.h"
#include "GridLimits.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEGPUTILEDMATMUL
#include "tracec/Codegen/GPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;
using mlir::trace::applyMap;
using mlir::trace::foldedCeilDiv;
using mlir::trace::foldedProduct;
using mlir::trace::materialize;

using mlir::trace::kMaxGridYZ;

/// Single m, n and k dimensions, one element type (float or integer), on
/// buffers: the contractions (matmul, transposed, batched, broadcast batch
/// dims) this pass tiles, at static or dynamic sizes.
static FailureOr<linalg::ContractionDimensions>
matchMatmul(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op))
    return failure();
  Type type = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
  if (!isa<FloatType, IntegerType>(type) || type.isInteger(1))
    return failure();
  for (OpOperand *input : op.getDpsInputOperands())
    if (getElementTypeOrSelf(input->get().getType()) != type)
      return failure();
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1)
    return failure();
  return dims;
}

static void rewrite(linalg::LinalgOp op,
                    const linalg::ContractionDimensions &dims, int64_t tile) {
  Location loc = op.getLoc();
  MLIRContext *context = op.getContext();
  OpBuilder b(op);
  // Sizes: constants where static, memref.dim where dynamic (the grid is
  // then computed at run time; trace-gpu-grid-stride keeps it in CUDA's
  // limits).
  SmallVector<Range> ranges = op.createLoopRanges(b, loc);
  OpFoldResult m = ranges[dims.m[0]].size, n = ranges[dims.n[0]].size,
               k = ranges[dims.k[0]].size;
  SmallVector<OpFoldResult> batchExtents;
  for (unsigned d : dims.batch)
    batchExtents.push_back(ranges[d].size);
  OpFoldResult batch = foldedProduct(b, loc, batchExtents);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  Type type = getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType());
  bool isFloat = isa<FloatType>(type);
  auto multiply = [&](OpBuilder &builder, Value x, Value y) -> Value {
    if (isFloat)
      return arith::MulFOp::create(builder, loc, x, y);
    return arith::MulIOp::create(builder, loc, x, y);
  };
  auto add = [&](OpBuilder &builder, Value x, Value y) -> Value {
    if (isFloat)
      return arith::AddFOp::create(builder, loc, x, y);
    return arith::AddIOp::create(builder, loc, x, y);
  };
  auto shared = MemRefType::get(
      {tile, tile}, type, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup));
  Value one = constant(1), tileSize = constant(tile);
  auto launch = gpu::LaunchOp::create(
      b, loc, materialize(b, loc, foldedCeilDiv(b, loc, n, tile)),
      materialize(b, loc, foldedCeilDiv(b, loc, m, tile)),
      materialize(b, loc, batch), tileSize, tileSize, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, /*workgroupAttributions=*/
      TypeRange{shared, shared});
  b.setInsertionPointToStart(&launch.getBody().front());
  Value tileA = launch.getWorkgroupAttributions()[0];
  Value tileB = launch.getWorkgroupAttributions()[1];
  gpu::KernelDim3 block = launch.getBlockIds(), thread = launch.getThreadIds();
  Value tileConst = constant(tile), zeroIndex = constant(0);
  Value row = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, block.y, tileConst), thread.y);
  Value col = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, block.x, tileConst), thread.x);

  // Loop indices in the op's order; batch indices from the grid's z.
  SmallVector<Value> ivs(ranges.size(), zeroIndex);
  ivs[dims.m[0]] = row;
  ivs[dims.n[0]] = col;
  Value linearBatch = block.z;
  for (unsigned d : llvm::reverse(dims.batch)) {
    Value extent = materialize(b, loc, ranges[d].size);
    ivs[d] = arith::RemUIOp::create(b, loc, linearBatch, extent);
    linearBatch = arith::DivUIOp::create(b, loc, linearBatch, extent);
  }
  auto less = [&](Value index, OpFoldResult bound) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index,
                                 materialize(b, loc, bound));
  };
  Value zero = arith::ConstantOp::create(
      b, loc, cast<TypedAttr>(b.getZeroAttr(type)));
  OpOperand *lhs = op.getDpsInputOperand(0), *rhs = op.getDpsInputOperand(1);

  /// Loads operand `operand` at `ivs` where `inBounds`, else 0.
  auto loadOrZero = [&](OpBuilder &builder, OpOperand *operand,
                        ArrayRef<Value> at, Value inBounds) -> Value {
    auto ifOp = scf::IfOp::create(builder, loc, TypeRange{type}, inBounds,
                                  /*withElseRegion=*/true);
    OpBuilder then = ifOp.getThenBodyBuilder();
    Value value = memref::LoadOp::create(
        then, loc, operand->get(),
        applyMap(then, loc, op.getMatchingIndexingMap(operand), at));
    scf::YieldOp::create(then, loc, value);
    OpBuilder otherwise = ifOp.getElseBodyBuilder();
    scf::YieldOp::create(otherwise, loc, zero);
    return ifOp.getResult(0);
  };

  auto slabs = scf::ForOp::create(b, loc, zeroIndex, materialize(b, loc, k),
                                  tileConst, ValueRange{zero});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(slabs.getBody());
    Value k0 = slabs.getInductionVar();
    // This thread's element of each slab: A[row, k0 + tx], B[k0 + ty, col].
    SmallVector<Value> atA = ivs, atB = ivs;
    atA[dims.k[0]] = arith::AddIOp::create(b, loc, k0, thread.x);
    atB[dims.k[0]] = arith::AddIOp::create(b, loc, k0, thread.y);
    Value inA = arith::AndIOp::create(b, loc, less(row, m),
                                      less(atA[dims.k[0]], k));
    Value inB = arith::AndIOp::create(b, loc, less(atB[dims.k[0]], k),
                                      less(col, n));
    memref::StoreOp::create(b, loc, loadOrZero(b, lhs, atA, inA), tileA,
                            ValueRange{thread.y, thread.x});
    memref::StoreOp::create(b, loc, loadOrZero(b, rhs, atB, inB), tileB,
                            ValueRange{thread.y, thread.x});
    gpu::BarrierOp::create(b, loc);
    auto products = scf::ForOp::create(b, loc, zeroIndex, tileConst,
                                       constant(1),
                                       ValueRange{slabs.getRegionIterArg(0)});
    {
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(products.getBody());
      Value kk = products.getInductionVar();
      Value a = memref::LoadOp::create(b, loc, tileA, ValueRange{thread.y, kk});
      Value bValue =
          memref::LoadOp::create(b, loc, tileB, ValueRange{kk, thread.x});
      Value product = multiply(b, a, bValue);
      scf::YieldOp::create(
          b, loc, ValueRange{add(b, products.getRegionIterArg(0), product)});
    }
    // Nobody overwrites the slab before everyone has used it.
    gpu::BarrierOp::create(b, loc);
    scf::YieldOp::create(b, loc, products.getResult(0));
  }

  // C[row, col] += the sum, inside C.
  Value inC = arith::AndIOp::create(b, loc, less(row, m), less(col, n));
  auto ifIn = scf::IfOp::create(b, loc, inC, /*withElseRegion=*/false);
  {
    OpBuilder then = OpBuilder::atBlockBegin(&ifIn.getThenRegion().front());
    OpOperand *init = op.getDpsInitOperand(0);
    SmallVector<Value> at =
        applyMap(then, loc, op.getMatchingIndexingMap(init), ivs);
    Value old = memref::LoadOp::create(then, loc, init->get(), at);
    Value sum = add(then, old, slabs.getResult(0));
    memref::StoreOp::create(then, loc, sum, init->get(), at);
  }
  gpu::TerminatorOp::create(b, loc);
  op->erase();
}

namespace {
struct GpuTiledMatmulPass
    : mlir::trace::impl::TraceGpuTiledMatmulBase<GpuTiledMatmulPass> {
  using Base::Base;
  void runOnOperation() override {
    if (tile < 1 || tile * tile > 1024) {
      getOperation().emitError("trace-gpu-tiled-matmul: tile must be 1 to 32 "
                               "(tile * tile threads per block), got ")
          << tile.getValue();
      return signalPassFailure();
    }
    SmallVector<std::pair<linalg::LinalgOp, linalg::ContractionDimensions>>
        matmuls;
    getOperation().walk([&](linalg::LinalgOp op) {
      FailureOr<linalg::ContractionDimensions> dims = matchMatmul(op);
      if (failed(dims))
        return;
      // A static grid over CUDA's limits is left to the loop lowering (which
      // reports it); a dynamic one is clamped by trace-gpu-grid-stride.
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      int64_t batch = 1;
      for (unsigned d : dims->batch)
        batch = ShapedType::isDynamic(ranges[d]) || ShapedType::isDynamic(batch)
                    ? ShapedType::kDynamic
                    : batch * ranges[d];
      int64_t m = ranges[dims->m[0]];
      if ((ShapedType::isDynamic(batch) || batch <= kMaxGridYZ) &&
          (ShapedType::isDynamic(m) || llvm::divideCeil(m, tile) <= kMaxGridYZ))
        matmuls.push_back({op, *dims});
    });
    for (auto &[op, dims] : matmuls)
      rewrite(op, dims, tile);
  }
};
} // namespace
