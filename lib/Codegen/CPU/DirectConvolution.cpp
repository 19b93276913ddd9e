//===- DirectConvolution.cpp - conv_2d_nhwc_hwcf as register tiles --------===//
//
// The direct convolution of oneDNN and XNNPACK on NHWC: a register tile
// holds R consecutive output pixels of one row times n0 output channels (a
// whole number of vectors). For each window tap (kh, kw) and input channel
// c, one step loads the filter's row W[kh, kw, c, f0 : f0 + n0] (contiguous
// in HWCF) and broadcasts the R input values x[n, oh*sh + kh*dh,
// (ow + r)*sw + kw*dw, c] into R FMAs: a vector.outerproduct. The tile stays
// in registers across all KH * KW * C steps and is stored once.
//
// Compared with im2col and the packed matmul (PackContractions.cpp), the
// input is read in place — the column matrix, KH * KW times the input, and
// its packed copy are never written — and the channel tile n0 is one vector
// when F is small (a 16-channel convolution used half of a 32-wide matmul
// tile). Rows of output pixels (n, oh) are the parallel tasks.
//
//===----------------------------------------------------------------------===//

#include "DirectConvolution.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <algorithm>

using namespace mlir;
using namespace tracec;

namespace {

/// The register tile [R, n0] of a convolution with `width` output pixels
/// per row and `channels` output channels.
struct ConvTile {
  int64_t pixels, channels;
};

ConvTile chooseConvTile(const CpuVectorInfo &cpu, unsigned elementBits,
                        int64_t width, int64_t channels) {
  int64_t lanes = std::max<int64_t>(1, cpu.vectorBits / elementBits);
  // Two vectors of channels when there are that many: each broadcast then
  // feeds two FMAs. One vector for fewer, so little of the tile is padding.
  int64_t vectors = channels > lanes ? 2 : 1;
  // The accumulators, the filter's row and a spare or two for broadcasts.
  int64_t maxPixels = std::clamp<int64_t>(
      (cpu.numRegisters - vectors - 2) / vectors, 1, 16);
  int64_t pixels = std::min(width, maxPixels);
  // A divisor of the row's width in [maxPixels / 2, maxPixels] leaves no
  // partial tile; otherwise the last tile of each row is narrower.
  for (int64_t r = pixels; r * 2 >= maxPixels && r > 1; --r)
    if (width % r == 0) {
      pixels = r;
      break;
    }
  return {pixels, vectors * lanes};
}

/// The value of `conv`'s accumulator when it is a splat fill, else null.
Value splatInit(linalg::Conv2DNhwcHwcfOp conv) {
  auto fill = conv.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  if (!fill || !fill.getDpsInputs()[0].getDefiningOp<arith::ConstantOp>())
    return nullptr;
  return fill.getDpsInputs()[0];
}

struct DirectConvolutionBuilder {
  RewriterBase &rewriter;
  Location loc;
  Value input, filter;
  Type element;
  int64_t kernelH, kernelW, inChannels, outChannels;
  SmallVector<int64_t> strides, dilations;
  ConvTile tile;
  Value fillValue; // the splat the accumulator starts from, or null

  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  }
  Value mul(Value a, int64_t b) {
    return b == 1 ? a : arith::MulIOp::create(rewriter, loc, a, index(b));
  }
  Value add(Value a, Value b) {
    return arith::AddIOp::create(rewriter, loc, a, b);
  }

  /// One register tile: `pixels` outputs of `row` from column `ow0`,
  /// channels from `f0`; returns `row` with the tile written.
  Value computeTile(Value row, Value n, Value oh, Value ow0, Value f0,
                    int64_t pixels) {
    auto accType = VectorType::get({pixels, tile.channels}, element);
    // Channels past the last real one (a partial channel tile) are masked.
    bool wholeChannels = outChannels % tile.channels == 0;
    SmallVector<bool> inBounds = {true, wholeChannels};
    Value acc;
    if (fillValue) {
      acc = vector::BroadcastOp::create(rewriter, loc, accType, fillValue);
    } else {
      Value zero = arith::ConstantOp::create(rewriter, loc,
                                             rewriter.getZeroAttr(element));
      acc = vector::TransferReadOp::create(rewriter, loc, accType, row,
                                           ValueRange{ow0, f0}, zero,
                                           inBounds);
    }
    auto forRange = [&](int64_t size, Value init,
                        function_ref<Value(Value, Value)> body) {
      auto loop = scf::ForOp::create(
          rewriter, loc, index(0), index(size), index(1), ValueRange{init},
          [&](OpBuilder &, Location, Value iv, ValueRange args) {
            scf::YieldOp::create(rewriter, loc, body(iv, args[0]));
          });
      return loop.getResult(0);
    };
    Value ih0 = mul(oh, strides[0]);
    Value iw0 = mul(ow0, strides[1]);
    acc = forRange(kernelH, acc, [&](Value kh, Value acc) {
      Value ih = add(ih0, mul(kh, dilations[0]));
      return forRange(kernelW, acc, [&](Value kw, Value acc) {
        Value iw = add(iw0, mul(kw, dilations[1]));
        return forRange(inChannels, acc, [&](Value c, Value acc) {
          auto rowType = VectorType::get({tile.channels}, element);
          Value padding = arith::ConstantOp::create(
              rewriter, loc, rewriter.getZeroAttr(element));
          Value weights = vector::TransferReadOp::create(
              rewriter, loc, rowType, filter, ValueRange{kh, kw, c, f0},
              padding, ArrayRef<bool>{true});
          SmallVector<Value> pixelsAtC;
          for (int64_t r = 0; r < pixels; ++r) {
            Value w = add(iw, index(r * strides[1]));
            pixelsAtC.push_back(tensor::ExtractOp::create(
                rewriter, loc, input, ValueRange{n, ih, w, c}));
          }
          Value column = vector::FromElementsOp::create(
              rewriter, loc, VectorType::get({pixels}, element), pixelsAtC);
          return vector::OuterProductOp::create(rewriter, loc, accType,
                                                column, weights, acc,
                                                vector::CombiningKind::ADD)
              .getResult();
        });
      });
    });
    return vector::TransferWriteOp::create(rewriter, loc, acc, row,
                                           ValueRange{ow0, f0}, inBounds)
        .getResult();
  }
};

} // namespace

