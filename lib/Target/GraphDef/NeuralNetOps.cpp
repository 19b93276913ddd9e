//===- NeuralNetOps.cpp - TF convolution, pooling, batch norm -------------===//
//
// NHWC only (TensorFlow's CPU default); TF's HWIO filters are the dialect's
// HWCF. SAME padding becomes the dialect's explicit [top, bottom, left,
// right], the extra row/column at the bottom/right as in TensorFlow.
//
//===----------------------------------------------------------------------===//

#include "NodeBuilder.h"

#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;
using namespace tracec::graphdef;
namespace trace = mlir::trace;

namespace {
/// The spatial part of a conv/pool node's attributes.
struct Window {
  SmallVector<int64_t> strides, dilations, padding;
};
} // namespace

static LogicalResult checkNHWC(NodeBuilder &b) {
  FailureOr<std::string> format = b.stringAttr("data_format", "NHWC");
  if (failed(format))
    return failure();
  if (*format != "NHWC")
    return b.error() << "data_format '" << *format
                     << "' is not supported (NHWC only)";
  return success();
}

/// An NHWC 4-vector attribute [1, h, w, 1] as [h, w].
static FailureOr<SmallVector<int64_t>> spatial(NodeBuilder &b, StringRef name,
                                               bool required) {
  std::optional<ArrayRef<int64_t>> byDefault;
  static const int64_t ones[] = {1, 1, 1, 1};
  if (!required)
    byDefault = ArrayRef<int64_t>(ones);
  FailureOr<SmallVector<int64_t>> values = b.intListAttr(name, byDefault);
  if (failed(values))
    return failure();
  if (values->size() != 4 || (*values)[0] != 1 || (*values)[3] != 1)
    return b.error() << "'" << name
                     << "' must be [1, h, w, 1] (NHWC), got a list of "
                     << values->size();
  return SmallVector<int64_t>{(*values)[1], (*values)[2]};
}

/// Explicit padding for input `in` ([N, H, W, C]) and a window of
/// `kernel` (dilated sizes) by the node's `padding` attribute.
static FailureOr<Window> window(NodeBuilder &b, ArrayRef<int64_t> in,
                                ArrayRef<int64_t> kernel, bool dilated) {
  Window w;
  FailureOr<SmallVector<int64_t>> strides = spatial(b, "strides", true);
  if (failed(strides))
    return failure();
  w.strides = *strides;
  w.dilations = {1, 1};
  if (dilated) {
    FailureOr<SmallVector<int64_t>> d = spatial(b, "dilations", false);
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
    w.padding.assign(explicitPad->begin() + 2, explicitPad->begin() + 6);
  } else {
    return b.error() << "unknown padding '" << *padding << "'";
  }
  return w;
}

static NodeResults conv2d(NodeBuilder &b) {
  if (failed(b.checkInputs(2)) || failed(checkNHWC(b)))
    return failure();
  RankedTensorType in = b.inputType(0), filter = b.inputType(1);
  if (in.getRank() != 4 || filter.getRank() != 4)
    return b.error() << "input and filter must be 4-D";
  FailureOr<Window> w =
      window(b, in.getShape(), filter.getShape().take_front(2), true);
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
    return one(b.create<trace::Conv2DOp>({b.inputs[0], b.inputs[1]}, attrs));

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
    FailureOr<Value> x = sliceChannel(b.inputs[0], in, 3);
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
  if (failed(b.checkInputs(1)) || failed(checkNHWC(b)))
    return failure();
  RankedTensorType in = b.inputType(0);
  if (in.getRank() != 4)
    return b.error() << "the input must be 4-D";
  FailureOr<SmallVector<int64_t>> ksize = spatial(b, "ksize", true);
  if (failed(ksize))
    return failure();
  FailureOr<Window> w = window(b, in.getShape(), *ksize, false);
  if (failed(w))
    return failure();
  FailureOr<Value> y = b.create<OpTy>(
      {b.inputs[0]}, {b.named("window", b.i64s(*ksize)),
                      b.named("strides", b.i64s(w->strides)),
                      b.named("padding", b.i64s(w->padding))});
  if (failed(y))
    return failure();
  return SmallVector<Value>{*y};
}

/// FusedBatchNorm(V2/V3) in inference mode:
/// y = (x - mean) * rsqrt(variance + epsilon) * scale + offset; the other
/// outputs are the given mean and variance.
static NodeResults fusedBatchNorm(NodeBuilder &b) {
  if (failed(b.checkInputs(5)) || failed(checkNHWC(b)))
    return failure();
  FailureOr<bool> training = b.boolAttr("is_training", true);
  FailureOr<float> epsilon = b.floatAttr("epsilon", 1e-4f);
  if (failed(training) || failed(epsilon))
    return failure();
  if (*training)
    return b.error() << "is_training = true is not supported (inference "
                        "mode only: set is_training: false)";
  Value x = b.inputs[0], scale = b.inputs[1], offset = b.inputs[2],
        mean = b.inputs[3], variance = b.inputs[4];
  Type paramType = b.inputType(1).getElementType();
  auto op = [&](StringRef name, ValueRange operands) -> FailureOr<Value> {
    return b.create(name, operands);
  };
  // The statistics (f32 for f16 inputs) in the input's type.
  FailureOr<Value> xp = b.cast(x, paramType);
  if (failed(xp))
    return failure();
  FailureOr<Value> sum = op(trace::AddOp::getOperationName(),
                            {variance, b.scalar(*epsilon, paramType)});
  if (failed(sum))
    return failure();
  FailureOr<Value> rs = op(trace::RsqrtOp::getOperationName(), {*sum});
  if (failed(rs))
    return failure();
  FailureOr<Value> factor = op(trace::MulOp::getOperationName(), {*rs, scale});
  if (failed(factor))
    return failure();
  FailureOr<Value> centered =
      op(trace::SubOp::getOperationName(), {*xp, mean});
  if (failed(centered))
    return failure();
  FailureOr<Value> scaled =
      op(trace::MulOp::getOperationName(), {*centered, *factor});
  if (failed(scaled))
    return failure();
  FailureOr<Value> y = op(trace::AddOp::getOperationName(), {*scaled, offset});
  if (failed(y))
    return failure();
  FailureOr<Value> out = b.cast(*y, b.inputType(0).getElementType());
  if (failed(out))
    return failure();
  SmallVector<Value> results{*out, mean, variance, mean, variance};
  if (b.node.op() == "FusedBatchNormV3")
    results.push_back(mean);
  return results;
}

void tracec::graphdef::registerNeuralNetOps(OpRegistry &registry) {
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
