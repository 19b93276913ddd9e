//===- SourceOps.cpp - Constants, captures, iota, random ------------------===//

#include "Tracer.h"

#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "tracec/Frontend/Ops.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace tracec;
using namespace tracec::detail;

void detail::checkShape(llvm::StringRef op, llvm::ArrayRef<int64_t> shape,
                        bool allowInferred) {
  int inferred = 0;
  for (int64_t dim : shape) {
    if (dim == -1 && allowInferred && inferred++ == 0)
      continue;
    if (dim < 0) {
      std::string text;
      for (int64_t d : shape)
        text += (text.empty() ? "" : ", ") + std::to_string(d);
      fail(locationPrefix(location()) + ": error: '" + op +
           "' shape [" + text + "] has a negative dim" +
           (allowInferred ? " (only one -1, inferred, is allowed)" : ""));
    }
  }
}

static mlir::Attribute scalarAttribute(double value, mlir::Type element) {
  if (llvm::isa<mlir::FloatType>(element))
    return mlir::FloatAttr::get(element, value);
  if (element.isInteger(1))
    return mlir::IntegerAttr::get(element, value != 0);
  return mlir::IntegerAttr::get(element, static_cast<int64_t>(value));
}

Value detail::splat(double value, DType dtype, llvm::ArrayRef<int64_t> shape) {
  checkShape("trace.constant", shape);
  mlir::RankedTensorType type = tensorType(shape, dtype);
  auto attr = mlir::DenseElementsAttr::get(
      type, scalarAttribute(value, type.getElementType()));
  mlir::NamedAttribute named(mlir::StringAttr::get(&context(), "value"), attr);
  return wrap(createOp(mlir::trace::ConstantOp::getOperationName(), {}, named)
                  ->getResult(0));
}

Value tracec::scalarLike(Scalar scalar, const Value &other) {
  resolve(other);
  DType dtype = other.dtype();
  if (!isFloat(dtype)) {
    if (!scalar.isIntegral)
      dtype = DType::f32;
    else if (dtype == DType::i1)
      dtype = DType::i32;
  }
  return splat(scalar.value, dtype, {}).asWeak();
}

Value tracec::constant(const Tensor &tensor) {
  currentScope();
  mlir::NamedAttribute named(mlir::StringAttr::get(&context(), "value"),
                             denseElements(tensor));
  return wrap(createOp(mlir::trace::ConstantOp::getOperationName(), {}, named)
                  ->getResult(0));
}

mlir::DenseElementsAttr detail::denseElements(const Tensor &tensor) {
  mlir::RankedTensorType type = tensorType(tensor.shape(), tensor.dtype());
  int64_t n = tensor.numElements();
  mlir::DenseElementsAttr attr;
  switch (tensor.dtype()) {
  case DType::f32:
    attr = mlir::DenseElementsAttr::get(
        type, llvm::ArrayRef<float>(tensor.data<float>(), n));
    break;
  case DType::f64:
    attr = mlir::DenseElementsAttr::get(
        type, llvm::ArrayRef<double>(tensor.data<double>(), n));
    break;
  case DType::i32:
    attr = mlir::DenseElementsAttr::get(
        type, llvm::ArrayRef<int32_t>(tensor.data<int32_t>(), n));
    break;
  case DType::i64:
    attr = mlir::DenseElementsAttr::get(
        type, llvm::ArrayRef<int64_t>(tensor.data<int64_t>(), n));
    break;
  case DType::i1:
    attr = mlir::DenseElementsAttr::get(
        type, llvm::ArrayRef<bool>(tensor.data<bool>(), n));
    break;
  case DType::f16:
  case DType::bf16: {
    const auto &semantics = tensor.dtype() == DType::f16
                                ? llvm::APFloat::IEEEhalf()
                                : llvm::APFloat::BFloat();
    auto *bits = static_cast<const uint16_t *>(tensor.rawData());
    llvm::SmallVector<llvm::APFloat> values;
    for (int64_t i = 0; i < n; ++i)
      values.emplace_back(semantics, llvm::APInt(16, bits[i]));
    attr = mlir::DenseElementsAttr::get(type, values);
    break;
  }
  }
  return attr;
}

Value tracec::full(llvm::ArrayRef<int64_t> shape, double value, DType dtype) {
  return splat(value, dtype, shape);
}
Value tracec::zeros(llvm::ArrayRef<int64_t> shape, DType dtype) {
  return splat(0, dtype, shape);
}
Value tracec::ones(llvm::ArrayRef<int64_t> shape, DType dtype) {
  return splat(1, dtype, shape);
}
Value tracec::zeros_like(const Value &x) {
  resolve(x);
  return splat(0, x.dtype(), x.shape());
}
Value tracec::ones_like(const Value &x) {
  resolve(x);
  return splat(1, x.dtype(), x.shape());
}

