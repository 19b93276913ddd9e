/*===- Mmt4d.c - Packed matrix-multiply micro-kernels ---------------------===*\
|*                                                                            *|
|* tracec_uk_mmt4d_f32_*: a block of a packed contraction (see                *|
|* tracec_ukernels.h). Per register tile (m1, n1), the m0 x n0 accumulators   *|
|* stay in vector registers across all of K1: per k, n0 / lanes loads of the  *|
|* right operand's row, m0 broadcasts of the left operand's column, and       *|
|* m0 * n0 / lanes FMAs. n1 is the outer loop, so a kc x n0 panel of the      *|
|* right operand stays in L1 across the m1 tiles.                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "tracec/ABI/tracec_ukernels.h"

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#define TRACEC_UK_X86 1
#endif

/* Calls `tile` on each register tile of the block, n1 outermost. */
#define TRACEC_UK_FOR_EACH_TILE(tile)                                          \
  for (int64_t n1 = 0; n1 < N1; ++n1)                                          \
    for (int64_t m1 = 0; m1 < M1; ++m1)                                        \
      tile(lhs + lhsOffset + m1 * lhsStrideM1, lhsStrideK1,                    \
           rhs + rhsOffset + n1 * rhsStrideN1, rhsStrideK1,                    \
           acc + accOffset + m1 * accStrideM1 + n1 * accStrideN1,             \
           accRowStride, K1, flags & TRACEC_UK_ACCUMULATE)

#ifdef TRACEC_UK_X86

__attribute__((target("avx512f"), always_inline)) static inline void
tile8x32Body(const float *a, int64_t sa, const float *b, int64_t sb, float *c,
             int64_t ldc, int64_t K, int64_t accumulate) {
  __m512 c0[8], c1[8];
  for (int i = 0; i < 8; ++i) {
    c0[i] = accumulate ? _mm512_loadu_ps(c + i * ldc) : _mm512_setzero_ps();
    c1[i] = accumulate ? _mm512_loadu_ps(c + i * ldc + 16)
                       : _mm512_setzero_ps();
  }
#pragma GCC unroll 4
  for (int64_t k = 0; k < K; ++k) {
    _mm_prefetch((const char *)(b + 8 * sb), _MM_HINT_T0);
    __m512 b0 = _mm512_loadu_ps(b), b1 = _mm512_loadu_ps(b + 16);
    for (int i = 0; i < 8; ++i) {
      __m512 ai = _mm512_set1_ps(a[i]);
      c0[i] = _mm512_fmadd_ps(ai, b0, c0[i]);
      c1[i] = _mm512_fmadd_ps(ai, b1, c1[i]);
    }
    a += sa;
    b += sb;
  }
  for (int i = 0; i < 8; ++i) {
    _mm512_storeu_ps(c + i * ldc, c0[i]);
    _mm512_storeu_ps(c + i * ldc + 16, c1[i]);
  }
}

__attribute__((target("avx2,fma"), always_inline)) static inline void
tile6x16Body(const float *a, int64_t sa, const float *b, int64_t sb, float *c,
             int64_t ldc, int64_t K, int64_t accumulate) {
  __m256 c0[6], c1[6];
  for (int i = 0; i < 6; ++i) {
    c0[i] = accumulate ? _mm256_loadu_ps(c + i * ldc) : _mm256_setzero_ps();
    c1[i] = accumulate ? _mm256_loadu_ps(c + i * ldc + 8)
                       : _mm256_setzero_ps();
  }
#pragma GCC unroll 4
  for (int64_t k = 0; k < K; ++k) {
    _mm_prefetch((const char *)(b + 8 * sb), _MM_HINT_T0);
    __m256 b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + 8);
    for (int i = 0; i < 6; ++i) {
      __m256 ai = _mm256_broadcast_ss(a + i);
      c0[i] = _mm256_fmadd_ps(ai, b0, c0[i]);
      c1[i] = _mm256_fmadd_ps(ai, b1, c1[i]);
    }
    a += sa;
    b += sb;
  }
  for (int i = 0; i < 6; ++i) {
    _mm256_storeu_ps(c + i * ldc, c0[i]);
    _mm256_storeu_ps(c + i * ldc + 8, c1[i]);
  }
}

/* Dense panels (the packed layouts' usual strides) get constant strides:
   immediate offsets in the unrolled k loop instead of index registers. */
