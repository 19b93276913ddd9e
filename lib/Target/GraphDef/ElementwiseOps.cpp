//===- ElementwiseOps.cpp - TF unary, binary, comparison, logical ops -----===//
//
// TensorFlow's elementwise ops have equal operand dtypes, as the dialect's
// do, and broadcast as NumPy does: most map one to one. Activations the
// dialect lacks (Relu6, Elu, Selu, Softplus) are composed from its ops.
//
//===----------------------------------------------------------------------===//

#include "NodeBuilder.h"

#include "tracec/Dialect/Trace/IR/TraceOps.h"

using namespace mlir;
using namespace tracec::graphdef;
namespace trace = mlir::trace;

template <typename OpTy> static NodeResults unary(NodeBuilder &b) {
  if (failed(b.checkInputs(1)))
    return failure();
  auto result = b.create<OpTy>({b.inputs[0]});
  if (failed(result))
    return failure();
  return SmallVector<Value>{*result};
}

template <typename OpTy> static NodeResults binary(NodeBuilder &b) {
  if (failed(b.checkInputs(2)))
    return failure();
  auto result = b.create<OpTy>({b.inputs[0], b.inputs[1]});
  if (failed(result))
    return failure();
  return SmallVector<Value>{*result};
}

static Type elementTypeOf(Value x) {
  return cast<RankedTensorType>(x.getType()).getElementType();
}

/// Chains the dialect's ops without repeating the failure checks: a null
/// value stands for a failure already reported.
namespace {
struct Composer {
  NodeBuilder &b;
  bool failed = false;
  Value op(StringRef name, ValueRange operands) {
    if (failed || llvm::any_of(operands, [](Value v) { return !v; }))
      return failed = true, Value();
    auto result = b.create(name, operands);
    if (mlir::failed(result))
      return failed = true, Value();
    return *result;
  }
  template <typename OpTy> Value op(ValueRange operands) {
    return op(OpTy::getOperationName(), operands);
  }
  Value scalar(double value, Value like) {
    return like ? b.scalar(value, elementTypeOf(like)) : Value();
  }
  NodeResults result(Value v) {
    if (failed || !v)
      return failure();
    return SmallVector<Value>{v};
  }
};
} // namespace

static NodeResults square(NodeBuilder &b) {
  if (failed(b.checkInputs(1)))
    return failure();
  Composer c{b};
  return c.result(c.op<trace::MulOp>({b.inputs[0], b.inputs[0]}));
}

static NodeResults squaredDifference(NodeBuilder &b) {
  if (failed(b.checkInputs(2)))
    return failure();
  Composer c{b};
  Value d = c.op<trace::SubOp>({b.inputs[0], b.inputs[1]});
  return c.result(c.op<trace::MulOp>({d, d}));
}

/// x / y, and 0 where y == 0.
static NodeResults divNoNan(NodeBuilder &b) {
  if (failed(b.checkInputs(2)))
    return failure();
  Composer c{b};
  Value x = b.inputs[0], y = b.inputs[1];
  Value zero = c.scalar(0.0, y);
  Value isZero = c.op<trace::EqOp>({y, zero});
  Value quotient = c.op<trace::DivOp>({x, y});
  return c.result(c.op<trace::SelectOp>({isZero, zero, quotient}));
}

static NodeResults addN(NodeBuilder &b) {
  if (failed(b.checkListInputs(/*min=*/1, /*others=*/0)))
    return failure();
  Composer c{b};
  Value sum = b.inputs[0];
  for (Value x : llvm::drop_begin(b.inputs))
    sum = c.op<trace::AddOp>({sum, x});
  if (b.inputs.size() == 1)
    return SmallVector<Value>{sum};
  return c.result(sum);
}

