//===- TensorOps.cpp - matmul, reductions, shape and neural network ops ---===//

#include "Tracer.h"

#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "tracec/Frontend/Ops.h"

using namespace tracec;
using namespace tracec::detail;
namespace trace = mlir::trace;

static mlir::NamedAttribute i64Array(llvm::StringRef name,
                                     llvm::ArrayRef<int64_t> values) {
  mlir::OpBuilder b(&context());
  return b.getNamedAttr(name, b.getDenseI64ArrayAttr(values));
}
static mlir::NamedAttribute i64Attr(llvm::StringRef name, int64_t value) {
  mlir::OpBuilder b(&context());
  return b.getNamedAttr(name, b.getI64IntegerAttr(value));
}
static mlir::NamedAttribute f64Attr(llvm::StringRef name, double value) {
  mlir::OpBuilder b(&context());
  return b.getNamedAttr(name, b.getF64FloatAttr(value));
}
static mlir::NamedAttribute unitAttr(llvm::StringRef name) {
  mlir::OpBuilder b(&context());
  return b.getNamedAttr(name, b.getUnitAttr());
}

//===----------------------------------------------------------------------===//
// Linear algebra, reductions
//===----------------------------------------------------------------------===//

Value tracec::matmul(const Value &a, const Value &b, bool transposeA,
                     bool transposeB) {
  resolve(a);
  resolve(b);
  DType dtype = promoteTypes(a.dtype(), b.dtype());
  llvm::SmallVector<mlir::NamedAttribute> attrs;
  if (transposeA)
    attrs.push_back(unitAttr("transpose_a"));
  if (transposeB)
    attrs.push_back(unitAttr("transpose_b"));
  return createValue(trace::MatmulOp::getOperationName(),
                     {castTo(a, dtype), castTo(b, dtype)}, attrs);
}

static Value reduce(llvm::StringRef name, const Value &x,
                    llvm::ArrayRef<int64_t> axes, bool keepdims) {
  resolve(x);
  llvm::SmallVector<int64_t> all;
  if (axes.empty()) {
    for (int64_t i = 0; i < x.rank(); ++i)
      all.push_back(i);
    axes = all;
  }
  llvm::SmallVector<mlir::NamedAttribute> attrs = {i64Array("axes", axes)};
  if (keepdims)
    attrs.push_back(unitAttr("keepdims"));
  return createValue(name, {x}, attrs);
}

Value tracec::sum(const Value &x, llvm::ArrayRef<int64_t> axes, bool keepdims) {
  return reduce(trace::ReduceSumOp::getOperationName(), x, axes, keepdims);
}
Value tracec::mean(const Value &x, llvm::ArrayRef<int64_t> axes,
                   bool keepdims) {
  resolve(x);
  return reduce(trace::ReduceMeanOp::getOperationName(),
                isFloat(x.dtype()) ? x : castTo(x, DType::f32), axes, keepdims);
}
Value tracec::max(const Value &x, llvm::ArrayRef<int64_t> axes, bool keepdims) {
  return reduce(trace::ReduceMaxOp::getOperationName(), x, axes, keepdims);
}
Value tracec::min(const Value &x, llvm::ArrayRef<int64_t> axes, bool keepdims) {
  return reduce(trace::ReduceMinOp::getOperationName(), x, axes, keepdims);
}
Value tracec::prod(const Value &x, llvm::ArrayRef<int64_t> axes,
                   bool keepdims) {
  return reduce(trace::ReduceProdOp::getOperationName(), x, axes, keepdims);
}

Value tracec::argmax(const Value &x, int64_t axis) {
  return createValue(trace::ArgmaxOp::getOperationName(), {x},
                     i64Attr("axis", axis));
}