__attribute__((target("avx512f"))) static void
tile8x32(const float *a, int64_t sa, const float *b, int64_t sb, float *c,
         int64_t ldc, int64_t K, int64_t accumulate) {
  if (sa == 8 && sb == 32 && ldc == 32)
    tile8x32Body(a, 8, b, 32, c, 32, K, accumulate);
  else
    tile8x32Body(a, sa, b, sb, c, ldc, K, accumulate);
}

__attribute__((target("avx2,fma"))) static void
tile6x16(const float *a, int64_t sa, const float *b, int64_t sb, float *c,
         int64_t ldc, int64_t K, int64_t accumulate) {
  if (sa == 6 && sb == 16 && ldc == 16)
    tile6x16Body(a, 6, b, 16, c, 16, K, accumulate);
  else
    tile6x16Body(a, sa, b, sb, c, ldc, K, accumulate);
}

__attribute__((target("avx512f"))) void
tracec_uk_mmt4d_f32_avx512(TRACEC_UK_MMT4D_PARAMS) {
  if (m0 != 8 || n0 != 32) {
    tracec_uk_mmt4d_f32_generic(lhs, lhsOffset, rhs, rhsOffset, acc,
                                accOffset, M1, N1, K1, lhsStrideM1,
                                lhsStrideK1, rhsStrideN1, rhsStrideK1,
                                accStrideM1, accStrideN1, accRowStride, m0,
                                n0, flags);
    return;
  }
  TRACEC_UK_FOR_EACH_TILE(tile8x32);
}

__attribute__((target("avx2,fma"))) void
tracec_uk_mmt4d_f32_avx2(TRACEC_UK_MMT4D_PARAMS) {
  if (m0 != 6 || n0 != 16) {
    tracec_uk_mmt4d_f32_generic(lhs, lhsOffset, rhs, rhsOffset, acc,
                                accOffset, M1, N1, K1, lhsStrideM1,
                                lhsStrideK1, rhsStrideN1, rhsStrideK1,
                                accStrideM1, accStrideN1, accRowStride, m0,
                                n0, flags);
    return;
  }
  TRACEC_UK_FOR_EACH_TILE(tile6x16);
}

#else /* not x86: the named variants are the generic kernel. */

void tracec_uk_mmt4d_f32_avx512(TRACEC_UK_MMT4D_PARAMS) {
  tracec_uk_mmt4d_f32_generic(lhs, lhsOffset, rhs, rhsOffset, acc, accOffset,
                              M1, N1, K1, lhsStrideM1, lhsStrideK1,
                              rhsStrideN1, rhsStrideK1, accStrideM1,
                              accStrideN1, accRowStride, m0, n0, flags);
}

void tracec_uk_mmt4d_f32_avx2(TRACEC_UK_MMT4D_PARAMS) {
  tracec_uk_mmt4d_f32_generic(lhs, lhsOffset, rhs, rhsOffset, acc, accOffset,
                              M1, N1, K1, lhsStrideM1, lhsStrideK1,
                              rhsStrideN1, rhsStrideK1, accStrideM1,
                              accStrideN1, accRowStride, m0, n0, flags);
}

#endif

/* Any tile up to 16 x 64: the accumulators in a local array the compiler
   keeps in (baseline) vector registers where it can. */
void tracec_uk_mmt4d_f32_generic(TRACEC_UK_MMT4D_PARAMS) {
  float c[16 * 64];
  for (int64_t n1 = 0; n1 < N1; ++n1)
    for (int64_t m1 = 0; m1 < M1; ++m1) {
      const float *a = lhs + lhsOffset + m1 * lhsStrideM1;
      const float *b = rhs + rhsOffset + n1 * rhsStrideN1;
      float *out = acc + accOffset + m1 * accStrideM1 + n1 * accStrideN1;
      for (int64_t i = 0; i < m0; ++i)
        for (int64_t j = 0; j < n0; ++j)
          c[i * n0 + j] =
              (flags & TRACEC_UK_ACCUMULATE) ? out[i * accRowStride + j] : 0;
      for (int64_t k = 0; k < K1; ++k, a += lhsStrideK1, b += rhsStrideK1)
        for (int64_t i = 0; i < m0; ++i) {
          float ai = a[i];
          for (int64_t j = 0; j < n0; ++j)
            c[i * n0 + j] += ai * b[j];
        }
      for (int64_t i = 0; i < m0; ++i)
        for (int64_t j = 0; j < n0; ++j)
          out[i * accRowStride + j] = c[i * n0 + j];
    }
}
