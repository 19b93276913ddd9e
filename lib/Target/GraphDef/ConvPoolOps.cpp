//===- ConvPoolOps.cpp - TF convolution, pooling, batch norm --------------===//
//
// The dialect's ops are NHWC (TensorFlow's CPU default); NCHW nodes
// (data_format, TensorFlow's GPU layout) become the NHWC op between
// transposes, and their attribute lists ([1, 1, h, w]) are read in that
// order. TF's HWIO filters are the dialect's HWCF. SAME padding becomes the
// dialect's explicit [top, bottom, left, right], the extra row/column at
// the bottom/right as in TensorFlow.
//
//===----------------------------------------------------------------------===//

#include "NodeBuilder.h"

#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include <limits>

using namespace mlir;
using namespace tracec::graphdef;
namespace trace = mlir::trace;

namespace {
/// The spatial part of a conv/pool node's attributes.
struct Window {
  SmallVector<int64_t> strides, dilations, padding;
};
} // namespace

/// Whether the node's data_format is NCHW (else NHWC; others are errors).
static FailureOr<bool> isNCHW(NodeBuilder &b) {
  FailureOr<std::string> format = b.stringAttr("data_format", "NHWC");
  if (failed(format))
    return failure();
  if (*format != "NHWC" && *format != "NCHW")
    return b.error() << "data_format '" << *format
                     << "' is not supported (NHWC or NCHW)";
  return *format == "NCHW";
}

/// `x` transposed between NCHW and NHWC (`toNHWC`: [0, 2, 3, 1]), or itself
/// for NHWC nodes.
static FailureOr<Value> relayout(NodeBuilder &b, Value x, bool nchw,
                                 bool toNHWC) {
  if (!nchw)
    return x;
  if (cast<RankedTensorType>(x.getType()).getRank() != 4)
    return b.error() << "data_format NCHW needs a 4-D input, got "
                     << x.getType();
  static const int64_t forward[] = {0, 2, 3, 1}, backward[] = {0, 3, 1, 2};
  return b.create<trace::TransposeOp>(
      {x}, {b.named("perm", b.i64s(toNHWC ? forward : backward))});
}

/// A 4-vector attribute in the node's layout, [1, h, w, 1] (NHWC) or
/// [1, 1, h, w] (NCHW), as [h, w].
static FailureOr<SmallVector<int64_t>> spatial(NodeBuilder &b, StringRef name,
                                               bool required, bool nchw) {
  std::optional<ArrayRef<int64_t>> byDefault;
  static const int64_t ones[] = {1, 1, 1, 1};
  if (!required)
    byDefault = ArrayRef<int64_t>(ones);
  FailureOr<SmallVector<int64_t>> values = b.intListAttr(name, byDefault);
  if (failed(values))
    return failure();
  unsigned h = nchw ? 2 : 1, c = nchw ? 1 : 3;
  if (values->size() != 4 || (*values)[0] != 1 || (*values)[c] != 1) {
    auto diag = b.error() << "'" << name << "' must be "
                          << (nchw ? "[1, 1, h, w] (NCHW)"
                                   : "[1, h, w, 1] (NHWC)")
                          << ", got [";
    llvm::interleaveComma(*values, diag);
    return diag << "]";
  }
  // Windows, strides and dilations of zero would divide by zero; sizes past
  // int32 (TensorFlow's kernels' index type) would overflow the arithmetic.
  for (unsigned i : {h, h + 1})
    if ((*values)[i] < 1 || (*values)[i] > std::numeric_limits<int32_t>::max())
      return b.error() << "'" << name << "' must be between 1 and "
                       << std::numeric_limits<int32_t>::max()
                       << " in the spatial dims, got " << (*values)[i];
  return SmallVector<int64_t>{(*values)[h], (*values)[h + 1]};
}

/// Explicit padding for input `in` ([N, H, W, C]) and a window of
/// `kernel` (dilated sizes) by the node's `padding` attribute.
static FailureOr<Window> window(NodeBuilder &b, ArrayRef<int64_t> in,
                                ArrayRef<int64_t> kernel, bool dilated,
                                bool nchw) {
  Window w;
  FailureOr<SmallVector<int64_t>> strides = spatial(b, "strides", true, nchw);
  if (failed(strides))
    return failure();
  w.strides = *strides;
  w.dilations = {1, 1};
  if (dilated) {
    FailureOr<SmallVector<int64_t>> d = spatial(b, "dilations", false, nchw);
    if (failed(d))
      return failure();
    w.dilations = *d;
  }
  FailureOr<std::string> padding = b.stringAttr("padding");
  if (failed(padding))
    return failure();
  if (*padding == "VALID") {
    w.padding = {0, 0, 0, 0};
  } else if (*padding == "SAME") {
    for (int i = 0; i < 2; ++i) {
      int64_t size = in[1 + i], stride = w.strides[i];
      int64_t extent = (kernel[i] - 1) * w.dilations[i] + 1;
      int64_t out = (size + stride - 1) / stride;
      int64_t total = std::max<int64_t>((out - 1) * stride + extent - size, 0);
      w.padding.append({total / 2, total - total / 2});
    }
  } else if (*padding == "EXPLICIT") {
    FailureOr<SmallVector<int64_t>> explicitPad =
        b.intListAttr("explicit_paddings");
    if (failed(explicitPad))
      return failure();
    if (explicitPad->size() != 8)
      return b.error() << "explicit_paddings must have 8 entries";
    // [before, after] per dim of the layout: H and W's.
    auto hw = explicitPad->begin() + (nchw ? 4 : 2);
    w.padding.assign(hw, hw + 4);
  } else {
    return b.error() << "unknown padding '" << *padding << "'";
  }
  return w;
}

