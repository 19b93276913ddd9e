//===- TileContractions.cpp - Cache and register tiles of contractions ----===//
//
// The "tile" step (see Passes.td). A packed contraction's iteration space
// is its outer dims (batch..., M1, N1, K1 and any other outer dims) and the
// micro-kernel's [m0, n0, k0], which the pack step appended last. Tiling
// goes, outermost first:
//   scf.forall  batch and other parallel outer dims by 1, M1 by mc / m0,
//               N1 by nc / n0                 (one task per result block,
//               which zeroes its block where a fill initialized the result)
//   scf.for     K1 by kc, other reduction outer dims by 1
//   scf.for     N1 by 1, then M1 by 1         (the register tiles)
//   scf.for     K1 by 1                       (one micro-kernel step)
// Packs and unpacks become pad/expand_shape + linalg.transpose (upstream's
// lowerPack/lowerUnPack); each transpose is tiled so one tile moves a few
// micro-kernel tiles, ready for vectors, in an scf.forall: relayouts run on
// every thread, as the contraction does.
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/CPU/Passes.h"

#include "tracec/Codegen/CPU/ContractionTiling.h"
#include "tracec/Codegen/CPU/Ukernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/Error.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACETILECONTRACTIONS
#include "tracec/Codegen/CPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;
using namespace tracec;

namespace {

/// Tiles `op` by `sizes` (0: not tiled) with loops of `type`, visiting the
/// tiled loops in `interchange` order (all loops when empty); returns the
/// tiled op, or nothing when there was nothing to tile.
FailureOr<Operation *> tile(RewriterBase &rewriter, Operation *op,
                            ArrayRef<int64_t> sizes,
                            scf::SCFTilingOptions::LoopType type,
                            ArrayRef<int64_t> interchange = {}) {
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), sizes));
  options.setLoopType(type);
  if (!interchange.empty())
    options.setInterchange(interchange);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(op), options);
  if (failed(tiled))
    return failure();
  rewriter.replaceOp(op, tiled->replacements);
  return tiled->tiledOps.back();
}

/// Tiles `op` into result blocks by `sizes` in an scf.forall, moving a
/// linalg.fill that only initializes its result into the block: each task
/// zeroes its own block just before accumulating into it, in its own cache,
/// instead of a separate pass over the whole result first (with threads, a
/// parallel region of its own whose slices another core last wrote).
/// Returns the tiled op.
FailureOr<Operation *> tileIntoBlocks(RewriterBase &rewriter,
                                      linalg::LinalgOp op,
                                      ArrayRef<int64_t> sizes) {
  scf::SCFTileAndFuseOptions options;
  options.tilingOptions.setTileSizes(
      getAsIndexOpFoldResult(rewriter.getContext(), sizes));
  options.tilingOptions.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  // Only a fill whose result nothing else reads.
  auto fill = op.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  bool fuseFill = op.getNumDpsInits() == 1 && fill && fill->hasOneUse();
  options.setFusionControlFn(
      [&](tensor::ExtractSliceOp, OpResult producer, bool isDestination)
          -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        if (fuseFill && isDestination && producer.getOwner() == fill)
          return scf::SCFTileAndFuseOptions::ControlFnResult{};
        return std::nullopt;
      });
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTileAndFuseResult> tiled =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled) || tiled->loops.empty())
    return failure();
  for (OpResult result : op->getResults())
    rewriter.replaceAllUsesWith(result, tiled->replacements.lookup(result));
  rewriter.eraseOp(op);
  return tiled->tiledAndFusedOps.front();
}

