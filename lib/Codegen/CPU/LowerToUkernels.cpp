//===- LowerToUkernels.cpp - Marked contractions as micro-kernel calls ----===//
//
// The ukernel route (see Passes.td): on buffers, each op that
// trace-cpu-tile-contractions marked `trace.ukernel` becomes a call of a
// precompiled kernel (include/tracec/ABI/tracec_ukernels.h). A memref is
// passed as its aligned base pointer, its offset and the sizes and strides
// the kernel needs, all from memref.extract_strided_metadata.
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/CPU/Passes.h"

#include "tracec/Codegen/CPU/Ukernels.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/Error.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACELOWERTOUKERNELS
#include "tracec/Codegen/CPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;
using namespace tracec;

namespace {

/// A memref as the kernels take it.
struct Buffer {
  Value pointer, offset;
  SmallVector<Value> sizes, strides;
};

Buffer decompose(OpBuilder &b, Location loc, Value memref) {
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, metadata.getBaseBuffer());
  Value integer =
      arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
  Buffer buffer;
  buffer.pointer = LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), integer);
  buffer.offset = metadata.getOffset();
  llvm::append_range(buffer.sizes, metadata.getSizes());
  llvm::append_range(buffer.strides, metadata.getStrides());
  return buffer;
}

/// The declaration of `name` taking `operands`' types, added to `module`
/// once.
func::FuncOp declare(ModuleOp module, StringRef name, ValueRange operands) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto type = b.getFunctionType(operands.getTypes(), {});
  auto decl = func::FuncOp::create(b, module.getLoc(), name, type);
  decl.setPrivate();
  return decl;
}

/// The work of `op` for trace-parallel-loops: the product of its loop
/// ranges, a dynamic one (a partial tile) counted at `dynamicSize`.
int64_t workOf(linalg::LinalgOp op, int64_t dynamicSize) {
  int64_t work = 1;
  for (int64_t range : op.getStaticLoopRanges())
    work = std::min<int64_t>(
        work * (ShapedType::isDynamic(range) ? dynamicSize : range),
        int64_t(1) << 40);
  return work;
}

/// Calls `symbol` with `operands` (declared once), annotated with `work`.
void emitCall(ModuleOp module, OpBuilder &b, Location loc, StringRef symbol,
              ValueRange operands, int64_t work) {
  func::FuncOp callee = declare(module, symbol, operands);
  auto call = func::CallOp::create(b, loc, callee, operands);
  call->setAttr(kUkernelWorkAttrName, b.getI64IntegerAttr(work));
}

/// The static stride of `memref`'s dim `dim`, if known.
std::optional<int64_t> staticStride(Value memref, unsigned dim) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(strides[dim]))
    return std::nullopt;
  return strides[dim];
}

/// The operand dim of `map` (a projected permutation) that is loop `loop`.
std::optional<unsigned> operandDim(AffineMap map, unsigned loop) {
  for (unsigned i = 0, e = map.getNumResults(); i < e; ++i)
    if (auto dim = dyn_cast<AffineDimExpr>(map.getResult(i));
        dim && dim.getPosition() == loop)
      return i;
  return std::nullopt;
}

LogicalResult lowerMmt4d(ModuleOp module, linalg::LinalgOp op,
                         StringRef symbol, const ContractionTiling &tiling) {
  std::optional<PackedDims> dims = classifyPackedContraction(op);
  if (!dims || op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return failure();
  unsigned n = dims->numLoops, m0 = n - 3, n0 = n - 2, k0 = n - 1;
  // Every loop but the kernel's is a unit loop of the tiling.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (unsigned d = 0; d < n; ++d)
    if (d != *dims->m1 && d != *dims->n1 && d != *dims->k1 && d < m0 &&
        ranges[d] != 1)
      return failure();
  // The register tile the variant is written for.
  if (ranges[m0] != tiling.m0 || ranges[n0] != tiling.n0 || ranges[k0] != 1)
    return failure();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1],
        acc = op.getDpsInits()[0];
  auto dim = [&](unsigned operand, unsigned loop) {
    return operandDim(maps[operand], loop);
  };
  // Roles: lhs has m1, k1, m0; rhs n1, k1, n0; acc m1, n1, m0, n0.
  std::optional<unsigned> lM1 = dim(0, *dims->m1), lK1 = dim(0, *dims->k1),
                          lM0 = dim(0, m0), rN1 = dim(1, *dims->n1),
                          rK1 = dim(1, *dims->k1), rN0 = dim(1, n0),
                          aM1 = dim(2, *dims->m1), aN1 = dim(2, *dims->n1),
                          aM0 = dim(2, m0), aN0 = dim(2, n0);
  if (!lM1 || !lK1 || !lM0 || !rN1 || !rK1 || !rN0 || !aM1 || !aN1 ||
      !aM0 || !aN0)
    return failure();
  // Tiles are dense rows.
  if (staticStride(lhs, *lM0) != 1 || staticStride(rhs, *rN0) != 1 ||
      staticStride(acc, *aN0) != 1)
    return failure();

  OpBuilder b(op);
  Location loc = op.getLoc();
  Buffer l = decompose(b, loc, lhs), r = decompose(b, loc, rhs),
         a = decompose(b, loc, acc);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  SmallVector<Value> operands = {
      l.pointer,       l.offset,        r.pointer,       r.offset,
      a.pointer,       a.offset,        a.sizes[*aM1],   a.sizes[*aN1],
      l.sizes[*lK1],   l.strides[*lM1], l.strides[*lK1], r.strides[*rN1],
      r.strides[*rK1], a.strides[*aM1], a.strides[*aN1], a.strides[*aM0],
      constant(ranges[m0]), constant(ranges[n0]),
      // The packed accumulator holds the fill or the previous kc panels.
      constant(/*TRACEC_UK_ACCUMULATE=*/1)};
  // A partial tile of the task loop is at most a task's.
  emitCall(module, b, loc, symbol, operands, workOf(op, 16));
  op->erase();
  return success();
}

