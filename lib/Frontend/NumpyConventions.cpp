//===- NumpyConventions.cpp - NumPy's defaults on top of the ops ----------===//
//
// What NumPy means where the dialect's op asks for more: a reduction over
// all axes, the reversed transpose, square, a scalar branch of select.
//
//===----------------------------------------------------------------------===//

#include "Tracer.h"

#include "tracec/Frontend/Ops.h"

#include <numeric>

using namespace tracec;
using namespace tracec::detail;

Value tracec::square(const Value &x) { return mul(x, x); }

Value tracec::select(const Value &cond, const Value &onTrue, Scalar onFalse) {
  return select(cond, onTrue, scalarLike(onFalse, onTrue));
}
Value tracec::select(const Value &cond, Scalar onTrue, const Value &onFalse) {
  return select(cond, scalarLike(onTrue, onFalse), onFalse);
}

/// `axes`, or every axis of `x` if it is empty (NumPy's axis=None).
static std::vector<int64_t> axesOrAll(const Value &x,
                                      llvm::ArrayRef<int64_t> axes) {
  resolve(x);
  std::vector<int64_t> all(axes.begin(), axes.end());
  if (axes.empty()) {
    all.resize(x.rank());
    std::iota(all.begin(), all.end(), 0);
  }
  return all;
}

Value tracec::sum(const Value &x, llvm::ArrayRef<int64_t> axes, bool keepdims) {
  return reduce_sum(x, axesOrAll(x, axes), keepdims);
}
Value tracec::mean(const Value &x, llvm::ArrayRef<int64_t> axes,
                   bool keepdims) {
  return reduce_mean(x, axesOrAll(x, axes), keepdims);
}
Value tracec::max(const Value &x, llvm::ArrayRef<int64_t> axes, bool keepdims) {
  return reduce_max(x, axesOrAll(x, axes), keepdims);
}
Value tracec::min(const Value &x, llvm::ArrayRef<int64_t> axes, bool keepdims) {
  return reduce_min(x, axesOrAll(x, axes), keepdims);
}
Value tracec::prod(const Value &x, llvm::ArrayRef<int64_t> axes,
                   bool keepdims) {
  return reduce_prod(x, axesOrAll(x, axes), keepdims);
}

Value tracec::transpose(const Value &x) {
  resolve(x);
  std::vector<int64_t> reversed(x.rank());
  std::iota(reversed.rbegin(), reversed.rend(), 0);
  return transpose(x, reversed);
}