LogicalResult tileContraction(RewriterBase &rewriter, linalg::LinalgOp op,
                              const ContractionTiling &tiling, bool ukernel) {
  std::optional<PackedDims> dims = classifyPackedContraction(op);
  if (!dims)
    return op.emitOpError("is marked as a packed contraction but its "
                          "M1/N1/K1 dims cannot be found");
  using LoopType = scf::SCFTilingOptions::LoopType;
  unsigned n = dims->numLoops;

  // Result blocks, one parallel task each.
  SmallVector<int64_t> sizes(n, 0);
  for (unsigned d : dims->otherParallel)
    sizes[d] = 1;
  sizes[*dims->m1] = std::max<int64_t>(1, tiling.mc / tiling.m0);
  sizes[*dims->n1] = std::max<int64_t>(1, tiling.nc / tiling.n0);
  FailureOr<Operation *> tiled = tileIntoBlocks(rewriter, op, sizes);
  if (failed(tiled))
    return op.emitOpError("cannot tile into result blocks");

  // kc-slices of the reduction.
  sizes.assign(n, 0);
  for (unsigned d : dims->otherReduction)
    sizes[d] = 1;
  sizes[*dims->k1] = std::max<int64_t>(1, tiling.kc / tiling.k0);
  tiled = tile(rewriter, *tiled, sizes, LoopType::ForOp);
  if (failed(tiled))
    return op.emitOpError("cannot tile the reduction");
  // A kc panel of a task is one call of the mmt4d micro-kernel.
  if (ukernel) {
    (*tiled)->setAttr(kUkernelAttrName, rewriter.getUnitAttr());
    return success();
  }

  // Register tiles: N1 outer so a kc x n0 panel of the right operand is
  // reused by every M1 step.
  sizes.assign(n, 0);
  sizes[*dims->m1] = 1;
  sizes[*dims->n1] = 1;
  SmallVector<int64_t> interchange = llvm::to_vector(llvm::seq<int64_t>(0, n));
  std::swap(interchange[*dims->m1], interchange[*dims->n1]);
  if (*dims->m1 > *dims->n1)
    std::swap(interchange[*dims->m1], interchange[*dims->n1]);
  tiled = tile(rewriter, *tiled, sizes, LoopType::ForOp,
               *dims->m1 < *dims->n1 ? ArrayRef<int64_t>(interchange)
                                     : ArrayRef<int64_t>());
  if (failed(tiled))
    return op.emitOpError("cannot tile into register tiles");

  // One step of k.
  sizes.assign(n, 0);
  sizes[*dims->k1] = 1;
  tiled = tile(rewriter, *tiled, sizes, LoopType::ForOp);
  if (failed(tiled))
    return op.emitOpError("cannot tile into micro-kernel steps");
  return success();
}

/// Tiles the transpose of a lowered pack or unpack: the dims that come from
/// tiles (`isInner`) stay whole, the others are tiled by 1 except the
/// innermost of them, by up to `span`, in an scf.forall (the tiles write
/// disjoint parts of the result). The tile is marked for
/// trace-cpu-vectorize-contractions.
void tileRelayout(RewriterBase &rewriter, linalg::TransposeOp transpose,
                  llvm::function_ref<bool(unsigned)> isInner, int64_t span) {
  unsigned rank = transpose.getPermutation().size();
  SmallVector<int64_t> sizes(rank, 0);
  std::optional<unsigned> innermostOuter;
  for (unsigned d = 0; d < rank; ++d) {
    if (isInner(d))
      continue;
    sizes[d] = 1;
    innermostOuter = d;
  }
  ArrayRef<int64_t> shape = transpose.getInit().getType().getShape();
  // The largest span up to `span` that divides the dim: tiles stay whole
  // and static (masked transposes do not vectorize).
  // (A dynamic dim is tiled by 1.)
  if (innermostOuter && !ShapedType::isDynamic(shape[*innermostOuter])) {
    int64_t size = shape[*innermostOuter];
    int64_t divisor = std::min(span, size);
    while (size % divisor)
      --divisor;
    sizes[*innermostOuter] = divisor;
  }
  FailureOr<Operation *> tiled = tile(
      rewriter, transpose, sizes, scf::SCFTilingOptions::LoopType::ForallOp);
  if (succeeded(tiled))
    (*tiled)->setAttr(kMicroKernelAttrName, rewriter.getUnitAttr());
}

