//===- Ops.h - Free functions recording the ops of the trace dialect ------===//
//
// One function per op of the `trace` dialect (NumPy/TensorFlow names and
// attribute conventions). Result shapes and dtypes come from the dialect's
// own type inference and verifiers; what they reject throws TraceError with
// the dialect's message. Every function must be called while a function is
// being traced (tracec::trace), else it throws TraceError.
//
// Axes may be negative (counted from the end). Where `axes` is empty, a
// reduction reduces over all axes (NumPy's axis=None).
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_FRONTEND_OPS_H
#define TRACEC_FRONTEND_OPS_H

#include "tracec/Frontend/Value.h"

#include <vector>

namespace tracec {

//===----------------------------------------------------------------------===//
// Sources
//===----------------------------------------------------------------------===//

/// The tensor's elements as a literal in the IR (`trace.constant`).
Value constant(const Tensor &tensor);
/// A tensor of `shape` whose elements are all `value`, converted to `dtype`.
Value full(llvm::ArrayRef<int64_t> shape, double value, DType dtype = DType::f32);
Value zeros(llvm::ArrayRef<int64_t> shape, DType dtype = DType::f32);
Value ones(llvm::ArrayRef<int64_t> shape, DType dtype = DType::f32);
Value zeros_like(const Value &x);
Value ones_like(const Value &x);
/// `trace.fill`: a rank-0 `value` broadcast to `shape`.
Value fill(const Value &value, llvm::ArrayRef<int64_t> shape);
/// 0, 1, 2, ... along `axis` of a tensor of `shape`.
Value iota(llvm::ArrayRef<int64_t> shape, DType dtype = DType::i32,
           int64_t axis = 0);
/// A host tensor passed to the traced function as a captured input: an
/// extra argument whose value the concrete function remembers (it shares
/// the tensor's storage, so later writes to it are seen by later calls).
/// The same tensor captured twice is one input.
Value capture(const Tensor &tensor);

/// Stateful random numbers: a seeded generator whose sequence advances
/// with each run of the compiled function.
Value random_uniform(llvm::ArrayRef<int64_t> shape, DType dtype = DType::f32,
                     int64_t seed = 0, double low = 0.0, double high = 1.0);
Value random_normal(llvm::ArrayRef<int64_t> shape, DType dtype = DType::f32,
                    int64_t seed = 0, double mean = 0.0, double stddev = 1.0);

//===----------------------------------------------------------------------===//
// Elementwise unary (float-only ops reject integer Values)
//===----------------------------------------------------------------------===//

Value abs(const Value &x);
Value exp(const Value &x);
Value log(const Value &x);
Value log1p(const Value &x);
Value sqrt(const Value &x);
Value rsqrt(const Value &x);
Value tanh(const Value &x);
Value sigmoid(const Value &x);
Value relu(const Value &x);
/// The exact (erf) form.
Value gelu(const Value &x);
Value erf(const Value &x);
Value sin(const Value &x);
Value cos(const Value &x);
Value sign(const Value &x);
Value floor(const Value &x);
Value square(const Value &x);

//===----------------------------------------------------------------------===//
// select, cast
//===----------------------------------------------------------------------===//

/// cond ? onTrue : onFalse, broadcasting all three; the branches are
/// promoted to a common dtype. `cond` must be bool (i1).
Value select(const Value &cond, const Value &onTrue, const Value &onFalse);
Value select(const Value &cond, const Value &onTrue, Scalar onFalse);
Value select(const Value &cond, Scalar onTrue, const Value &onFalse);
/// NumPy's name for select.
inline Value where(const Value &cond, const Value &onTrue,
                   const Value &onFalse) {
  return select(cond, onTrue, onFalse);
}
inline Value where(const Value &cond, const Value &onTrue, Scalar onFalse) {
  return select(cond, onTrue, onFalse);
}
inline Value where(const Value &cond, Scalar onTrue, const Value &onFalse) {
  return select(cond, onTrue, onFalse);
}
/// Converts the element type (float -> int truncates toward zero; to bool
/// tests for non-zero). Casting to the same dtype returns x.
Value cast(const Value &x, DType dtype);

//===----------------------------------------------------------------------===//
// Linear algebra, reductions
//===----------------------------------------------------------------------===//

/// [..., M, K] x [..., K, N] (transposed operands: [..., K, M], [..., N, K]),
/// batch dims broadcast. Operands are promoted to a common dtype.
Value matmul(const Value &a, const Value &b, bool transposeA = false,
             bool transposeB = false);

Value sum(const Value &x, llvm::ArrayRef<int64_t> axes = {},
          bool keepdims = false);
Value mean(const Value &x, llvm::ArrayRef<int64_t> axes = {},
           bool keepdims = false);
Value max(const Value &x, llvm::ArrayRef<int64_t> axes = {},
          bool keepdims = false);
Value min(const Value &x, llvm::ArrayRef<int64_t> axes = {},
          bool keepdims = false);
/// The product (its gradient is exact with zeros among the elements).
Value prod(const Value &x, llvm::ArrayRef<int64_t> axes = {},
           bool keepdims = false);
/// Index (i64) of the first maximum along `axis`.
Value argmax(const Value &x, int64_t axis);
Value softmax(const Value &x, int64_t axis = -1);
Value log_softmax(const Value &x, int64_t axis = -1);

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

/// `shape` may hold one -1, inferred from the element count.
Value reshape(const Value &x, llvm::ArrayRef<int64_t> shape);
/// Result dim i is x's dim perm[i]; an empty perm reverses the dims.
Value transpose(const Value &x, llvm::ArrayRef<int64_t> perm = {});
Value broadcast_to(const Value &x, llvm::ArrayRef<int64_t> shape);
/// Operands are promoted to a common dtype.
Value concat(llvm::ArrayRef<Value> values, int64_t axis);
/// x[start:limit:strides] per dim (all strides 1 when empty).
Value slice(const Value &x, llvm::ArrayRef<int64_t> start,
            llvm::ArrayRef<int64_t> limit,
            llvm::ArrayRef<int64_t> strides = {});
/// Pads each dim with low[i]/high[i] elements of `value`.
Value pad(const Value &x, llvm::ArrayRef<int64_t> low,
          llvm::ArrayRef<int64_t> high, double value = 0.0);
/// tf.gather / np.take: params.shape[:axis] + indices.shape +
/// params.shape[axis+1:]; out-of-range indices are clamped.
Value gather(const Value &params, const Value &indices, int64_t axis = 0);
/// gather's adjoint (tf.tensor_scatter_nd_add along one axis, JAX's
/// `x.at[indices].add(updates)`): `updates` (gather's result shape) added
/// into `operand` at the indices, repeats summing, indices clamped as
/// gather clamps them.
Value scatter_add(const Value &operand, const Value &indices,
                  const Value &updates, int64_t axis = 0);
/// A new dim of size `depth` at `axis`, `onValue` where the index matches.
Value one_hot(const Value &indices, int64_t depth, DType dtype = DType::f32,
              int64_t axis = -1, double onValue = 1.0, double offValue = 0.0);

//===----------------------------------------------------------------------===//
// Neural network ops: NHWC activations, HWCF filters, padding
// [top, bottom, left, right].
//===----------------------------------------------------------------------===//

Value conv2d(const Value &input, const Value &filter,
             llvm::ArrayRef<int64_t> strides = {1, 1},
             llvm::ArrayRef<int64_t> padding = {0, 0, 0, 0},
             llvm::ArrayRef<int64_t> dilations = {1, 1});
Value max_pool2d(const Value &input, llvm::ArrayRef<int64_t> window,
                 llvm::ArrayRef<int64_t> strides = {1, 1},
                 llvm::ArrayRef<int64_t> padding = {0, 0, 0, 0});
Value avg_pool2d(const Value &input, llvm::ArrayRef<int64_t> window,
                 llvm::ArrayRef<int64_t> strides = {1, 1},
                 llvm::ArrayRef<int64_t> padding = {0, 0, 0, 0});

//===----------------------------------------------------------------------===//
// Differentiation, printing
//===----------------------------------------------------------------------===//

/// The value, with no gradient flowing through it.
Value stop_gradient(const Value &x);
/// Prints `x` (after `message`, if any) to stdout when the compiled function
/// runs, in program order with the other stateful ops.
void print(const Value &x, llvm::StringRef message = "");

} // namespace tracec

#endif // TRACEC_FRONTEND_OPS_H
