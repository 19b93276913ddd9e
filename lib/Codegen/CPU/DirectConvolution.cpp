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
  int64_t maxPixels =
      std::clamp<int64_t>((cpu.numRegisters - vectors - 2) / vectors, 1, 16);
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

/// Whether `values` are tensors of static shape of one element type, f32
/// or f64: what the direct kernels take.
bool areStaticFloatTensors(ValueRange values) {
  Type element = getElementTypeOrSelf(values.front().getType());
  return (element.isF32() || element.isF64()) &&
         llvm::all_of(values, [&](Value value) {
           auto type = dyn_cast<RankedTensorType>(value.getType());
           return type && type.hasStaticShape() &&
                  type.getElementType() == element;
         });
}

/// The value of `conv`'s accumulator when it is a splat fill, else null.
Value splatInit(linalg::Conv2DNhwcHwcfOp conv) {
  auto fill = conv.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  if (!fill || !fill.getDpsInputs()[0].getDefiningOp<arith::ConstantOp>())
    return nullptr;
  return fill.getDpsInputs()[0];
}

/// The zeros a convolution reads around its input's rows and columns
/// without their being written: a tap that falls on them adds nothing, so
/// tap rows there are skipped and columns there are loaded under a guard.
struct ZeroPadding {
  int64_t height = 0, width = 0; // the input's, without the padding
  int64_t top = 0, left = 0;
  bool rows = false, columns = false; // any padding above/below, left/right
};

