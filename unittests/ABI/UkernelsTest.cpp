//===- UkernelsTest.cpp - The micro-kernels against naive loops -----------===//
//
// Each variant of tracec_ukernels.h that this machine can run, on random
// shapes (remainders included), against a plain reference.
//
//===----------------------------------------------------------------------===//

#include "tracec/ABI/tracec_ukernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using Mmt4d = void (*)(TRACEC_UK_MMT4D_PARAMS);
using Transpose = void (*)(TRACEC_UK_TRANSPOSE_PARAMS);

struct Mmt4dVariant {
  const char *name;
  Mmt4d kernel;
  int64_t m0, n0;
  bool supported;
};

bool hasAvx512() {
#if defined(__x86_64__)
  return __builtin_cpu_supports("avx512f");
#else
  return true; // the named variants are the generic kernel elsewhere
#endif
}
bool hasAvx2Fma() {
#if defined(__x86_64__)
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return true;
#endif
}

std::vector<Mmt4dVariant> mmt4dVariants() {
  return {{"avx512", tracec_uk_mmt4d_f32_avx512, 8, 32, hasAvx512()},
          {"avx2", tracec_uk_mmt4d_f32_avx2, 6, 16, hasAvx2Fma()},
          {"generic", tracec_uk_mmt4d_f32_generic, 8, 32, true},
          {"generic", tracec_uk_mmt4d_f32_generic, 3, 5, true},
          {"generic", tracec_uk_mmt4d_f32_generic, 6, 16, true}};
}

