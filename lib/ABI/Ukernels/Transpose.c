/*===- Transpose.c - Relayout micro-kernels of packs and unpacks ----------===*\
|*                                                                            *|
|* tracec_uk_transpose_f32_*: a strided copy of up to 6 dims (see             *|
|* tracec_ukernels.h). Unit dims go and dims contiguous on both sides merge;  *|
|* then rows contiguous on both sides are copied (in blocks of rows where the *|
|* two sides are densest along different dims), a transposing pair moves as  *|
|* 8x8 blocks, and anything else is copied element by element.               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "tracec/ABI/tracec_ukernels.h"

#include <string.h>

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#define TRACEC_UK_X86 1
#endif

enum { kMaxRank = 6 };

typedef struct {
  int rank;
  int64_t size[kMaxRank], src[kMaxRank], dst[kMaxRank];
} Layout;

static Layout makeLayout(const int64_t *size, const int64_t *src,
                         const int64_t *dst) {
  Layout l;
  l.rank = 0;
  for (int d = 0; d < kMaxRank; ++d) {
    if (size[d] == 1)
      continue;
    int r = l.rank;
    /* Merge into the previous dim when it steps over this one exactly on
       both sides. */
    if (r > 0 && l.src[r - 1] == src[d] * size[d] &&
        l.dst[r - 1] == dst[d] * size[d]) {
      l.size[r - 1] *= size[d];
      l.src[r - 1] = src[d];
      l.dst[r - 1] = dst[d];
      continue;
    }
    l.size[r] = size[d];
    l.src[r] = src[d];
    l.dst[r] = dst[d];
    ++l.rank;
  }
  return l;
}

/* A 2-D transpose: dst[r * dstRow + c] = src[r + c * srcCol], r < R, c < C. */
typedef void (*Transpose2D)(const float *src, int64_t srcCol, float *dst,
                            int64_t dstRow, int64_t R, int64_t C);

static void scalarBlock(const float *src, int64_t srcCol, float *dst,
                        int64_t dstRow, int64_t R, int64_t C) {
  for (int64_t r = 0; r < R; ++r)
    for (int64_t c = 0; c < C; ++c)
      dst[r * dstRow + c] = src[r + c * srcCol];
}

static void transpose2DGeneric(const float *src, int64_t srcCol, float *dst,
                               int64_t dstRow, int64_t R, int64_t C) {
  /* 8x8 blocks: 8 cache lines read and 8 written per block. */
  for (int64_t c = 0; c < C; c += 8)
    for (int64_t r = 0; r < R; r += 8)
      scalarBlock(src + r + c * srcCol, srcCol, dst + r * dstRow + c, dstRow,
                  R - r < 8 ? R - r : 8, C - c < 8 ? C - c : 8);
}

#ifdef TRACEC_UK_X86
__attribute__((target("avx"))) static inline void
transpose8x8(__m256 *v) {
  __m256 t0 = _mm256_unpacklo_ps(v[0], v[1]), t1 = _mm256_unpackhi_ps(v[0], v[1]);
  __m256 t2 = _mm256_unpacklo_ps(v[2], v[3]), t3 = _mm256_unpackhi_ps(v[2], v[3]);
  __m256 t4 = _mm256_unpacklo_ps(v[4], v[5]), t5 = _mm256_unpackhi_ps(v[4], v[5]);
  __m256 t6 = _mm256_unpacklo_ps(v[6], v[7]), t7 = _mm256_unpackhi_ps(v[6], v[7]);
  __m256 u0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
  __m256 u1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
  __m256 u2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
  __m256 u3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
  __m256 u4 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0));
  __m256 u5 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2));
  __m256 u6 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0));
  __m256 u7 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2));
  v[0] = _mm256_permute2f128_ps(u0, u4, 0x20);
  v[1] = _mm256_permute2f128_ps(u1, u5, 0x20);
  v[2] = _mm256_permute2f128_ps(u2, u6, 0x20);
  v[3] = _mm256_permute2f128_ps(u3, u7, 0x20);
  v[4] = _mm256_permute2f128_ps(u0, u4, 0x31);
  v[5] = _mm256_permute2f128_ps(u1, u5, 0x31);
  v[6] = _mm256_permute2f128_ps(u2, u6, 0x31);
  v[7] = _mm256_permute2f128_ps(u3, u7, 0x31);
}

