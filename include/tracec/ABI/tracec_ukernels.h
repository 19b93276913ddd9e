/*===- tracec_ukernels.h - Precompiled contraction micro-kernels ----------===*\
|*                                                                            *|
|* The CPU pipeline's packed contractions call these instead of generating    *|
|* their inner loops (trace-cpu-lower-to-ukernels; IREE's "ukernels"): one    *|
|* call per task and kc panel of a packed contraction, one per relayout of a  *|
|* pack or unpack. Code generation keeps the cache tiling, the threads and    *|
|* the padding; the kernels are shape-generic, so a module's IR no longer     *|
|* grows with its contractions.                                               *|
|*                                                                            *|
|* Each kernel has ISA variants; the compiler picks one from the *target*     *|
|* CPU's features (the JIT's host), never from the machine that built this    *|
|* library, which builds with plain flags and loads on any x86-64. Pointers   *|
|* are aligned base pointers plus element offsets, as memrefs carry them.     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TRACEC_ABI_TRACEC_UKERNELS_H
#define TRACEC_ABI_TRACEC_UKERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* tracec_uk_mmt4d_f32 flags: accumulate into acc (else acc = lhs * rhs). */
#define TRACEC_UK_ACCUMULATE 1

/* A packed contraction's block: for m1 < M1, n1 < N1, i < m0, j < n0,
     acc[m1, n1][i][j] (+)= sum over k1 < K1 of lhs[m1, k1][i] * rhs[n1, k1][j]
   where a tile's address is base + offset + m1 * stride + ... and tiles are
   dense: lhs[m1, k1] holds m0 floats (k0 = 1), rhs[n1, k1] holds n0, and
   acc[m1, n1] is m0 rows of n0 floats, `accRowStride` apart.
   _avx512: m0 = 8, n0 = 32 (needs avx512f); _avx2: m0 = 6, n0 = 16 (needs
   avx2 and fma); _generic: any m0 <= 16, n0 <= 64, any x86-64 or other. */
#define TRACEC_UK_MMT4D_PARAMS                                                 \
  const float *lhs, int64_t lhsOffset, const float *rhs, int64_t rhsOffset,    \
      float *acc, int64_t accOffset, int64_t M1, int64_t N1, int64_t K1,       \
      int64_t lhsStrideM1, int64_t lhsStrideK1, int64_t rhsStrideN1,           \
      int64_t rhsStrideK1, int64_t accStrideM1, int64_t accStrideN1,           \
      int64_t accRowStride, int64_t m0, int64_t n0, int64_t flags
void tracec_uk_mmt4d_f32_avx512(TRACEC_UK_MMT4D_PARAMS);
void tracec_uk_mmt4d_f32_avx2(TRACEC_UK_MMT4D_PARAMS);
void tracec_uk_mmt4d_f32_generic(TRACEC_UK_MMT4D_PARAMS);

/* The relayout of a pack or unpack (a linalg.transpose of up to 6 dims):
     dst[i0..i5] = src[i0..i5]
   with sizes s0..s5 and element strides of each side (in dst's dim order;
   unused dims have size 1). Rows contiguous on both sides are copied;
   a transposing pair (dst's innermost dim strided in src, another dim
   contiguous in src) moves as 8x8 blocks through vector registers in the
   _avx512 (avx512f: 64-byte row copies) and _avx2 variants, as scalar 8x8
   blocks in _generic. */
#define TRACEC_UK_TRANSPOSE_PARAMS                                             \
  const float *src, int64_t srcOffset, float *dst, int64_t dstOffset,          \
      int64_t s0, int64_t s1, int64_t s2, int64_t s3, int64_t s4, int64_t s5,  \
      int64_t src0, int64_t src1, int64_t src2, int64_t src3, int64_t src4,    \
      int64_t src5, int64_t dst0, int64_t dst1, int64_t dst2, int64_t dst3,    \
      int64_t dst4, int64_t dst5
void tracec_uk_transpose_f32_avx512(TRACEC_UK_TRANSPOSE_PARAMS);
void tracec_uk_transpose_f32_avx2(TRACEC_UK_TRANSPOSE_PARAMS);
void tracec_uk_transpose_f32_generic(TRACEC_UK_TRANSPOSE_PARAMS);

/* Every kernel by name, for the JIT to resolve calls (a null name ends). */
struct tracec_ukernel_symbol {
  const char *name;
  void *address;
};
const struct tracec_ukernel_symbol *tracec_ukernel_symbols(void);

#ifdef __cplusplus
}
#endif

#endif /* TRACEC_ABI_TRACEC_UKERNELS_H */