static NodeResults conv2dNHWC(NodeBuilder &b, Value input, bool nchw);

static NodeResults conv2d(NodeBuilder &b) {
  if (failed(b.checkInputs(2)))
    return failure();
  FailureOr<bool> nchw = isNCHW(b);
  if (failed(nchw))
    return failure();
  FailureOr<Value> input = relayout(b, b.inputs[0], *nchw, true);
  if (failed(input))
    return failure();
  NodeResults y = conv2dNHWC(b, *input, *nchw);
  if (failed(y))
    return failure();
  FailureOr<Value> out = relayout(b, (*y)[0], *nchw, false);
  if (failed(out))
    return failure();
  return SmallVector<Value>{*out};
}

/// Conv2D/DepthwiseConv2dNative on `input` in NHWC.
static NodeResults conv2dNHWC(NodeBuilder &b, Value input, bool nchw) {
  auto in = cast<RankedTensorType>(input.getType());
  RankedTensorType filter = b.inputType(1);
  if (in.getRank() != 4 || filter.getRank() != 4)
    return b.error() << "input and filter must be 4-D";
  FailureOr<Window> w =
      window(b, in.getShape(), filter.getShape().take_front(2), true, nchw);
  if (failed(w))
    return failure();
  SmallVector<NamedAttribute> attrs{b.named("strides", b.i64s(w->strides)),
                                    b.named("padding", b.i64s(w->padding)),
                                    b.named("dilations", b.i64s(w->dilations))};
  auto one = [](FailureOr<Value> v) -> NodeResults {
    if (failed(v))
      return failure();
    return SmallVector<Value>{*v};
  };
  if (b.node.op() == "Conv2D")
    return one(b.create<trace::Conv2DOp>({input, b.inputs[1]}, attrs));

  // DepthwiseConv2dNative: filter [KH, KW, C, M]; output channel c*M + m is
  // channel c convolved with filter[:, :, c, m]: one conv per channel.
  int64_t channels = in.getDimSize(3);
  if (filter.getDimSize(2) != channels)
    return b.error() << "the filter has " << filter.getDimSize(2)
                     << " input channels, the input " << channels;
  SmallVector<Value> parts;
  for (int64_t c = 0; c < channels; ++c) {
    auto sliceChannel = [&](Value x, RankedTensorType type, int64_t dim) {
      SmallVector<int64_t> start(4, 0), limit(type.getShape());
      start[dim] = c;
      limit[dim] = c + 1;
      return b.create<trace::SliceOp>(
          {x}, {b.named("start", b.i64s(start)), b.named("limit", b.i64s(limit))});
    };
    FailureOr<Value> x = sliceChannel(input, in, 3);
    FailureOr<Value> f = sliceChannel(b.inputs[1], filter, 2);
    if (failed(x) || failed(f))
      return failure();
    FailureOr<Value> y = b.create<trace::Conv2DOp>({*x, *f}, attrs);
    if (failed(y))
      return failure();
    parts.push_back(*y);
  }
  if (parts.size() == 1)
    return parts;
  return one(b.create<trace::ConcatOp>(
      parts, {b.named("axis", b.builder.getI64IntegerAttr(3))}));
}

template <typename OpTy> static NodeResults pool(NodeBuilder &b) {
  if (failed(b.checkInputs(1)))
    return failure();
  FailureOr<bool> nchw = isNCHW(b);
  if (failed(nchw))
    return failure();
  if (b.inputType(0).getRank() != 4)
    return b.error() << "the input must be 4-D";
  FailureOr<Value> input = relayout(b, b.inputs[0], *nchw, true);
  if (failed(input))
    return failure();
  auto in = cast<RankedTensorType>(input->getType());
  FailureOr<SmallVector<int64_t>> ksize = spatial(b, "ksize", true, *nchw);
  if (failed(ksize))
    return failure();
  FailureOr<Window> w = window(b, in.getShape(), *ksize, false, *nchw);
  if (failed(w))
    return failure();
  FailureOr<Value> y = b.create<OpTy>(
      {*input}, {b.named("window", b.i64s(*ksize)),
                 b.named("strides", b.i64s(w->strides)),
                 b.named("padding", b.i64s(w->padding))});
  if (failed(y))
    return failure();
  FailureOr<Value> out = relayout(b, *y, *nchw, false);
  if (failed(out))
    return failure();
  return SmallVector<Value>{*out};
}