std::vector<float> random(std::mt19937 &rng, size_t n) {
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

TEST(UkernelsTest, Mmt4dMatchesReference) {
  std::mt19937 rng(42);
  for (const Mmt4dVariant &variant : mmt4dVariants()) {
    if (!variant.supported) {
      std::printf("skipping mmt4d %s: not supported here\n", variant.name);
      continue;
    }
    int64_t m0 = variant.m0, n0 = variant.n0;
    for (int trial = 0; trial < 12; ++trial) {
      int64_t M1 = 1 + rng() % 4, N1 = 1 + rng() % 3, K1 = 1 + rng() % 37;
      bool accumulate = trial % 2;
      // Packed layouts with an extra gap between tiles (strided views), and
      // an offset: lhs [M1][K1][m0], rhs [N1][K1][n0], acc [M1][N1][m0][n0].
      int64_t gap = trial % 3;
      int64_t lhsK = m0 + gap, lhsM = K1 * lhsK + gap;
      int64_t rhsK = n0 + gap, rhsN = K1 * rhsK + gap;
      int64_t row = n0 + gap, accN = m0 * row, accM = N1 * accN + gap;
      int64_t offset = 3;
      std::vector<float> lhs = random(rng, offset + M1 * lhsM);
      std::vector<float> rhs = random(rng, offset + N1 * rhsN);
      std::vector<float> acc = random(rng, offset + M1 * accM);
      std::vector<float> expected = acc;
      for (int64_t m1 = 0; m1 < M1; ++m1)
        for (int64_t n1 = 0; n1 < N1; ++n1)
          for (int64_t i = 0; i < m0; ++i)
            for (int64_t j = 0; j < n0; ++j) {
              double sum = 0;
              for (int64_t k = 0; k < K1; ++k)
                sum += double(lhs[offset + m1 * lhsM + k * lhsK + i]) *
                       rhs[offset + n1 * rhsN + k * rhsK + j];
              float &c = expected[offset + m1 * accM + n1 * accN + i * row + j];
              c = float((accumulate ? c : 0) + sum);
            }
      variant.kernel(lhs.data(), offset, rhs.data(), offset, acc.data(), offset,
                     M1, N1, K1, lhsM, lhsK, rhsN, rhsK, accM, accN, row, m0,
                     n0, accumulate ? TRACEC_UK_ACCUMULATE : 0);
      for (size_t e = 0; e < acc.size(); ++e)
        ASSERT_NEAR(acc[e], expected[e], 1e-4 * (1 + K1))
            << variant.name << " " << m0 << "x" << n0 << " M1=" << M1
            << " N1=" << N1 << " K1=" << K1 << " element " << e;
    }
  }
}

/// dst = src over `sizes` with the given element strides (dst's dim order).
void referenceTranspose(const float *src, float *dst,
                        const std::vector<int64_t> &sizes,
                        const std::vector<int64_t> &srcStrides,
                        const std::vector<int64_t> &dstStrides) {
  std::vector<int64_t> index(sizes.size(), 0);
  for (;;) {
    int64_t s = 0, d = 0;
    for (size_t i = 0; i < sizes.size(); ++i) {
      s += index[i] * srcStrides[i];
      d += index[i] * dstStrides[i];
    }
    dst[d] = src[s];
    int dim = int(sizes.size()) - 1;
    for (; dim >= 0; --dim) {
      if (++index[dim] < sizes[dim])
        break;
      index[dim] = 0;
    }
    if (dim < 0)
      return;
  }
}

/// Row-major strides of `shape`.
std::vector<int64_t> denseStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int i = int(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

void checkTranspose(Transpose kernel, const char *name,
                    const std::vector<int64_t> &srcShape,
                    const std::vector<int64_t> &permutation) {
  std::mt19937 rng(7);
  std::vector<int64_t> srcDense = denseStrides(srcShape);
  std::vector<int64_t> sizes, srcStrides;
  for (int64_t p : permutation) {
    sizes.push_back(srcShape[p]);
    srcStrides.push_back(srcDense[p]);
  }
  std::vector<int64_t> dstStrides = denseStrides(sizes);
  int64_t count = 1;
  for (int64_t s : sizes)
    count *= s;
  int64_t offset = 5;
  std::vector<float> src = random(rng, offset + count);
  std::vector<float> dst(offset + count, -7), expected(offset + count, -7);
  referenceTranspose(src.data() + offset, expected.data() + offset, sizes,
                     srcStrides, dstStrides);
  int64_t s[6], ss[6], ds[6];
  for (size_t i = 0; i < 6; ++i) {
    s[i] = i < sizes.size() ? sizes[i] : 1;
    ss[i] = i < sizes.size() ? srcStrides[i] : 0;
    ds[i] = i < sizes.size() ? dstStrides[i] : 0;
  }
  kernel(src.data(), offset, dst.data(), offset, s[0], s[1], s[2], s[3], s[4],
         s[5], ss[0], ss[1], ss[2], ss[3], ss[4], ss[5], ds[0], ds[1], ds[2],
         ds[3], ds[4], ds[5]);
  std::string shape;
  for (int64_t d : srcShape)
    shape += std::to_string(d) + " ";
  for (size_t e = 0; e < dst.size(); ++e)
    ASSERT_EQ(dst[e], expected[e]) << name << " shape " << shape << "at " << e;
}

TEST(UkernelsTest, TransposeMatchesReference) {
  std::vector<std::pair<const char *, Transpose>> variants = {
      {"generic", tracec_uk_transpose_f32_generic}};
  if (hasAvx2Fma())
    variants.push_back({"avx2", tracec_uk_transpose_f32_avx2});
  if (hasAvx512())
    variants.push_back({"avx512", tracec_uk_transpose_f32_avx512});
  for (auto [name, kernel] : variants) {
    // A pack of a row-major lhs: [M1][m0][K1][k0] -> [M1][K1][k0][m0]
    // (a transposing pair), with m0 = 8 and 6, K1 with remainders.
    checkTranspose(kernel, name, {13, 8, 70, 1}, {0, 2, 3, 1});
    checkTranspose(kernel, name, {5, 6, 37, 1}, {0, 2, 3, 1});
    // A pack of a row-major rhs: [K1][k0][N1][n0] -> [N1][K1][k0][n0]
    // (contiguous rows).
    checkTranspose(kernel, name, {70, 1, 3, 32}, {2, 0, 1, 3});
    // A pack of a transposed rhs ([N, K] source): [N1][n0][K1][k0] ->
    // [N1][K1][k0][n0].
    checkTranspose(kernel, name, {3, 32, 45, 1}, {0, 2, 3, 1});
    checkTranspose(kernel, name, {2, 16, 9, 1}, {0, 2, 3, 1});
    // An unpack: [M1][N1][m0][n0] -> [M1][m0][N1][n0].
    checkTranspose(kernel, name, {13, 3, 8, 32}, {0, 2, 1, 3});
    // Rows whose source is densest along another dim than the
    // destination's: blocks of 16 x 8 rows, with partial blocks both ways,
    // rows of a switch width (8, 32) and of another (6).
    checkTranspose(kernel, name, {37, 1, 11, 8}, {2, 0, 1, 3});
    checkTranspose(kernel, name, {37, 1, 11, 6}, {2, 0, 1, 3});
    checkTranspose(kernel, name, {3, 21, 9, 32}, {0, 2, 1, 3});
    checkTranspose(kernel, name, {2, 3, 19, 1, 13, 8}, {0, 1, 4, 2, 3, 5});
    // Batched, and a permutation with no contiguous dim in the source
    // innermost position (element by element).
    checkTranspose(kernel, name, {2, 7, 8, 11, 1}, {0, 1, 3, 4, 2});
    checkTranspose(kernel, name, {4, 3, 5}, {2, 0, 1});
    checkTranspose(kernel, name, {2, 3, 2, 3, 2, 3}, {5, 4, 3, 2, 1, 0});
  }
}

TEST(UkernelsTest, SymbolsNameEveryKernel) {
  std::vector<std::string> names;
  for (const tracec_ukernel_symbol *s = tracec_ukernel_symbols(); s->name; ++s) {
    EXPECT_NE(s->address, nullptr) << s->name;
    names.push_back(s->name);
  }
  for (const char *name :
       {"tracec_uk_mmt4d_f32_avx512", "tracec_uk_mmt4d_f32_avx2",
        "tracec_uk_mmt4d_f32_generic", "tracec_uk_transpose_f32_avx512",
        "tracec_uk_transpose_f32_avx2",
        "tracec_uk_transpose_f32_generic"})
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
}

} // namespace
