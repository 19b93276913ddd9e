//===- GradientChecker.h - trace.grad against finite differences ----------===//
//
// Compiles a module with the JIT, evaluates trace.grad of a scalar function
// and compares every element with a central difference computed in f64:
//   (f(x + h e_i) - f(x - h e_i)) / 2h,  h = 1e-6 * max(1, |x_i|),
// accepting |analytic - numeric| <= 1e-6 + 1e-5 * |numeric|. The
// truncation error of the central difference is O(h^2 f''') and its
// rounding error O(eps |f| / h), both far below that tolerance for the
// smooth, O(1)-valued test functions; inputs are kept away from kinks
// (relu at 0, max ties), whose chosen subgradients are tested exactly.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_UNITTESTS_GRADIENTS_GRADIENTCHECKER_H
#define TRACEC_UNITTESTS_GRADIENTS_GRADIENTCHECKER_H

#include "tracec/Runtime/Executable.h"

#include <gtest/gtest.h>

namespace tracec::testing {

/// Checks the gradient of `function` (returning a rank-0 f64 tensor) in
/// `source` with respect to the arguments `wrt` at `inputs`.
::testing::AssertionResult checkGradients(llvm::StringRef source,
                                          llvm::StringRef function,
                                          llvm::ArrayRef<Tensor> inputs,
                                          llvm::ArrayRef<int64_t> wrt);

/// checkGradients for a function with `?` dims, compiled once and checked
/// at each set of inputs (one per size: the same compiled gradient serves
/// every size).
::testing::AssertionResult
checkGradientsAtSizes(llvm::StringRef source, llvm::StringRef function,
                      llvm::ArrayRef<std::vector<Tensor>> inputSets,
                      llvm::ArrayRef<int64_t> wrt);

/// Checks the gradient of one op with respect to all of its f64 tensor
/// operands. `opText` defines `%y` from `%arg0`, `%arg1`, ... of
/// `argTypes`, e.g. "%y = trace.tanh %arg0 : tensor<3x4xf64>"; the checked
/// function is sum(y * w) for fixed, distinct weights w, so every output
/// element's cotangent matters.
::testing::AssertionResult checkOpGradients(llvm::StringRef opText,
                                            llvm::ArrayRef<std::string> argTypes,
                                            llvm::StringRef resultType,
                                            llvm::ArrayRef<Tensor> inputs);

/// Checks forward mode: trace.jvp of `function` (whose results are all
/// floating-point tensors) with respect to the f64 arguments `wrt`, at each
/// input set (one compile serves them all), for random tangents v:
/// - J v against the central difference (f(x + h v) - f(x - h v)) / 2h,
///   h = 1e-6 * max(1, max |x|), accepting 1e-6 + 1e-5 * |numeric|;
/// - the primal results against f(x);
/// - with `againstReverse`, J v against reverse mode: for random result
///   cotangents w, <J v, w> == <v, J^T w> (trace.vjp) up to 1e-10 relative
///   to the sum of the terms' magnitudes.
::testing::AssertionResult
checkTangentsAtSizes(llvm::StringRef source, llvm::StringRef function,
                     llvm::ArrayRef<std::vector<Tensor>> inputSets,
                     llvm::ArrayRef<int64_t> wrt, bool againstReverse = true);

/// checkTangentsAtSizes at one input set.
::testing::AssertionResult checkTangents(llvm::StringRef source,
                                         llvm::StringRef function,
                                         llvm::ArrayRef<Tensor> inputs,
                                         llvm::ArrayRef<int64_t> wrt,
                                         bool againstReverse = true);

/// Uniform values in [low, high), reproducible for a seed.
Tensor randomTensor(llvm::ArrayRef<int64_t> shape, unsigned seed,
                    double low = -1, double high = 1);

/// i32 indices in [0, bound) for a gather-like argument, reproducible for a
/// seed: (i * 7 + seed) % bound, so that indices repeat.
Tensor indexTensor(llvm::ArrayRef<int64_t> shape, unsigned seed,
                   int64_t bound);

/// Evaluates trace.grad of `function` once (for exact subgradient checks).
llvm::Expected<std::vector<Tensor>> evaluateGradients(
    llvm::StringRef source, llvm::StringRef function,
    llvm::ArrayRef<Tensor> inputs, llvm::ArrayRef<int64_t> wrt);

} // namespace tracec::testing

#endif // TRACEC_UNITTESTS_GRADIENTS_GRADIENTCHECKER_H