/// FusedBatchNorm(V2/V3): y = (x - mean) * rsqrt(variance + epsilon) *
/// scale + offset, per channel, with the statistics in the parameters'
/// type (f32 for f16 inputs).
/// - Inference (is_training: false): mean and variance are the inputs,
///   which the other outputs repeat.
/// - Training: the batch's mean and (biased) variance over N, H, W; the
///   outputs batch_mean/batch_variance are the running statistics
///   TensorFlow updates: with f = exponential_avg_factor (default 1),
///   (1 - f) * running + f * batch, the variance Bessel-corrected
///   (n / (n - 1)); reserve_space_1/2 are the batch mean and biased
///   variance.
static NodeResults fusedBatchNorm(NodeBuilder &b) {
  if (failed(b.checkInputs(5)))
    return failure();
  FailureOr<bool> nchw = isNCHW(b);
  FailureOr<bool> training = b.boolAttr("is_training", true);
  FailureOr<float> epsilon = b.floatAttr("epsilon", 1e-4f);
  FailureOr<float> factor = b.floatAttr("exponential_avg_factor", 1.0f);
  if (failed(nchw) || failed(training) || failed(epsilon) || failed(factor))
    return failure();
  Value scale = b.inputs[1], offset = b.inputs[2], mean = b.inputs[3],
        variance = b.inputs[4];
  Type paramType = b.inputType(1).getElementType();
  bool failedOp = false;
  auto op = [&](StringRef name, ValueRange operands,
                ArrayRef<NamedAttribute> attrs = {}) -> Value {
    if (failedOp || llvm::any_of(operands, [](Value v) { return !v; }))
      return failedOp = true, Value();
    FailureOr<Value> v = b.create(name, operands, attrs);
    if (failed(v))
      return failedOp = true, Value();
    return *v;
  };
  auto scalar = [&](double v) { return b.scalar(v, paramType); };
  FailureOr<Value> x = relayout(b, b.inputs[0], *nchw, true);
  if (failed(x))
    return failure();
  if (cast<RankedTensorType>(x->getType()).getRank() != 4)
    return b.error() << "the input must be 4-D";
  FailureOr<Value> xp = b.cast(*x, paramType);
  if (failed(xp))
    return failure();

  // mean/variance normalize (and are reserve_space_1/2); runningMean/
  // runningVariance are outputs 1 and 2.
  Value centered, runningMean = mean, runningVariance = variance;
  if (*training) {
    auto over = b.named("axes", b.i64s({0, 1, 2}));
    auto shape = cast<RankedTensorType>(xp->getType()).getShape();
    int64_t n = shape[0] * shape[1] * shape[2];
    mean = op(trace::ReduceMeanOp::getOperationName(), {*xp}, over);
    centered = op(trace::SubOp::getOperationName(), {*xp, mean});
    variance = op(trace::ReduceMeanOp::getOperationName(),
                  {op(trace::MulOp::getOperationName(), {centered, centered})},
                  over);
    runningMean = mean;
    runningVariance =
        n > 1 ? op(trace::MulOp::getOperationName(),
                   {variance, scalar(double(n) / double(n - 1))})
              : variance;
    if (*factor != 1.0f) {
      auto blend = [&](Value running, Value batch) {
        Value kept = op(trace::MulOp::getOperationName(),
                        {running, scalar(1.0 - *factor)});
        Value added =
            op(trace::MulOp::getOperationName(), {batch, scalar(*factor)});
        return op(trace::AddOp::getOperationName(), {kept, added});
      };
      runningMean = blend(b.inputs[3], runningMean);
      runningVariance = blend(b.inputs[4], runningVariance);
    }
  } else {
    centered = op(trace::SubOp::getOperationName(), {*xp, mean});
  }
  Value rs = op(trace::RsqrtOp::getOperationName(),
                {op(trace::AddOp::getOperationName(),
                    {variance, scalar(*epsilon)})});
  Value factorValue = op(trace::MulOp::getOperationName(), {rs, scale});
  Value y = op(trace::AddOp::getOperationName(),
               {op(trace::MulOp::getOperationName(), {centered, factorValue}),
                offset});
  if (failedOp)
    return failure();
  FailureOr<Value> out = b.cast(y, b.inputType(0).getElementType());
  if (failed(out))
    return failure();
  out = relayout(b, *out, *nchw, false);
  if (failed(out))
    return failure();
  SmallVector<Value> results{*out, runningMean, runningVariance, mean,
                             variance};
  if (b.node.op() == "FusedBatchNormV3")
    results.push_back(mean);
  return results;
}

void tracec::graphdef::registerConvPoolOps(OpRegistry &registry) {
  OpMapping batchNorm{fusedBatchNorm,
                      {"y", "batch_mean", "batch_variance", "reserve_space_1",
                       "reserve_space_2", "reserve_space_3"}};
  registry.insert({
      {"Conv2D", {conv2d}},
      {"DepthwiseConv2dNative", {conv2d}},
      {"MaxPool", {pool<trace::MaxPool2DOp>}},
      {"AvgPool", {pool<trace::AvgPool2DOp>}},
      {"FusedBatchNorm", batchNorm},
      {"FusedBatchNormV2", batchNorm},
      {"FusedBatchNormV3", batchNorm},
  });
}
