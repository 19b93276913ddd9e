//===- AotTestUtil.h - Helpers of the AOT-vs-JIT tests ----------*- C++ -*-===//

#ifndef TRACEC_UNITTESTS_AOT_AOTTESTUTIL_H
#define TRACEC_UNITTESTS_AOT_AOTTESTUTIL_H

#include "tracec/Tensor/Tensor.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace tracec::aot_test {

inline std::string errorText(llvm::Error error) {
  return llvm::toString(std::move(error));
}

/// Made-up inputs, exact in float.
inline Tensor filled(std::vector<int64_t> shape, int multiplier, int modulus,
                     float scale) {
  Tensor t = Tensor::zeros(DType::f32, shape);
  for (int64_t i = 0; i < t.numElements(); ++i)
    t.data<float>()[i] =
        float((i * multiplier) % modulus - modulus / 2) * scale;
  return t;
}

/// The AOT object's floats against the JIT's tensor.
inline void expectNear(const float *aot, const Tensor &jit, const char *what) {
  std::vector<float> expected = jit.toVector<float>();
  for (size_t i = 0; i < expected.size(); ++i)
    ASSERT_NEAR(aot[i], expected[i], 1e-5f * (1 + std::abs(expected[i])))
        << what << "[" << i << "]";
}

} // namespace tracec::aot_test

#endif // TRACEC_UNITTESTS_AOT_AOTTESTUTIL_H