Value tracec::softmax(const Value &x, int64_t axis) {
  return createValue(trace::SoftmaxOp::getOperationName(), {x},
                     i64Attr("axis", axis));
}
Value tracec::log_softmax(const Value &x, int64_t axis) {
  return createValue(trace::LogSoftmaxOp::getOperationName(), {x},
                     i64Attr("axis", axis));
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

Value tracec::reshape(const Value &x, llvm::ArrayRef<int64_t> shape) {
  mlir::Value value = resolve(x);
  checkShape(trace::ReshapeOp::getOperationName(), shape,
             /*allowInferred=*/true);
  return wrap(
      createWithBuilder<trace::ReshapeOp>(value, shape)->getResult(0));
}

Value tracec::transpose(const Value &x, llvm::ArrayRef<int64_t> perm) {
  resolve(x);
  llvm::SmallVector<int64_t> reversed;
  if (perm.empty()) {
    for (int64_t i = x.rank() - 1; i >= 0; --i)
      reversed.push_back(i);
    perm = reversed;
  }
  return createValue(trace::TransposeOp::getOperationName(), {x},
                     i64Array("perm", perm));
}

Value tracec::broadcast_to(const Value &x, llvm::ArrayRef<int64_t> shape) {
  mlir::Value value = resolve(x);
  checkShape(trace::BroadcastToOp::getOperationName(), shape);
  return wrap(
      createWithBuilder<trace::BroadcastToOp>(value, shape)->getResult(0));
}

Value tracec::concat(llvm::ArrayRef<Value> values, int64_t axis) {
  if (values.empty())
    fail(locationPrefix(location()) +
         ": error: 'trace.concat' needs at least one operand");
  DType dtype = (resolve(values.front()), values.front().dtype());
  for (const Value &value : values) {
    resolve(value);
    dtype = promoteTypes(dtype, value.dtype());
  }
  std::vector<Value> operands;
  for (const Value &value : values)
    operands.push_back(castTo(value, dtype));
  return createValue(trace::ConcatOp::getOperationName(), operands,
                     i64Attr("axis", axis));
}

Value tracec::slice(const Value &x, llvm::ArrayRef<int64_t> start,
                    llvm::ArrayRef<int64_t> limit,
                    llvm::ArrayRef<int64_t> strides) {
  llvm::SmallVector<mlir::NamedAttribute> attrs = {i64Array("start", start),
                                                   i64Array("limit", limit)};
  if (!strides.empty())
    attrs.push_back(i64Array("strides", strides));
  return createValue(trace::SliceOp::getOperationName(), {x}, attrs);
}

Value tracec::pad(const Value &x, llvm::ArrayRef<int64_t> low,
                  llvm::ArrayRef<int64_t> high, double value) {
  return createValue(trace::PadOp::getOperationName(), {x},
                     {i64Array("low", low), i64Array("high", high),
                      f64Attr("value", value)});
}

Value tracec::gather(const Value &params, const Value &indices, int64_t axis) {
  return createValue(trace::GatherOp::getOperationName(), {params, indices},
                     i64Attr("axis", axis));
}

Value tracec::scatter_add(const Value &operand, const Value &indices,
                          const Value &updates, int64_t axis) {
  return createValue(trace::ScatterAddOp::getOperationName(),
                     {operand, indices, updates}, i64Attr("axis", axis));
}

Value tracec::one_hot(const Value &indices, int64_t depth, DType dtype,
                      int64_t axis, double onValue, double offValue) {
  mlir::Value value = resolve(indices);
  if (!llvm::isa<mlir::IntegerType>(
          llvm::cast<mlir::RankedTensorType>(value.getType()).getElementType()))
    fail(locationPrefix(location()) +
         ": error: 'trace.one_hot' indices must be integers, got " +
         indices.typeString());
  mlir::Operation *op = createWithBuilder<trace::OneHotOp>(
      value, depth, elementType(dtype), axis);
  auto oneHot = llvm::cast<trace::OneHotOp>(op);
  mlir::OpBuilder b(&context());
  oneHot.setOnValueAttr(b.getF64FloatAttr(onValue));
  oneHot.setOffValueAttr(b.getF64FloatAttr(offValue));
  return wrap(oneHot.getResult());
}

//===----------------------------------------------------------------------===//
// Neural network ops
//===----------------------------------------------------------------------===//

Value tracec::conv2d(const Value &input, const Value &filter,
                     llvm::ArrayRef<int64_t> strides,
                     llvm::ArrayRef<int64_t> padding,
                     llvm::ArrayRef<int64_t> dilations) {
  resolve(input);
  resolve(filter);
  DType dtype = promoteTypes(input.dtype(), filter.dtype());
  return createValue(trace::Conv2DOp::getOperationName(),
                     {castTo(input, dtype), castTo(filter, dtype)},
                     {i64Array("strides", strides),
                      i64Array("padding", padding),
                      i64Array("dilations", dilations)});
}

Value tracec::max_pool2d(const Value &input, llvm::ArrayRef<int64_t> window,
                         llvm::ArrayRef<int64_t> strides,
                         llvm::ArrayRef<int64_t> padding) {
  return createValue(trace::MaxPool2DOp::getOperationName(), {input},
                     {i64Array("window", window), i64Array("strides", strides),
                      i64Array("padding", padding)});
}

Value tracec::avg_pool2d(const Value &input, llvm::ArrayRef<int64_t> window,
                         llvm::ArrayRef<int64_t> strides,
                         llvm::ArrayRef<int64_t> padding) {
  return createValue(trace::AvgPool2DOp::getOperationName(), {input},
                     {i64Array("window", window), i64Array("strides", strides),
                      i64Array("padding", padding)});
}

//===----------------------------------------------------------------------===//
// print
//===----------------------------------------------------------------------===//

void tracec::print(const Value &x, llvm::StringRef message) {
  mlir::Value value = resolve(x);
  mlir::OpBuilder b(&context());
  llvm::SmallVector<mlir::NamedAttribute> attrs;
  if (!message.empty())
    attrs.push_back(b.getNamedAttr("message", b.getStringAttr(message)));
  mlir::Type control = trace::ControlType::get(&context());
  createOp(trace::PrintOp::getOperationName(), value, attrs,
           llvm::ArrayRef<mlir::Type>{control});
}