Value tracec::fill(const Value &value, llvm::ArrayRef<int64_t> shape) {
  mlir::Value scalar = resolve(value);
  checkShape("trace.fill", shape);
  return wrap(
      createWithBuilder<mlir::trace::FillOp>(scalar, shape)->getResult(0));
}

Value tracec::iota(llvm::ArrayRef<int64_t> shape, DType dtype, int64_t axis) {
  checkShape("trace.iota", shape);
  mlir::Type type = tensorType(shape, dtype);
  mlir::OpBuilder b(&context());
  return wrap(createOp(mlir::trace::IotaOp::getOperationName(), {},
                       b.getNamedAttr("axis", b.getI64IntegerAttr(axis)),
                       llvm::ArrayRef<mlir::Type>{type})
                  ->getResult(0));
}

Value tracec::capture(const Tensor &tensor) {
  return wrap(captureArgument(tensor));
}

static Value random(llvm::StringRef name, llvm::StringRef first,
                    llvm::StringRef second, llvm::ArrayRef<int64_t> shape,
                    DType dtype, int64_t seed, double a, double b) {
  checkShape(name, shape);
  mlir::OpBuilder builder(&context());
  mlir::Type types[] = {tensorType(shape, dtype),
                        mlir::trace::ControlType::get(&context())};
  mlir::NamedAttribute attrs[] = {
      builder.getNamedAttr("seed", builder.getI64IntegerAttr(seed)),
      builder.getNamedAttr(first, builder.getF64FloatAttr(a)),
      builder.getNamedAttr(second, builder.getF64FloatAttr(b))};
  return wrap(createOp(name, {}, attrs, llvm::ArrayRef<mlir::Type>(types))
                  ->getResult(0));
}

Value tracec::random_uniform(llvm::ArrayRef<int64_t> shape, DType dtype,
                             int64_t seed, double low, double high) {
  return random(mlir::trace::RandomUniformOp::getOperationName(), "low",
                "high", shape, dtype, seed, low, high);
}

Value tracec::random_normal(llvm::ArrayRef<int64_t> shape, DType dtype,
                            int64_t seed, double mean, double stddev) {
  return random(mlir::trace::RandomNormalOp::getOperationName(), "mean",
                "stddev", shape, dtype, seed, mean, stddev);
}

static Value statelessRandom(llvm::StringRef name, llvm::StringRef first,
                             llvm::StringRef second, const Value &key,
                             llvm::ArrayRef<int64_t> shape, DType dtype,
                             double a, double b) {
  checkShape(name, shape);
  mlir::OpBuilder builder(&context());
  mlir::Type types[] = {tensorType(shape, dtype)};
  mlir::NamedAttribute attrs[] = {
      builder.getNamedAttr(first, builder.getF64FloatAttr(a)),
      builder.getNamedAttr(second, builder.getF64FloatAttr(b))};
  return wrap(
      createOp(name, {resolve(key)}, attrs, llvm::ArrayRef<mlir::Type>(types))
          ->getResult(0));
}

Value tracec::stateless_random_uniform(const Value &key,
                                       llvm::ArrayRef<int64_t> shape,
                                       DType dtype, double low, double high) {
  return statelessRandom(
      mlir::trace::StatelessRandomUniformOp::getOperationName(), "low", "high",
      key, shape, dtype, low, high);
}

Value tracec::stateless_random_normal(const Value &key,
                                      llvm::ArrayRef<int64_t> shape,
                                      DType dtype, double mean, double stddev) {
  return statelessRandom(
      mlir::trace::StatelessRandomNormalOp::getOperationName(), "mean",
      "stddev", key, shape, dtype, mean, stddev);
}

Value tracec::stateless_random_bits(const Value &key, const Value &counter,
                                    llvm::ArrayRef<int64_t> shape,
                                    int64_t stream) {
  llvm::StringRef name = mlir::trace::StatelessRandomBitsOp::getOperationName();
  checkShape(name, shape);
  mlir::OpBuilder builder(&context());
  mlir::Type types[] = {tensorType(shape, DType::i32)};
  mlir::NamedAttribute attrs[] = {
      builder.getNamedAttr("stream", builder.getI64IntegerAttr(stream))};
  return wrap(createOp(name, {resolve(key), resolve(counter)}, attrs,
                       llvm::ArrayRef<mlir::Type>(types))
                  ->getResult(0));
}
