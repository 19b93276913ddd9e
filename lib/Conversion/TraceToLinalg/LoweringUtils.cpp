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
