//===- Ops.h - The ops the tracer builds by hand, and NumPy's conventions -===//
//
// Most ops of the `trace` dialect have a function generated from their ODS
// definition (tracec/Frontend/OpFunctions.h.inc, included by Value.h). Here
// are the rest: ops whose result type is an input (sources, reshape, cast,
// one_hot) or that return no tensor (print), and NumPy's conventions on top
// of the generated functions (reductions over all axes by default, the
// reversed transpose, scalars in select). Result shapes and dtypes come
// from the dialect's own type inference and verifiers; what they reject
// throws TraceError with the dialect's message. Every function must be
// called while a function is being traced (tracec::trace), else it throws
// TraceError.
//
// Axes may be negative (counted from the end).
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

/// Keyed random numbers (JAX's `jax.random`): pure functions of `key`, an
/// i32 tensor of shape [2] (the words of a Philox key), and the shape.
Value stateless_random_uniform(const Value &key, llvm::ArrayRef<int64_t> shape,
                               DType dtype = DType::f32, double low = 0.0,
                               double high = 1.0);
Value stateless_random_normal(const Value &key, llvm::ArrayRef<int64_t> shape,
                              DType dtype = DType::f32, double mean = 0.0,
                              double stddev = 1.0);
/// Philox's 32-bit words (as i32) under `key` at the rank-0 i32 `counter`
/// in `stream`: what new keys are made of (trace.stateless_random_bits).
Value stateless_random_bits(const Value &key, const Value &counter,
                            llvm::ArrayRef<int64_t> shape, int64_t stream);

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

/// x * x.
Value square(const Value &x);
/// select (generated: cond ? onTrue : onFalse, broadcasting all three, the
/// branches promoted to a common dtype) with a C++ scalar branch.
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
// Reductions with NumPy's conventions: over all axes when `axes` is empty
// (axis=None); `mean` of integers is an f32 mean.
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// Shape ops whose result shape is an input
//===----------------------------------------------------------------------===//

/// `shape` may hold one -1, inferred from the element count.
Value reshape(const Value &x, llvm::ArrayRef<int64_t> shape);
/// The dims reversed (NumPy's x.T); transpose(x, perm) is generated.
Value transpose(const Value &x);
Value broadcast_to(const Value &x, llvm::ArrayRef<int64_t> shape);
/// The number of elements of `x` along `axes` (all of them if empty), as a
/// rank-0 `dtype` tensor: a constant where those dims are static, read at
/// run time where they are `?` (TensorFlow's tf.size).
Value size(const Value &x, llvm::ArrayRef<int64_t> axes = {},
           DType dtype = DType::i32);
/// A new dim of size `depth` at `axis`, `onValue` where the index matches.
Value one_hot(const Value &indices, int64_t depth, DType dtype = DType::f32,
              int64_t axis = -1, double onValue = 1.0, double offValue = 0.0);
/// `inputs` (one shape) sorted along `axis` by the first one's stable order
/// (trace.sort); the others are carried: `sort({x, iota})[1]` is argsort.
std::vector<Value> sort(llvm::ArrayRef<Value> inputs, int64_t axis = -1,
                        bool descending = false);

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

/// The elementwise `reduction` ("sum", "mean", "max", "min") of `x` over
/// every process of MPI's world communicator (trace.all_reduce), in program
/// order with the other stateful ops. The rank and the number of processes
/// are comm_rank() and comm_size(). With `groups` (lists of world ranks of
/// one size that partition the world, XLA's replica groups), over the
/// processes of this process's group only.
Value all_reduce(const Value &x, llvm::StringRef reduction = "sum",
                 llvm::ArrayRef<std::vector<int64_t>> groups = {});

/// Process `root`'s `x` on every process (trace.broadcast, MPI's bcast),
/// ordered as all_reduce. `root` must be a rank of the world: another
/// ends the job with an error naming the op. With `groups` (as
/// all_reduce's), the `root`th process of each group's `x` on its group.
Value broadcast(const Value &x, int64_t root = 0,
                llvm::ArrayRef<std::vector<int64_t>> groups = {});

/// Every process's `x`, concatenated along `axis` in rank order
/// (trace.all_gather, MPI's allgather), ordered as all_reduce. Traced for
/// a world of `worldSize` processes (comm_size(), which the result's shape
/// depends on); running in another is an error. With `groups`, its
/// group's, in the group's order; `worldSize` is a group's size.
Value all_gather(const Value &x, int64_t axis, int64_t worldSize,
                 llvm::ArrayRef<std::vector<int64_t>> groups = {});

/// Slice `rank` of the elementwise `reduction` of `x` over every process,
/// `axis` split into `worldSize` equal slices (trace.reduce_scatter, MPI's
/// reduce_scatter_block), ordered as all_reduce and traced as all_gather
/// (with `groups` too).
Value reduce_scatter(const Value &x, llvm::StringRef reduction, int64_t axis,
                     int64_t worldSize,
                     llvm::ArrayRef<std::vector<int64_t>> groups = {});

/// This process's rank in MPI's world, a tensor<i32> (trace.comm_rank);
/// with `groups`, its position in its group (JAX's axis_index).
Value comm_rank(llvm::ArrayRef<std::vector<int64_t>> groups = {});

/// Prints `x` (after `message`, if any) to stdout when the compiled function
/// runs, in program order with the other stateful ops.
void print(const Value &x, llvm::StringRef message = "");

} // namespace tracec

#endif // TRACEC_FRONTEND_OPS_H