/// BiasAdd: a 1-D bias added along the channel dim (last for NHWC).
static NodeResults biasAdd(NodeBuilder &b) {
  if (failed(b.checkInputs(2)))
    return failure();
  FailureOr<std::string> format = b.stringAttr("data_format", "NHWC");
  if (failed(format))
    return failure();
  Value bias = b.inputs[1];
  RankedTensorType x = b.inputType(0), biasType = b.inputType(1);
  if (!x || !biasType || biasType.getRank() != 1)
    return b.error() << "the bias must be a 1-D tensor";
  if (*format == "NCHW" || *format == "NCDHW") {
    if (x.getRank() < 2)
      return b.error() << "data_format " << *format
                       << " needs an input of rank >= 2";
    // [C] -> [C, 1, ..., 1] to broadcast along dim 1.
    SmallVector<int64_t> shape(x.getRank() - 1, 1);
    shape[0] = biasType.getDimSize(0);
    FailureOr<Value> reshaped = b.reshape(bias, shape);
    if (failed(reshaped))
      return failure();
    bias = *reshaped;
  } else if (*format != "NHWC" && *format != "NDHWC") {
    return b.error() << "unsupported data_format '" << *format << "'";
  }
  Composer c{b};
  return c.result(c.op<trace::AddOp>({b.inputs[0], bias}));
}

static NodeResults relu6(NodeBuilder &b) {
  if (failed(b.checkInputs(1)))
    return failure();
  Composer c{b};
  Value r = c.op<trace::ReluOp>({b.inputs[0]});
  return c.result(c.op<trace::MinOp>({r, c.scalar(6.0, r)}));
}

/// scale * (x > 0 ? x : alpha * (exp(x) - 1)).
static NodeResults eluWith(NodeBuilder &b, double alpha, double scale) {
  if (failed(b.checkInputs(1)))
    return failure();
  Composer c{b};
  Value x = b.inputs[0];
  Value positive = c.op<trace::GtOp>({x, c.scalar(0.0, x)});
  Value expm1 = c.op<trace::SubOp>({c.op<trace::ExpOp>({x}), c.scalar(1, x)});
  Value negative = alpha == 1.0 ? expm1
                                : c.op<trace::MulOp>({expm1, c.scalar(alpha, x)});
  Value y = c.op<trace::SelectOp>({positive, x, negative});
  if (scale != 1.0)
    y = c.op<trace::MulOp>({y, c.scalar(scale, x)});
  return c.result(y);
}
static NodeResults elu(NodeBuilder &b) { return eluWith(b, 1.0, 1.0); }
static NodeResults selu(NodeBuilder &b) {
  return eluWith(b, 1.6732632423543772848170429916717,
                 1.0507009873554804934193349852946);
}

/// log(1 + e^x), stable: max(x, 0) + log1p(e^-|x|).
static NodeResults softplus(NodeBuilder &b) {
  if (failed(b.checkInputs(1)))
    return failure();
  Composer c{b};
  Value x = b.inputs[0];
  Value tail = c.op<trace::Log1pOp>(
      {c.op<trace::ExpOp>({c.op<trace::NegOp>({c.op<trace::AbsOp>({x})})})});
  return c.result(c.op<trace::AddOp>({c.op<trace::ReluOp>({x}), tail}));
}

// Logical ops on bools, through select.
static NodeResults logicalAnd(NodeBuilder &b) {
  if (failed(b.checkInputs(2)))
    return failure();
  Composer c{b};
  return c.result(c.op<trace::SelectOp>(
      {b.inputs[0], b.inputs[1], c.scalar(0, b.inputs[1])}));
}
static NodeResults logicalOr(NodeBuilder &b) {
  if (failed(b.checkInputs(2)))
    return failure();
  Composer c{b};
  return c.result(c.op<trace::SelectOp>(
      {b.inputs[0], c.scalar(1, b.inputs[1]), b.inputs[1]}));
}
static NodeResults logicalNot(NodeBuilder &b) {
  if (failed(b.checkInputs(1)))
    return failure();
  Composer c{b};
  return c.result(
      c.op<trace::EqOp>({b.inputs[0], c.scalar(0, b.inputs[0])}));
}