LogicalResult tracec::rewriteAsDirectConvolution(RewriterBase &rewriter,
                                                 linalg::Conv2DNhwcHwcfOp conv,
                                                 const CpuVectorInfo &cpu) {
  if (!conv.hasPureTensorSemantics())
    return failure();
  Value input = conv.getDpsInputs()[0], filter = conv.getDpsInputs()[1];
  Value output = conv.getDpsInits()[0];
  auto inputType = cast<RankedTensorType>(input.getType());
  auto filterType = cast<RankedTensorType>(filter.getType());
  auto outputType = cast<RankedTensorType>(output.getType());
  Type element = outputType.getElementType();
  if (!inputType.hasStaticShape() || !filterType.hasStaticShape() ||
      !outputType.hasStaticShape() || outputType.getNumElements() == 0 ||
      filterType.getNumElements() == 0 || !(element.isF32() || element.isF64()) ||
      inputType.getElementType() != element ||
      filterType.getElementType() != element)
    return failure();

  Location loc = conv.getLoc();
  ArrayRef<int64_t> outShape = outputType.getShape();
  ArrayRef<int64_t> filterShape = filterType.getShape();
  DirectConvolutionBuilder builder{
      rewriter,
      loc,
      input,
      filter,
      element,
      filterShape[0],
      filterShape[1],
      filterShape[2],
      filterShape[3],
      llvm::to_vector(conv.getStrides().getValues<int64_t>()),
      llvm::to_vector(conv.getDilations().getValues<int64_t>()),
      chooseConvTile(cpu, element.getIntOrFloatBitWidth(), outShape[2],
                     outShape[3]),
      splatInit(conv)};
  const ConvTile &tile = builder.tile;

  // The filter padded with zero channels to a whole number of tiles, so
  // every step loads a full row.
  int64_t channelTiles = llvm::divideCeil(outShape[3], tile.channels);
  int64_t paddedChannels = channelTiles * tile.channels;
  if (paddedChannels != outShape[3]) {
    SmallVector<OpFoldResult> low(4, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> high = low;
    high[3] = rewriter.getIndexAttr(paddedChannels - outShape[3]);
    auto paddedType = RankedTensorType::get(
        {filterShape[0], filterShape[1], filterShape[2], paddedChannels},
        element);
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));
    builder.filter = tensor::PadOp::create(rewriter, loc, paddedType, filter,
                                           low, high, zero)
                         .getResult();
  }

  // A fill's result is not read: the tiles start from its value.
  Value shared = output;
  if (builder.fillValue)
    shared = tensor::EmptyOp::create(rewriter, loc, outShape, element);

  int64_t width = outShape[2];
  int64_t wholeTiles = width / tile.pixels;
  int64_t lastPixels = width % tile.pixels;
  SmallVector<OpFoldResult> rows = {rewriter.getIndexAttr(outShape[0]),
                                    rewriter.getIndexAttr(outShape[1])};
  auto forall = scf::ForallOp::create(rewriter, loc, rows, ValueRange{shared},
                                      std::nullopt);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(forall.getBody());
    Value n = forall.getInductionVar(0), oh = forall.getInductionVar(1);
    Value sharedOut = forall.getRegionIterArgs()[0];
    SmallVector<OpFoldResult> offsets = {n, oh, rewriter.getIndexAttr(0),
                                         rewriter.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes = {
        rewriter.getIndexAttr(1), rewriter.getIndexAttr(1),
        rewriter.getIndexAttr(width), rewriter.getIndexAttr(outShape[3])};
    SmallVector<OpFoldResult> unitStrides(4, rewriter.getIndexAttr(1));
    auto rowType = RankedTensorType::get({width, outShape[3]}, element);
    Value row = tensor::ExtractSliceOp::create(rewriter, loc, rowType,
                                               sharedOut, offsets, sizes,
                                               unitStrides);
    auto channelLoop = scf::ForOp::create(
        rewriter, loc, builder.index(0), builder.index(paddedChannels),
        builder.index(tile.channels), ValueRange{row},
        [&](OpBuilder &, Location, Value f0, ValueRange rowArgs) {
          Value row = rowArgs[0];
          if (wholeTiles > 0) {
            auto pixelLoop = scf::ForOp::create(
                rewriter, loc, builder.index(0),
                builder.index(wholeTiles * tile.pixels),
                builder.index(tile.pixels), ValueRange{row},
                [&](OpBuilder &, Location, Value ow0, ValueRange args) {
                  scf::YieldOp::create(
                      rewriter, loc,
                      builder.computeTile(args[0], n, oh, ow0, f0,
                                          tile.pixels));
                });
            row = pixelLoop.getResult(0);
          }
          if (lastPixels > 0)
            row = builder.computeTile(row, n, oh,
                                      builder.index(wholeTiles * tile.pixels),
                                      f0, lastPixels);
          scf::YieldOp::create(rewriter, loc, row);
        });
    rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(rewriter, loc,
                                          channelLoop.getResult(0), sharedOut,
                                          offsets, sizes, unitStrides);
  }
  rewriter.replaceOp(conv, forall.getResults());
  return success();
}