/// Tiles the transpose of a pack or unpack that the relayout micro-kernel
/// takes into an scf.forall of calls, so threads can split it: the result's
/// dims from the outermost by 1 while a task still moves at least
/// `minTaskElements`, then the next by the smallest divisor of its size
/// that keeps a task that large (a call costs tens of nanoseconds; tiles
/// stay static). The tile is marked for trace-cpu-lower-to-ukernels; a
/// relayout of a dynamic shape stays one call.
void tileRelayoutForUkernel(RewriterBase &rewriter,
                            linalg::TransposeOp transpose,
                            int64_t minTaskElements) {
  ArrayRef<int64_t> shape = transpose.getInit().getType().getShape();
  SmallVector<int64_t> sizes(shape.size(), 0);
  bool tiled = false;
  int64_t task =
      ShapedType::isDynamicShape(shape) ? 0 : ShapedType::getNumElements(shape);
  for (unsigned d = 0; d < shape.size() && task > minTaskElements; ++d) {
    if (shape[d] == 1)
      continue;
    int64_t rest = task / shape[d];
    int64_t chunk = 1;
    while (chunk < shape[d] &&
           (shape[d] % chunk || chunk * rest < minTaskElements))
      ++chunk;
    if (chunk == shape[d])
      break;
    sizes[d] = chunk;
    task = chunk * rest;
    tiled = true;
    if (chunk != 1)
      break;
  }
  Operation *marked = transpose;
  if (tiled) {
    FailureOr<Operation *> tile = ::tile(
        rewriter, transpose, sizes, scf::SCFTilingOptions::LoopType::ForallOp);
    if (succeeded(tile))
      marked = *tile;
  }
  marked->setAttr(kUkernelAttrName, rewriter.getUnitAttr());
}

/// A pack of a dynamic size pads its source to whole tiles: a fill and a
/// copy of the whole operand. Where the size is a multiple of the tile at
/// run time (a batch of 256 in tiles of 8) nothing needs padding, so the
/// pad runs only when some dynamic padding is non-zero; the pack reads the
/// source itself otherwise, as a static pack does.
void padOnlyWhenNeeded(RewriterBase &rewriter, tensor::PadOp pad) {
  auto isStaticNonZero = [](OpFoldResult size) {
    return isa<Attribute>(size) && !isZeroInteger(size);
  };
  if (!pad || pad.getHigh().empty() ||
      pad.getSourceType() != pad.getResultType() ||
      !llvm::all_of(pad.getMixedLowPad(), isZeroInteger) ||
      llvm::any_of(pad.getMixedHighPad(), isStaticNonZero))
    return;
  Location loc = pad.getLoc();
  rewriter.setInsertionPoint(pad);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value unpadded;
  for (Value high : pad.getHigh()) {
    Value isZero = arith::CmpIOp::create(rewriter, loc,
                                         arith::CmpIPredicate::eq, high, zero);
    unpadded = unpadded ? arith::AndIOp::create(rewriter, loc, unpadded, isZero)
                        : isZero;
  }
  auto ifOp = scf::IfOp::create(rewriter, loc, pad.getResultType(), unpadded,
                                /*withElseRegion=*/true);
  rewriter.replaceAllUsesWith(pad.getResult(), ifOp.getResult(0));
  rewriter.setInsertionPointToStart(ifOp.thenBlock());
  scf::YieldOp::create(rewriter, loc, pad.getSource());
  rewriter.setInsertionPointToStart(ifOp.elseBlock());
  auto yield = scf::YieldOp::create(rewriter, loc, pad.getResult());
  rewriter.moveOpBefore(pad, yield);
}

