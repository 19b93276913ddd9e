//===- ElementwiseOps.cpp - Unary, binary, comparison, select, cast -------===//
//
// The dialect wants equal operand dtypes; the frontend promotes first, as
// NumPy/JAX do. Shapes are left to the ops' own broadcasting inference.
//
//===----------------------------------------------------------------------===//

#include "Tracer.h"

#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "tracec/Frontend/Ops.h"

using namespace tracec;
using namespace tracec::detail;
namespace trace = mlir::trace;

/// The rank of a dtype in the promotion lattice.
static int promotionRank(DType dtype) {
  switch (dtype) {
  case DType::i1:
    return 0;
  case DType::i32:
    return 1;
  case DType::i64:
    return 2;
  case DType::f16:
  case DType::bf16:
    return 3;
  case DType::f32:
    return 4;
  case DType::f64:
    return 5;
  }
  return 0;
}

DType detail::promoteTypes(DType a, DType b) {
  if (a == b)
    return a;
  if ((a == DType::f16 && b == DType::bf16) ||
      (a == DType::bf16 && b == DType::f16))
    return DType::f32;
  return promotionRank(a) >= promotionRank(b) ? a : b;
}

Value detail::castTo(const Value &value, DType dtype) {
  mlir::Value x = resolve(value);
  if (value.dtype() == dtype)
    return value;
  return wrap(createWithBuilder<trace::CastOp>(x, elementType(dtype))
                  ->getResult(0));
}

Value tracec::cast(const Value &x, DType dtype) { return castTo(x, dtype); }

template <typename OpTy>
static Value binary(const Value &lhs, const Value &rhs) {
  resolve(lhs);
  resolve(rhs);
  DType dtype = promoteTypes(lhs.dtype(), rhs.dtype());
  return createValue(OpTy::getOperationName(),
                     {castTo(lhs, dtype), castTo(rhs, dtype)});
}

Value tracec::add(const Value &a, const Value &b) {
  return binary<trace::AddOp>(a, b);
}
Value tracec::sub(const Value &a, const Value &b) {
  return binary<trace::SubOp>(a, b);
}
Value tracec::mul(const Value &a, const Value &b) {
  return binary<trace::MulOp>(a, b);
}
Value tracec::div(const Value &a, const Value &b) {
  return binary<trace::DivOp>(a, b);
}
Value tracec::pow(const Value &a, const Value &b) {
  return binary<trace::PowOp>(a, b);
}
Value tracec::maximum(const Value &a, const Value &b) {
  return binary<trace::MaxOp>(a, b);
}
Value tracec::minimum(const Value &a, const Value &b) {
  return binary<trace::MinOp>(a, b);
}
Value tracec::equal(const Value &a, const Value &b) {
  return binary<trace::EqOp>(a, b);
}
Value tracec::not_equal(const Value &a, const Value &b) {
  return binary<trace::NeOp>(a, b);
}
Value tracec::less(const Value &a, const Value &b) {
  return binary<trace::LtOp>(a, b);
}
Value tracec::less_equal(const Value &a, const Value &b) {
  return binary<trace::LeOp>(a, b);
}
Value tracec::greater(const Value &a, const Value &b) {
  return binary<trace::GtOp>(a, b);
}
Value tracec::greater_equal(const Value &a, const Value &b) {
  return binary<trace::GeOp>(a, b);
}

template <typename OpTy> static Value unary(const Value &x) {
  return createValue(OpTy::getOperationName(), {x});
}
/// Ops defined on floats only: integers and bools become f32 first (JAX).
template <typename OpTy> static Value floatUnary(const Value &x) {
  resolve(x);
  return createValue(OpTy::getOperationName(),
                     {isFloat(x.dtype()) ? x : castTo(x, DType::f32)});
}

Value tracec::neg(const Value &x) { return unary<trace::NegOp>(x); }
Value tracec::abs(const Value &x) { return unary<trace::AbsOp>(x); }
Value tracec::relu(const Value &x) { return unary<trace::ReluOp>(x); }
Value tracec::sign(const Value &x) { return unary<trace::SignOp>(x); }
Value tracec::stop_gradient(const Value &x) {
  return unary<trace::StopGradientOp>(x);
}
Value tracec::exp(const Value &x) { return floatUnary<trace::ExpOp>(x); }
Value tracec::log(const Value &x) { return floatUnary<trace::LogOp>(x); }
Value tracec::log1p(const Value &x) { return floatUnary<trace::Log1pOp>(x); }
Value tracec::sqrt(const Value &x) { return floatUnary<trace::SqrtOp>(x); }
Value tracec::rsqrt(const Value &x) { return floatUnary<trace::RsqrtOp>(x); }
Value tracec::tanh(const Value &x) { return floatUnary<trace::TanhOp>(x); }
Value tracec::sigmoid(const Value &x) {
  return floatUnary<trace::SigmoidOp>(x);
}
Value tracec::gelu(const Value &x) { return floatUnary<trace::GeluOp>(x); }
Value tracec::erf(const Value &x) { return floatUnary<trace::ErfOp>(x); }
Value tracec::sin(const Value &x) { return floatUnary<trace::SinOp>(x); }
Value tracec::cos(const Value &x) { return floatUnary<trace::CosOp>(x); }
Value tracec::floor(const Value &x) { return floatUnary<trace::FloorOp>(x); }
Value tracec::square(const Value &x) { return mul(x, x); }

Value tracec::select(const Value &cond, const Value &onTrue,
                     const Value &onFalse) {
  resolve(onTrue);
  resolve(onFalse);
  DType dtype = promoteTypes(onTrue.dtype(), onFalse.dtype());
  return createValue(trace::SelectOp::getOperationName(),
                     {cond, castTo(onTrue, dtype), castTo(onFalse, dtype)});
}
Value tracec::select(const Value &cond, const Value &onTrue, Scalar onFalse) {
  return select(cond, onTrue, scalarLike(onFalse, onTrue));
}
Value tracec::select(const Value &cond, Scalar onTrue, const Value &onFalse) {
  return select(cond, scalarLike(onTrue, onFalse), onFalse);
}
