//===- FrontendTestUtil.h - Helpers for the tracer's tests ----------------===//

#ifndef TRACEC_UNITTESTS_FRONTEND_FRONTENDTESTUTIL_H
#define TRACEC_UNITTESTS_FRONTEND_FRONTENDTESTUTIL_H

#include "tracec/Frontend/Frontend.h"

#include <gtest/gtest.h>

namespace tracec::testing {

inline TensorSpec spec(DType dtype, llvm::ArrayRef<int64_t> shape) {
  return {dtype, llvm::SmallVector<int64_t, 4>(shape.begin(), shape.end()),
          false};
}

template <typename T>
Tensor tensor(const std::vector<T> &values, llvm::ArrayRef<int64_t> shape) {
  auto result = Tensor::fromVector<T>(values, shape);
  if (!result) {
    ADD_FAILURE() << llvm::toString(result.takeError());
    return Tensor::zeros(DTypeOf<T>::value, shape);
  }
  return std::move(*result);
}

/// Runs `function` and returns its outputs (a failure of the test if the
/// call fails).
inline std::vector<Tensor> run(ConcreteFunction &function,
                               llvm::ArrayRef<Tensor> inputs) {
  auto outputs = function(inputs);
  if (!outputs) {
    ADD_FAILURE() << llvm::toString(outputs.takeError()) << "\n"
                  << function.ir();
    return {};
  }
  return std::move(*outputs);
}

/// The message of the TraceError that `fn` throws ("" and a failure if it
/// throws none).
template <typename Fn> std::string traceError(Fn &&fn) {
  try {
    fn();
  } catch (const TraceError &error) {
    return error.what();
  }
  ADD_FAILURE() << "expected a TraceError";
  return "";
}

inline void expectNear(const std::vector<double> &got,
                       const std::vector<double> &expected,
                       double tolerance = 1e-5) {
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], expected[i],
                tolerance * std::max(1.0, std::fabs(expected[i])))
        << "element " << i;
}

} // namespace tracec::testing

#endif // TRACEC_UNITTESTS_FRONTEND_FRONTENDTESTUTIL_H