struct TileContractionsPass
    : mlir::trace::impl::TraceTileContractionsBase<TileContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    llvm::Expected<CpuVectorInfo> info = getCpuVectorInfo(cpu);
    if (!info) {
      getOperation()->emitError() << llvm::toString(info.takeError());
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());

    SmallVector<linalg::LinalgOp> contractions;
    SmallVector<linalg::PackOp> packs;
    SmallVector<linalg::UnPackOp> unpacks;
    getOperation()->walk([&](Operation *op) {
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
          linalgOp && op->hasAttr(kMicroKernelAttrName) &&
          linalgOp.hasPureTensorSemantics())
        contractions.push_back(linalgOp);
      else if (auto pack = dyn_cast<linalg::PackOp>(op))
        packs.push_back(pack);
      else if (auto unpack = dyn_cast<linalg::UnPackOp>(op))
        unpacks.push_back(unpack);
    });

    for (linalg::LinalgOp op : contractions) {
      std::optional<ContractionTiling> tiling = getContractionTiling(*info, op);
      if (!tiling) {
        op.emitOpError("is marked as a packed contraction but the "
                       "micro-kernel does not take its element types");
        return signalPassFailure();
      }
      bool ukernel =
          ukernels && getMmt4dUkernel(*info, op, *tiling).has_value();
      if (failed(tileContraction(rewriter, op, *tiling, ukernel)))
        return signalPassFailure();
    }
    // A relayout the transpose kernel takes becomes calls of it, a task of
    // 128 KiB or more each: smaller tasks fork more than they gain at 2
    // threads (the MLP and attention steps), one call is serial.
    auto relayoutByUkernel = [&](linalg::TransposeOp transpose) {
      if (!(ukernels || ukernelRelayouts) ||
          transpose.getPermutation().size() > kUkernelMaxRank ||
          !getTransposeUkernel(*info,
                               transpose.getInit().getType().getElementType()))
        return false;
      tileRelayoutForUkernel(rewriter, transpose, /*minTaskElements=*/32768);
      return true;
    };

    // A relayout tile spans this many tiles along its innermost outer dim.
    constexpr int64_t kRelayoutSpan = 16;
    for (linalg::PackOp pack : packs) {
      if (!pack.hasPureTensorSemantics())
        continue;
      // The transpose's result is the packed layout: tiles innermost.
      unsigned rank = pack.getDestType().getRank();
      unsigned innerRank = pack.getInnerDimsPos().size();
      rewriter.setInsertionPoint(pack);
      FailureOr<linalg::LowerPackResult> lowered =
          linalg::lowerPack(rewriter, pack);
      if (failed(lowered) || !lowered->transposeOp)
        continue;
      padOnlyWhenNeeded(rewriter, lowered->padOp);
      if (relayoutByUkernel(lowered->transposeOp))
        continue;
      tileRelayout(
          rewriter, lowered->transposeOp,
          [&](unsigned d) { return d >= rank - innerRank; }, kRelayoutSpan);
    }
    for (linalg::UnPackOp unpack : unpacks) {
      if (!unpack.hasPureTensorSemantics())
        continue;
      // The transpose reads the packed layout (tiles innermost) and
      // interleaves its dims ([M1][m0][N1][n0]): one tile at a time.
      unsigned rank = unpack.getSourceType().getRank();
      unsigned innerRank = unpack.getInnerDimsPos().size();
      rewriter.setInsertionPoint(unpack);
      FailureOr<linalg::LowerUnPackOpResult> lowered =
          linalg::lowerUnPack(rewriter, unpack);
      if (failed(lowered) || !lowered->transposeOp)
        continue;
      // A copy of the unpacked result into an empty tensor is the result.
      if (tensor::ExtractSliceOp slice = lowered->extractSliceOp)
        for (Operation *user :
             llvm::make_early_inc_range(slice.getResult().getUsers()))
          if (auto copy = dyn_cast<linalg::CopyOp>(user);
              copy && copy.hasPureTensorSemantics() &&
              copy.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
            rewriter.replaceOp(copy, slice.getResult());
      if (relayoutByUkernel(lowered->transposeOp))
        continue;
      ArrayRef<int64_t> perm = lowered->transposeOp.getPermutation();
      tileRelayout(
          rewriter, lowered->transposeOp,
          [&](unsigned d) { return perm[d] >= int64_t(rank - innerRank); }, 1);
    }
  }
};

} // namespace