struct DirectConvolutionBuilder {
  RewriterBase &rewriter;
  Location loc;
  Value input, filter;
  Type element;
  int64_t kernelH, kernelW, inChannels, outChannels;
  SmallVector<int64_t> strides, dilations;
  ConvTile tile;
  Value fillValue; // the splat the accumulator starts from, or null
  ZeroPadding padding = {};

  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  }
  Value mul(Value a, int64_t b) {
    return b == 1 ? a : arith::MulIOp::create(rewriter, loc, a, index(b));
  }
  Value add(Value a, Value b) {
    return arith::AddIOp::create(rewriter, loc, a, b);
  }
  Value sub(Value a, int64_t b) {
    return b == 0 ? a : arith::SubIOp::create(rewriter, loc, a, index(b));
  }
  Value sub(int64_t a, Value b) {
    return arith::SubIOp::create(rewriter, loc, index(a), b);
  }
  /// Whether 0 <= i < size (i signed).
  Value inRange(Value i, int64_t size) {
    Value low = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge,
                                      i, index(0));
    Value high = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                       i, index(size));
    return arith::AndIOp::create(rewriter, loc, low, high);
  }
  /// ceil(max(a, 0) / divisor), at most `limit`, for a signed `a`.
  Value ceilDivOfNonNegative(Value a, int64_t divisor, int64_t limit) {
    Value clamped = arith::MaxSIOp::create(rewriter, loc, a, index(0));
    Value quotient = arith::DivUIOp::create(
        rewriter, loc, add(clamped, index(divisor - 1)), index(divisor));
    return arith::MinSIOp::create(rewriter, loc, quotient, index(limit));
  }
  /// input[n, ih, iw, c]; with `guarded`, zero where iw is on the padding.
  Value loadInput(Value n, Value ih, Value iw, Value c, bool guarded) {
    if (!guarded)
      return tensor::ExtractOp::create(rewriter, loc, input,
                                       ValueRange{n, ih, iw, c});
    Value valid = inRange(iw, padding.width);
    Value at = arith::SelectOp::create(rewriter, loc, valid, iw, index(0));
    Value x = tensor::ExtractOp::create(rewriter, loc, input,
                                        ValueRange{n, ih, at, c});
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));
    return arith::SelectOp::create(rewriter, loc, valid, x, zero);
  }
  /// An scf.for over [lower, upper) carrying one value: `body(iv, value)`
  /// returns the next.
  Value forRange(Value lower, Value upper, Value init,
                 function_ref<Value(Value, Value)> body) {
    auto loop = scf::ForOp::create(
        rewriter, loc, lower, upper, index(1), ValueRange{init},
        [&](OpBuilder &, Location, Value iv, ValueRange args) {
          scf::YieldOp::create(rewriter, loc, body(iv, args[0]));
        });
    return loop.getResult(0);
  }
  Value forRange(int64_t size, Value init,
                 function_ref<Value(Value, Value)> body) {
    return forRange(index(0), index(size), init, body);
  }
  /// forRange over [0, size) but for [gapFirst, gapLast): one loop whose
  /// index jumps the gap, so the body's code is emitted once.
  Value forRangeAround(Value gapFirst, Value gapLast, Value size, Value init,
                       function_ref<Value(Value, Value)> body) {
    Value gap = arith::SubIOp::create(rewriter, loc, gapLast, gapFirst);
    Value trips =
        add(gapFirst, arith::SubIOp::create(rewriter, loc, size, gapLast));
    return forRange(index(0), trips, init, [&](Value i, Value value) {
      Value after = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::uge, i, gapFirst);
      Value shift =
          arith::SelectOp::create(rewriter, loc, after, gap, index(0));
      return body(add(i, shift), value);
    });
  }

  /// One register tile: `pixels` outputs of `row` from column `ow0`,
  /// channels from `f0`; returns `row` with the tile written. `guarded`:
  /// some of the tile's taps fall on the padding's columns.
  Value computeTile(Value row, Value n, Value oh, Value ow0, Value f0,
                    int64_t pixels, bool guarded) {
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
                                           ValueRange{ow0, f0}, zero, inBounds);
    }
    Value ih0 = sub(mul(oh, strides[0]), padding.top);
    Value iw0 = sub(mul(ow0, strides[1]), padding.left);
    // Tap rows on the padding add nothing: kh runs over those on x,
    // 0 <= ih0 + kh * dh < height.
    Value khFirst = index(0), khLast = index(kernelH);
    if (padding.rows) {
      khFirst = ceilDivOfNonNegative(sub(0, ih0), dilations[0], kernelH);
      khLast =
          ceilDivOfNonNegative(sub(padding.height, ih0), dilations[0], kernelH);
    }
    acc = forRange(khFirst, khLast, acc, [&](Value kh, Value acc) {
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
          for (int64_t r = 0; r < pixels; ++r)
            pixelsAtC.push_back(
                loadInput(n, ih, add(iw, index(r * strides[1])), c, guarded));
          Value column = vector::FromElementsOp::create(
              rewriter, loc, VectorType::get({pixels}, element), pixelsAtC);
          return vector::OuterProductOp::create(rewriter, loc, accType, column,
                                                weights, acc,
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

/// `input` without the zeros that a tensor.pad put around its rows and
/// columns, read directly or through a unit-stride slice (the phases of a
/// strided convolution's input gradient), with the zeros in `padding`;
/// `input` itself, and no padding, otherwise.
Value stripZeroPadding(RewriterBase &rewriter, Location loc, Value input,
                       ZeroPadding &padding) {
  auto type = cast<RankedTensorType>(input.getType());
  padding = {type.getDimSize(1), type.getDimSize(2), 0, 0, false, false};
  // The window [offset, offset + size) of the padded tensor that is read.
  SmallVector<int64_t> offsets(4, 0);
  ArrayRef<int64_t> sizes = type.getShape();
  auto pad = input.getDefiningOp<tensor::PadOp>();
  if (auto slice = input.getDefiningOp<tensor::ExtractSliceOp>()) {
    if (!slice.hasUnitStride() ||
        llvm::any_of(slice.getStaticOffsets(), ShapedType::isDynamic))
      return input;
    offsets = llvm::to_vector(slice.getStaticOffsets());
    pad = slice.getSource().getDefiningOp<tensor::PadOp>();
  }
  Value value = pad ? pad.getConstantPaddingValue() : nullptr;
  if (!value || !matchPattern(value, m_AnyZeroFloat()) ||
      !pad.getSourceType().hasStaticShape() ||
      pad.getResultType().getRank() != 4 ||
      pad.getResultType().getDimSize(0) != sizes[0] ||
      pad.getResultType().getDimSize(3) != sizes[3])
    return input;
  SmallVector<int64_t> low = llvm::to_vector(pad.getStaticLow());
  if (llvm::any_of(low, ShapedType::isDynamic) || low[0] != 0 || low[3] != 0)
    return input;
  // Per spatial dim: the source's part in the window, where it starts
  // there.
  ArrayRef<int64_t> sourceShape = pad.getSourceType().getShape();
  SmallVector<int64_t> first(4, 0), count = llvm::to_vector(sourceShape);
  ZeroPadding stripped;
  for (int64_t d : {1, 2}) {
    int64_t begin = std::clamp<int64_t>(offsets[d] - low[d], 0, sourceShape[d]);
    int64_t end =
        std::clamp<int64_t>(offsets[d] + sizes[d] - low[d], 0, sourceShape[d]);
    if (end <= begin)
      return input; // the window reads only padding
    first[d] = begin;
    count[d] = end - begin;
    int64_t before = begin + low[d] - offsets[d];
    bool padded = before > 0 || before + count[d] < sizes[d];
    (d == 1 ? stripped.top : stripped.left) = before;
    (d == 1 ? stripped.rows : stripped.columns) = padded;
  }
  stripped.height = count[1];
  stripped.width = count[2];
  padding = stripped;
  Value source = pad.getSource();
  if (ArrayRef<int64_t>(count) == sourceShape)
    return source;
  return tensor::ExtractSliceOp::create(
      rewriter, loc, source,
      SmallVector<OpFoldResult>(
          getAsIndexOpFoldResult(rewriter.getContext(), first)),
      getAsIndexOpFoldResult(rewriter.getContext(), count),
      SmallVector<OpFoldResult>(4, rewriter.getIndexAttr(1)));
}

} // namespace

LogicalResult tracec::rewriteAsDirectConvolution(RewriterBase &rewriter,
                                                 linalg::Conv2DNhwcHwcfOp conv,
                                                 const CpuVectorInfo &cpu) {
  if (!conv.hasPureTensorSemantics())
    return failure();
  Value input = conv.getDpsInputs()[0], filter = conv.getDpsInputs()[1];
  Value output = conv.getDpsInits()[0];
  if (!areStaticFloatTensors({input, filter, output}))
    return failure();
  auto filterType = cast<RankedTensorType>(filter.getType());
  auto outputType = cast<RankedTensorType>(output.getType());
  if (outputType.getNumElements() == 0 || filterType.getNumElements() == 0)
    return failure();
  Type element = outputType.getElementType();

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
  // x is read in place: the zeros padded around it are never copied.
  builder.input = stripZeroPadding(rewriter, loc, input, builder.padding);
  const ZeroPadding &padding = builder.padding;

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

  // A fill's result is not read: the tiles start from its value, in the
  // fill's destination (a slice of a larger tensor where the result is
  // inserted, as the phases of an input gradient's are).
  Value shared = output;
  if (builder.fillValue)
    shared = output.getDefiningOp<linalg::FillOp>().getDpsInits()[0];

  int64_t width = outShape[2];
  int64_t wholeTiles = width / tile.pixels;
  int64_t lastPixels = width % tile.pixels;
  // The whole tiles [interiorFirst, interiorLast) of a row read no padded
  // column: tile t's taps read columns t * R * sw - left + [0, (R - 1) *
  // sw + (KW - 1) * dw]. The others load under a guard.
  int64_t interiorFirst = 0, interiorLast = wholeTiles;
  if (padding.columns) {
    int64_t tileStride = tile.pixels * builder.strides[1];
    int64_t lastStart = padding.width - 1 + padding.left -
                        (tile.pixels - 1) * builder.strides[1] -
                        (builder.kernelW - 1) * builder.dilations[1];
    interiorFirst = std::min<int64_t>(
        llvm::divideCeil(padding.left, tileStride), wholeTiles);
    interiorLast = lastStart < 0 ? 0 : lastStart / tileStride + 1;
    interiorLast = std::clamp(interiorLast, interiorFirst, wholeTiles);
  }
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
    Value row = tensor::ExtractSliceOp::create(
        rewriter, loc, rowType, sharedOut, offsets, sizes, unitStrides);
    auto channelLoop = scf::ForOp::create(
        rewriter, loc, builder.index(0), builder.index(paddedChannels),
        builder.index(tile.channels), ValueRange{row},
        [&](OpBuilder &, Location, Value f0, ValueRange rowArgs) {
          Value row = rowArgs[0];
          auto tiles = [&](int64_t first, int64_t last, bool guarded) {
            if (first >= last)
              return;
            auto pixelLoop = scf::ForOp::create(
                rewriter, loc, builder.index(first * tile.pixels),
                builder.index(last * tile.pixels), builder.index(tile.pixels),
                ValueRange{row},
                [&](OpBuilder &, Location, Value ow0, ValueRange args) {
                  scf::YieldOp::create(rewriter, loc,
                                       builder.computeTile(args[0], n, oh, ow0,
                                                           f0, tile.pixels,
                                                           guarded));
                });
            row = pixelLoop.getResult(0);
          };
          tiles(0, interiorFirst, /*guarded=*/true);
          tiles(interiorFirst, interiorLast, /*guarded=*/false);
          tiles(interiorLast, wholeTiles, /*guarded=*/true);
          if (lastPixels > 0)
            row = builder.computeTile(row, n, oh,
                                      builder.index(wholeTiles * tile.pixels),
                                      f0, lastPixels, padding.columns);
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

//===----------------------------------------------------------------------===//
// The filter's gradient
//===----------------------------------------------------------------------===//
//
//   dF[kh, kw, c, f] = sum over (n, oh, ow) of
//       xpad[n, oh*sh + kh*dh, ow*sw + kw*dw, c] * dy[n, oh, ow, f]
//
// For each tap row kh, dF[kh] is a matrix of KW * C rows (kw, c) — its own
// memory layout — by F. A register tile holds R consecutive rows by n0
// channels; one step per output pixel (n, oh, ow) loads dy's row of n0
// channels and broadcasts the R input values the rows read there into R
// FMAs: the per-tap matmuls' packed copies of x (transposed) and dy are
// never made.
//
// The output rows (n, oh) of pixels are split into a few tasks, each
// summing its own partial gradient; the partials are added at the end. A
// task walks its rows in blocks small enough to stay in L2 and passes over
// a block once per tile, so x and dy come from memory about once.
// Summation is blocked: a row of pixels sums in registers from zero, rows
// into their block's sum, blocks into the task's partial, partials into
// the result; each float adds few terms in sequence (a 64x32x32 batch:
// 32 + 16 + 32 + 4, not 65,536), within 2x of PyTorch's error.

namespace {

/// Tasks: enough for a few cores, few enough that the partial gradients
/// they add at the end cost little.
constexpr int64_t kFilterGradientTasks = 4;
/// Output pixels per block of a task: with the input rows they read, a
/// block's x and dy fit in L2 at 64 channels.
constexpr int64_t kFilterGradientBlockPixels = 512;

struct FilterGradientBuilder {
  DirectConvolutionBuilder &b;
  Value dy;
  int64_t outH, outW, rows;

  Value addf(Value lhs, Value rhs) {
    return arith::AddFOp::create(b.rewriter, b.loc, lhs, rhs);
  }

  /// Adds the tile of `count` rows from `row0` and channels from `f0`,
  /// summed over the output rows [first, last) of (n, oh), into `partial`
  /// (the task's [KH, KW * C, F]) at tap row `kh`.
  Value addTile(Value partial, Value first, Value last, Value kh, Value row0,
                Value f0, int64_t count) {
    RewriterBase &rewriter = b.rewriter;
    Location loc = b.loc;
    auto accType = VectorType::get({count, b.tile.channels}, b.element);
    bool wholeChannels = b.outChannels % b.tile.channels == 0;
    Value zero = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getZeroAttr(b.element));
    Value zeros = arith::ConstantOp::create(rewriter, loc, accType,
                                            rewriter.getZeroAttr(accType));
    // Where row r of the tile reads: column kw * dw - padLeft (relative to
    // ow * sw) and channel c.
    SmallVector<Value> columnOffsets, channels;
    for (int64_t r = 0; r < count; ++r) {
      Value row = b.add(row0, b.index(r));
      Value kw =
          arith::DivUIOp::create(rewriter, loc, row, b.index(b.inChannels));
      channels.push_back(
          arith::RemUIOp::create(rewriter, loc, row, b.index(b.inChannels)));
      columnOffsets.push_back(b.sub(b.mul(kw, b.dilations[1]), b.padding.left));
    }
    // One output pixel: dy's row of n0 channels times the R inputs.
    auto step = [&](Value n, Value oh, Value ih, Value ow, Value acc,
                    bool guarded) {
      Value iw0 = b.mul(ow, b.strides[1]);
      auto rowType = VectorType::get({b.tile.channels}, b.element);
      Value grads = vector::TransferReadOp::create(
          rewriter, loc, rowType, dy, ValueRange{n, oh, ow, f0}, zero,
          ArrayRef<bool>{wholeChannels});
      SmallVector<Value> inputs;
      for (int64_t r = 0; r < count; ++r)
        inputs.push_back(b.loadInput(n, ih, b.add(iw0, columnOffsets[r]),
                                     channels[r], guarded));
      Value column = vector::FromElementsOp::create(
          rewriter, loc, VectorType::get({count}, b.element), inputs);
      return vector::OuterProductOp::create(rewriter, loc, accType, column,
                                            grads, acc,
                                            vector::CombiningKind::ADD)
          .getResult();
    };
    // The output columns whose taps all read the input: ow * sw +
    // columnOffsets[r] in [0, width) for every r (the offsets grow with r).
    const ZeroPadding &padding = b.padding;
    Value interiorFirst, interiorLast;
    if (padding.columns) {
      interiorFirst = b.ceilDivOfNonNegative(b.sub(0, columnOffsets[0]),
                                             b.strides[1], outW);
      interiorLast = arith::MaxSIOp::create(
          rewriter, loc,
          b.ceilDivOfNonNegative(b.sub(padding.width, columnOffsets[count - 1]),
                                 b.strides[1], outW),
          interiorFirst);
    }
    Value rowOffset = b.sub(b.mul(kh, b.dilations[0]), padding.top);
    Value block = b.forRange(first, last, zeros, [&](Value p, Value block) {
      Value n = arith::DivUIOp::create(rewriter, loc, p, b.index(outH));
      Value oh = arith::RemUIOp::create(rewriter, loc, p, b.index(outH));
      Value ih = b.add(b.mul(oh, b.strides[0]), rowOffset);
      auto sumRow = [&]() {
        auto columns = [&](Value from, Value to, Value acc, bool guarded) {
          return b.forRange(from, to, acc, [&](Value ow, Value acc) {
            return step(n, oh, ih, ow, acc, guarded);
          });
        };
        Value pixels = zeros;
        if (padding.columns) {
          pixels = columns(interiorFirst, interiorLast, pixels, false);
          // The columns before and after, in one loop.
          pixels = b.forRangeAround(interiorFirst, interiorLast, b.index(outW),
                                    pixels, [&](Value ow, Value acc) {
                                      return step(n, oh, ih, ow, acc,
                                                  /*guarded=*/true);
                                    });
        } else {
          pixels = columns(b.index(0), b.index(outW), pixels, false);
        }
        return addf(block, pixels);
      };
      if (!padding.rows)
        return sumRow();
      // A row of padding adds nothing.
      auto ifValid =
          scf::IfOp::create(rewriter, loc, TypeRange{accType},
                            b.inRange(ih, padding.height), true, true);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifValid.thenBlock());
      scf::YieldOp::create(rewriter, loc, sumRow());
      rewriter.setInsertionPointToStart(ifValid.elseBlock());
      scf::YieldOp::create(rewriter, loc, block);
      return ifValid.getResult(0);
    });
    SmallVector<bool> inBounds = {true, wholeChannels};
    Value sum = vector::TransferReadOp::create(rewriter, loc, accType, partial,
                                               ValueRange{kh, row0, f0}, zero,
                                               inBounds);
    return vector::TransferWriteOp::create(rewriter, loc, addf(sum, block),
                                           partial, ValueRange{kh, row0, f0},
                                           inBounds)
        .getResult();
  }
};

} // namespace

LogicalResult
tracec::rewriteFilterGradientDirectly(RewriterBase &rewriter,
                                      trace::Conv2DBackpropFilterOp op,
                                      const CpuVectorInfo &cpu) {
  RankedTensorType resultType = op.getType();
  if (!areStaticFloatTensors({op.getInput(), op.getDy(), op.getResult()}) ||
      resultType.getNumElements() == 0)
    return failure();
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  auto dyType = cast<RankedTensorType>(op.getDy().getType());
  Type element = resultType.getElementType();
  Location loc = op.getLoc();
  ArrayRef<int64_t> filterShape = resultType.getShape();
  ArrayRef<int64_t> dyShape = dyType.getShape();
  int64_t rows = filterShape[1] * filterShape[2];
  int64_t channels = filterShape[3];

  // x read in place: its padding is never written (FilterGradientBuilder).
  Value input = op.getInput();
  ArrayRef<int64_t> padding = op.getPadding();
  Value zero =
      arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));

  DirectConvolutionBuilder conv{
      rewriter,
      loc,
      input,
      /*filter=*/nullptr,
      element,
      filterShape[0],
      filterShape[1],
      filterShape[2],
      channels,
      llvm::to_vector(op.getStrides()),
      llvm::to_vector(op.getDilations()),
      chooseConvTile(cpu, element.getIntOrFloatBitWidth(), rows, channels),
      /*fillValue=*/nullptr};
  conv.padding = {inputType.getDimSize(1),
                  inputType.getDimSize(2),
                  padding[0],
                  padding[2],
                  padding[0] != 0 || padding[1] != 0,
                  padding[2] != 0 || padding[3] != 0};
  FilterGradientBuilder grad{conv, op.getDy(), dyShape[1], dyShape[2], rows};
  const ConvTile &tile = conv.tile;

  // Output rows (n, oh): split into tasks, walked in blocks.
  int64_t outputRows = dyShape[0] * dyShape[1];
  int64_t tasks = std::clamp<int64_t>(outputRows, 1, kFilterGradientTasks);
  int64_t rowsPerTask = llvm::divideCeil(outputRows, tasks);
  int64_t blockRows = std::clamp<int64_t>(kFilterGradientBlockPixels /
                                              std::max<int64_t>(1, dyShape[2]),
                                          1, rowsPerTask);
  int64_t wholeTiles = rows / tile.pixels, lastRows = rows % tile.pixels;

  // One partial gradient [KH, KW * C, F] per task, from zeros.
  auto partialType =
      RankedTensorType::get({filterShape[0], rows, channels}, element);
  SmallVector<int64_t> partialsShape = {tasks, filterShape[0], rows, channels};
  Value partials =
      tensor::EmptyOp::create(rewriter, loc, partialsShape, element);
  // An empty batch or output sums nothing: the result is the zeros.
  if (outputRows == 0 || dyShape[2] == 0) {
    partials = linalg::FillOp::create(rewriter, loc, ValueRange{zero},
                                      ValueRange{partials})
                   .getResult(0);
  } else {
    SmallVector<OpFoldResult> taskCount = {rewriter.getIndexAttr(tasks)};
    auto forall = scf::ForallOp::create(rewriter, loc, taskCount,
                                        ValueRange{partials}, std::nullopt);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(forall.getBody());
    Value task = forall.getInductionVar(0);
    Value shared = forall.getRegionIterArgs()[0];
    SmallVector<OpFoldResult> offsets = {task, rewriter.getIndexAttr(0),
                                         rewriter.getIndexAttr(0),
                                         rewriter.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes = {
        rewriter.getIndexAttr(1), rewriter.getIndexAttr(filterShape[0]),
        rewriter.getIndexAttr(rows), rewriter.getIndexAttr(channels)};
    SmallVector<OpFoldResult> unitStrides(4, rewriter.getIndexAttr(1));
    // Each task zeroes its own partial: in parallel, and into its cache.
    Value partial =
        linalg::FillOp::create(rewriter, loc, ValueRange{zero},
                               ValueRange{tensor::ExtractSliceOp::create(
                                   rewriter, loc, partialType, shared, offsets,
                                   sizes, unitStrides)})
            .getResult(0);
    Value taskFirst = conv.mul(task, rowsPerTask);
    Value taskLast = arith::MinUIOp::create(
        rewriter, loc, conv.add(taskFirst, conv.index(rowsPerTask)),
        conv.index(outputRows));
    auto blocks = scf::ForOp::create(
        rewriter, loc, taskFirst, taskLast, conv.index(blockRows),
        ValueRange{partial},
        [&](OpBuilder &, Location, Value first, ValueRange blockArgs) {
          Value last = arith::MinUIOp::create(
              rewriter, loc, conv.add(first, conv.index(blockRows)), taskLast);
          auto byTap = [&](Value kh, Value partial) {
            return conv.forRange(
                llvm::divideCeil(channels, tile.channels), partial,
                [&](Value fTile, Value partial) {
                  Value f0 = conv.mul(fTile, tile.channels);
                  if (wholeTiles > 0)
                    partial = conv.forRange(
                        wholeTiles, partial, [&](Value rowTile, Value partial) {
                          return grad.addTile(partial, first, last, kh,
                                              conv.mul(rowTile, tile.pixels),
                                              f0, tile.pixels);
                        });
                  if (lastRows > 0)
                    partial = grad.addTile(partial, first, last, kh,
                                           conv.index(wholeTiles * tile.pixels),
                                           f0, lastRows);
                  return partial;
                });
          };
          scf::YieldOp::create(
              rewriter, loc,
              conv.forRange(filterShape[0], blockArgs[0], byTap));
        });
    rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(rewriter, loc, blocks.getResult(0),
                                          shared, offsets, sizes, unitStrides);
    partials = forall.getResult(0);
  }

  // The partials' sum, as the filter [KH, KW, C, F].
  Value sumInit = linalg::FillOp::create(
                      rewriter, loc, ValueRange{zero},
                      ValueRange{tensor::EmptyOp::create(
                          rewriter, loc, partialType.getShape(), element)})
                      .getResult(0);
  auto sum = linalg::ReduceOp::create(
      rewriter, loc, ValueRange{partials}, ValueRange{sumInit},
      ArrayRef<int64_t>{0}, [](OpBuilder &b, Location l, ValueRange args) {
        linalg::YieldOp::create(
            b, l, arith::AddFOp::create(b, l, args[0], args[1]).getResult());
      });
  rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
      op, resultType, sum.getResult(0),
      SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}});
  return success();
}