__attribute__((target("avx2"))) static void
transpose2DAvx2(const float *src, int64_t srcCol, float *dst, int64_t dstRow,
                int64_t R, int64_t C) {
  int64_t c = 0;
  for (; c + 8 <= C; c += 8) {
    int64_t r = 0;
    for (; r + 8 <= R; r += 8) {
      __m256 v[8];
      for (int i = 0; i < 8; ++i)
        v[i] = _mm256_loadu_ps(src + r + (c + i) * srcCol);
      transpose8x8(v);
      for (int i = 0; i < 8; ++i)
        _mm256_storeu_ps(dst + (r + i) * dstRow + c, v[i]);
    }
    scalarBlock(src + r + c * srcCol, srcCol, dst + r * dstRow + c, dstRow,
                R - r, 8);
  }
  if (c == C)
    return;
  /* A partial block of columns (a 6-row tile): missing rows read as
     zeros, and only the real columns are stored. */
  int64_t rest = C - c, r = 0;
  for (; r + 8 <= R; r += 8) {
    __m256 v[8];
    for (int i = 0; i < 8; ++i)
      v[i] = i < rest ? _mm256_loadu_ps(src + r + (c + i) * srcCol)
                      : _mm256_setzero_ps();
    transpose8x8(v);
    float block[8];
    for (int i = 0; i < 8; ++i) {
      _mm256_storeu_ps(block, v[i]);
      for (int64_t j = 0; j < rest; ++j)
        dst[(r + i) * dstRow + c + j] = block[j];
    }
  }
  scalarBlock(src + r + c * srcCol, srcCol, dst + r * dstRow + c, dstRow,
              R - r, rest);
}
#endif

/* The loop bounds and strides of the dims of `l` not in `skip` (a bit
   set), as 6 nested loops: unit dims for the skipped and missing ones. */
typedef struct {
  int64_t size[kMaxRank], src[kMaxRank], dst[kMaxRank];
} Loops;

static Loops loopsOf(const Layout *l, unsigned skip) {
  Loops loops;
  for (int d = 0; d < kMaxRank; ++d) {
    int used = d < l->rank && !(skip & (1u << d));
    loops.size[d] = used ? l->size[d] : 1;
    loops.src[d] = used ? l->src[d] : 0;
    loops.dst[d] = used ? l->dst[d] : 0;
  }
  return loops;
}

#define TRACEC_UK_FOR_EACH(loops, body)                                        \
  for (int64_t i0 = 0; i0 < loops.size[0]; ++i0)                               \
    for (int64_t i1 = 0; i1 < loops.size[1]; ++i1)                             \
      for (int64_t i2 = 0; i2 < loops.size[2]; ++i2)                           \
        for (int64_t i3 = 0; i3 < loops.size[3]; ++i3)                         \
          for (int64_t i4 = 0; i4 < loops.size[4]; ++i4) {                     \
            const float *s = src + i0 * loops.src[0] + i1 * loops.src[1] +     \
                             i2 * loops.src[2] + i3 * loops.src[3] +           \
                             i4 * loops.src[4];                                \
            float *d = dst + i0 * loops.dst[0] + i1 * loops.dst[1] +           \
                       i2 * loops.dst[2] + i3 * loops.dst[3] +                 \
                       i4 * loops.dst[4];                                      \
            for (int64_t i5 = 0; i5 < loops.size[5];                           \
                 ++i5, s += loops.src[5], d += loops.dst[5]) {                 \
              body;                                                            \
            }                                                                  \
          }

/* Contiguous rows of `width` floats; inlined per tile width so each row
   is a few vector moves, not a call of memcpy. */
static inline __attribute__((always_inline)) void
copyRows(const float *src, float *dst, Loops loops, int64_t width) {
  TRACEC_UK_FOR_EACH(loops, memcpy(d, s, (size_t)width * sizeof(float)));
}

static inline __attribute__((always_inline)) void copyRowsOf(const float *src, float *dst, Loops loops,
                       int64_t width) {
  switch (width) {
  case 6:
    copyRows(src, dst, loops, 6);
    return;
  case 8:
    copyRows(src, dst, loops, 8);
    return;
  case 16:
    copyRows(src, dst, loops, 16);
    return;
  case 32:
    copyRows(src, dst, loops, 32);
    return;
  default:
    copyRows(src, dst, loops, width);
  }
}

/* Rows of `width` floats where the source's smallest stride is not the
   innermost loop's (a pack of [K1][N1][n0] panels, an unpack): the
   innermost loop (P, the destination's densest) and the source's densest
   loop (S) step through blocks of 16 x 8 rows: a block reads 16 runs of 8
   source rows and writes 8 runs of 16 destination rows, where walking the
   destination in order reads one row per cache line (or 4 KiB apart, where
   L1's sets alias) across the source. */
static inline __attribute__((always_inline)) void
copyRowBlocks(const float *src, float *dst, Loops loops, int64_t width,
              int64_t P, int64_t srcP, int64_t dstP, int64_t S, int64_t srcS,
              int64_t dstS) {
  TRACEC_UK_FOR_EACH(loops, {
    for (int64_t p0 = 0; p0 < P; p0 += 16)
      for (int64_t q0 = 0; q0 < S; q0 += 8) {
        int64_t pEnd = P - p0 < 16 ? P : p0 + 16;
        int64_t qEnd = S - q0 < 8 ? S : q0 + 8;
        for (int64_t p = p0; p < pEnd; ++p)
          for (int64_t q = q0; q < qEnd; ++q)
            memcpy(d + p * dstP + q * dstS, s + p * srcP + q * srcS,
                   (size_t)width * sizeof(float));
      }
  });
}

