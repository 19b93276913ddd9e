//===- LoweringUtils.cpp - Small builders the lowerings share -------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

Value mlir::trace::filledTensor(OpBuilder &builder, Location loc,
                                ArrayRef<int64_t> shape, TypedAttr value) {
  Value empty = tensor::EmptyOp::create(builder, loc, shape, value.getType());
  Value scalar = arith::ConstantOp::create(builder, loc, value);
  return linalg::FillOp::create(builder, loc, scalar, empty).getResult(0);
}

Value mlir::trace::inBoundsCount(OpBuilder &builder, Location loc, Value out,
                                 int64_t stride, int64_t padBefore,
                                 int64_t size, int64_t extent) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, v);
  };
  Value start = arith::SubIOp::create(
      builder, loc, arith::MulIOp::create(builder, loc, out, index(stride)),
      index(padBefore));
  Value end = arith::AddIOp::create(builder, loc, start, index(size));
  Value first = arith::MaxSIOp::create(builder, loc, start, index(0));
  Value last = arith::MinSIOp::create(builder, loc, end, index(extent));
  return arith::SubIOp::create(builder, loc, last, first);
}