LogicalResult lowerTranspose(ModuleOp module, linalg::TransposeOp op,
                             StringRef symbol) {
  ArrayRef<int64_t> permutation = op.getPermutation();
  unsigned rank = permutation.size();
  if (rank > kUkernelMaxRank)
    return failure();
  OpBuilder b(op);
  Location loc = op.getLoc();
  Buffer src = decompose(b, loc, op.getInput()),
         dst = decompose(b, loc, op.getInit());
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  SmallVector<Value> sizes, srcStrides, dstStrides;
  // Output dim d is input dim permutation[d]; unused dims are unit dims.
  for (unsigned d = 0; d < kUkernelMaxRank; ++d) {
    sizes.push_back(d < rank ? dst.sizes[d] : one);
    srcStrides.push_back(d < rank ? src.strides[permutation[d]] : zero);
    dstStrides.push_back(d < rank ? dst.strides[d] : zero);
  }
  SmallVector<Value> operands = {src.pointer, src.offset, dst.pointer,
                                 dst.offset};
  llvm::append_range(operands, sizes);
  llvm::append_range(operands, srcStrides);
  llvm::append_range(operands, dstStrides);
  emitCall(module, b, loc, symbol, operands,
           workOf(cast<linalg::LinalgOp>(op.getOperation()), 16));
  op->erase();
  return success();
}

/// A copy between buffers of 4-byte elements, as the relayout kernel's
/// identity permutation (bitwise): the copies of pads, unpacked results and
/// outputs would each be a scalar loop nest for LLVM's -O3 pipeline.
LogicalResult lowerCopy(ModuleOp module, linalg::CopyOp op, StringRef symbol) {
  auto type = dyn_cast<MemRefType>(op.getInputs()[0].getType());
  auto initType = dyn_cast<MemRefType>(op.getOutputs()[0].getType());
  if (!type || !initType || type.getRank() > kUkernelMaxRank ||
      type.getRank() == 0 || type.getElementType() != initType.getElementType())
    return failure();
  Type element = type.getElementType();
  if (!element.isF32() && !element.isInteger(32))
    return failure();
  OpBuilder b(op);
  Location loc = op.getLoc();
  Buffer src = decompose(b, loc, op.getInputs()[0]),
         dst = decompose(b, loc, op.getOutputs()[0]);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  unsigned rank = type.getRank();
  SmallVector<Value> operands = {src.pointer, src.offset, dst.pointer,
                                 dst.offset};
  for (unsigned d = 0; d < kUkernelMaxRank; ++d)
    operands.push_back(d < rank ? dst.sizes[d] : one);
  for (unsigned d = 0; d < kUkernelMaxRank; ++d)
    operands.push_back(d < rank ? src.strides[d] : zero);
  for (unsigned d = 0; d < kUkernelMaxRank; ++d)
    operands.push_back(d < rank ? dst.strides[d] : zero);
  emitCall(module, b, loc, symbol, operands,
           workOf(cast<linalg::LinalgOp>(op.getOperation()), 16));
  op->erase();
  return success();
}

struct LowerToUkernelsPass
    : mlir::trace::impl::TraceLowerToUkernelsBase<LowerToUkernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    llvm::Expected<CpuVectorInfo> info = getCpuVectorInfo(cpu);
    if (!info) {
      getOperation()->emitError() << llvm::toString(info.takeError());
      return signalPassFailure();
    }
    SmallVector<linalg::LinalgOp> marked;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(kUkernelAttrName) && op.hasPureBufferSemantics())
        marked.push_back(op);
    });
    ModuleOp module = getOperation();
    // With `copies`, every copy of 4-byte elements at the top level of a
    // function, marked or not (one in a loop is a row of fused code, better
    // inline).
    std::optional<std::string> copySymbol;
    if (copies)
      copySymbol = getTransposeUkernel(*info, Float32Type::get(&getContext()));
    if (copySymbol) {
      SmallVector<linalg::CopyOp> copies;
      module.walk([&](linalg::CopyOp op) {
        if (op.hasPureBufferSemantics() && isa<func::FuncOp>(op->getParentOp()))
          copies.push_back(op);
      });
      for (linalg::CopyOp copy : copies)
        (void)lowerCopy(module, copy, *copySymbol);
    }
    for (linalg::LinalgOp op : marked) {
      Type element = getElementTypeOrSelf(op.getDpsInits()[0].getType());
      if (auto transpose = dyn_cast<linalg::TransposeOp>(op.getOperation())) {
        std::optional<std::string> symbol =
            getTransposeUkernel(*info, element);
        if (!symbol || failed(lowerTranspose(module, transpose, *symbol)))
          op->removeAttr(kUkernelAttrName);
        continue;
      }
      std::optional<ContractionTiling> tiling = getContractionTiling(*info, op);
      std::optional<std::string> symbol;
      if (tiling)
        symbol = getMmt4dUkernel(*info, op, *tiling);
      // What no kernel takes stays a linalg op, lowered to loops.
      if (!symbol || failed(lowerMmt4d(module, op, *symbol, *tiling)))
        op->removeAttr(kUkernelAttrName);
    }
  }
};

} // namespace