/* Contiguous rows (dim `inner` of `l`), blocked where the source's densest
   other dim is not the destination's (copyRowBlocks). */
static inline __attribute__((always_inline)) void
copyContiguousRows(const float *src, float *dst, const Layout *l) {
  int inner = l->rank - 1, p = inner - 1, s = 0;
  for (int d = 1; d < inner; ++d)
    if (l->src[d] < l->src[s])
      s = d;
  if (inner < 2 || s == p || l->src[s] >= l->src[p]) {
    copyRowsOf(src, dst, loopsOf(l, 1u << inner), l->size[inner]);
    return;
  }
  Loops loops = loopsOf(l, (1u << inner) | (1u << p) | (1u << s));
  int64_t width = l->size[inner];
#define TRACEC_UK_ROW_BLOCKS(w)                                                \
  copyRowBlocks(src, dst, loops, w, l->size[p], l->src[p], l->dst[p],          \
                l->size[s], l->src[s], l->dst[s])
  switch (width) {
  case 8:
    TRACEC_UK_ROW_BLOCKS(8);
    return;
  case 16:
    TRACEC_UK_ROW_BLOCKS(16);
    return;
  case 32:
    TRACEC_UK_ROW_BLOCKS(32);
    return;
  default:
    TRACEC_UK_ROW_BLOCKS(width);
  }
#undef TRACEC_UK_ROW_BLOCKS
}

/* Inlined into each variant, so its copies use that variant's vectors. */
static inline __attribute__((always_inline)) void
transposeF32(const float *src, float *dst, const int64_t *size,
                         const int64_t *srcStride, const int64_t *dstStride,
                         Transpose2D transpose) {
  for (int d = 0; d < kMaxRank; ++d)
    if (size[d] == 0)
      return;
  Layout l = makeLayout(size, srcStride, dstStride);
  if (l.rank == 0) {
    *dst = *src;
    return;
  }
  int inner = l.rank - 1;
  if (l.src[inner] == 1 && l.dst[inner] == 1) {
    copyContiguousRows(src, dst, &l);
    return;
  }
  if (l.dst[inner] == 1) {
    for (int t = 0; t < inner; ++t) {
      if (l.src[t] != 1)
        continue;
      Loops loops = loopsOf(&l, (1u << inner) | (1u << t));
      int64_t srcCol = l.src[inner], dstRow = l.dst[t], R = l.size[t],
              C = l.size[inner];
      TRACEC_UK_FOR_EACH(loops, transpose(s, srcCol, d, dstRow, R, C));
      return;
    }
  }
  Loops loops = loopsOf(&l, 0);
  TRACEC_UK_FOR_EACH(loops, *d = *s);
}

#define TRACEC_UK_TRANSPOSE_ARRAYS                                             \
  const int64_t size[kMaxRank] = {s0, s1, s2, s3, s4, s5};                     \
  const int64_t srcStride[kMaxRank] = {src0, src1, src2, src3, src4, src5};    \
  const int64_t dstStride[kMaxRank] = {dst0, dst1, dst2, dst3, dst4, dst5}

void tracec_uk_transpose_f32_generic(TRACEC_UK_TRANSPOSE_PARAMS) {
  TRACEC_UK_TRANSPOSE_ARRAYS;
  transposeF32(src + srcOffset, dst + dstOffset, size, srcStride, dstStride,
               transpose2DGeneric);
}

/* The vector variants share their code; each compiles it (row copies
   inlined) for its own vector width. */
#ifdef TRACEC_UK_X86
#define TRACEC_UK_TARGET(isa) __attribute__((target(isa)))
#define TRACEC_UK_VECTOR_TRANSPOSE transpose2DAvx2
#else
#define TRACEC_UK_TARGET(isa)
#define TRACEC_UK_VECTOR_TRANSPOSE transpose2DGeneric
#endif
#define TRACEC_UK_VECTOR_VARIANT(isa, name)                                    \
  TRACEC_UK_TARGET(isa) void name(TRACEC_UK_TRANSPOSE_PARAMS) {                \
    TRACEC_UK_TRANSPOSE_ARRAYS;                                                \
    transposeF32(src + srcOffset, dst + dstOffset, size, srcStride,           \
                 dstStride, TRACEC_UK_VECTOR_TRANSPOSE);                       \
  }

TRACEC_UK_VECTOR_VARIANT("avx512f", tracec_uk_transpose_f32_avx512)
TRACEC_UK_VECTOR_VARIANT("avx2", tracec_uk_transpose_f32_avx2)