/// Select (v1: a rank-1 condition picks rows) and SelectV2 (broadcasting).
static NodeResults select(NodeBuilder &b) {
  if (failed(b.checkInputs(3)))
    return failure();
  Value cond = b.inputs[0];
  RankedTensorType condType = b.inputType(0), x = b.inputType(1);
  if (b.node.op() == "Select" && condType && x && condType.getRank() == 1 &&
      x.getRank() > 1) {
    SmallVector<int64_t> shape(x.getRank(), 1);
    shape[0] = condType.getDimSize(0);
    FailureOr<Value> reshaped = b.reshape(cond, shape);
    if (failed(reshaped))
      return failure();
    cond = *reshaped;
  }
  Composer c{b};
  return c.result(c.op<trace::SelectOp>({cond, b.inputs[1], b.inputs[2]}));
}

static NodeResults castOp(NodeBuilder &b) {
  if (failed(b.checkInputs(1)))
    return failure();
  FailureOr<Type> to = b.typeAttr("DstT");
  if (failed(to))
    return failure();
  FailureOr<Value> result = b.cast(b.inputs[0], *to);
  if (failed(result))
    return failure();
  return SmallVector<Value>{*result};
}

void tracec::graphdef::registerElementwiseOps(OpRegistry &registry) {
  registry.insert({
      {"Neg", {unary<trace::NegOp>}},
      {"Abs", {unary<trace::AbsOp>}},
      {"Exp", {unary<trace::ExpOp>}},
      {"Log", {unary<trace::LogOp>}},
      {"Log1p", {unary<trace::Log1pOp>}},
      {"Sqrt", {unary<trace::SqrtOp>}},
      {"Rsqrt", {unary<trace::RsqrtOp>}},
      {"Tanh", {unary<trace::TanhOp>}},
      {"Sigmoid", {unary<trace::SigmoidOp>}},
      {"Relu", {unary<trace::ReluOp>}},
      {"Erf", {unary<trace::ErfOp>}},
      {"Sin", {unary<trace::SinOp>}},
      {"Cos", {unary<trace::CosOp>}},
      {"Asin", {unary<trace::AsinOp>}},
      {"Acos", {unary<trace::AcosOp>}},
      {"Atan", {unary<trace::AtanOp>}},
      {"Asinh", {unary<trace::AsinhOp>}},
      {"Acosh", {unary<trace::AcoshOp>}},
      {"Atanh", {unary<trace::AtanhOp>}},
      {"Sign", {unary<trace::SignOp>}},
      {"Floor", {unary<trace::FloorOp>}},
      {"Square", {square}},
      {"Relu6", {relu6}},
      {"Elu", {elu}},
      {"Selu", {selu}},
      {"Softplus", {softplus}},
      {"Add", {binary<trace::AddOp>}},
      {"AddV2", {binary<trace::AddOp>}},
      {"Sub", {binary<trace::SubOp>}},
      {"Mul", {binary<trace::MulOp>}},
      {"RealDiv", {binary<trace::DivOp>}},
      {"Div", {binary<trace::DivOp>}},
      {"Mod", {binary<trace::RemOp>}},
      {"TruncateMod", {binary<trace::RemOp>}},
      {"Pow", {binary<trace::PowOp>}},
      {"Atan2", {binary<trace::Atan2Op>}},
      {"Maximum", {binary<trace::MaxOp>}},
      {"Minimum", {binary<trace::MinOp>}},
      {"SquaredDifference", {squaredDifference}},
      {"DivNoNan", {divNoNan}},
      {"AddN", {addN}},
      {"BiasAdd", {biasAdd}},
      {"Equal", {binary<trace::EqOp>}},
      {"NotEqual", {binary<trace::NeOp>}},
      {"Less", {binary<trace::LtOp>}},
      {"LessEqual", {binary<trace::LeOp>}},
      {"Greater", {binary<trace::GtOp>}},
      {"GreaterEqual", {binary<trace::GeOp>}},
      {"LogicalAnd", {logicalAnd}},
      {"LogicalOr", {logicalOr}},
      {"LogicalNot", {logicalNot}},
      {"Select", {select}},
      {"SelectV2", {select}},
      {"Cast", {castOp}},
  });
}
