// The machine's measured FMA peak, the bound that bench/run reports the
// contraction-heavy rows against: each of T threads runs 16 independent
// chains of vector fused multiply-adds (enough to cover two FMA units'
// latency) for about 0.3 s, and the total rate is printed as
//   fma_peak_gflops <GFLOP/s> threads <T> lanes <16|8>
// (a multiply-add counts as 2 FLOP; lanes: f32 per vector, 16 with
// AVX-512, 8 with AVX2 FMA).
//   bench/fma_peak [threads]
#include <immintrin.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { kChains = 16, kRounds = 1 << 24 };

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

// Returns a sum of the chains so that the compiler keeps every FMA.
__attribute__((target("avx512f"))) static float chains512(long rounds) {
  __m512 acc[kChains];
  for (int i = 0; i < kChains; ++i)
    acc[i] = _mm512_set1_ps((float)i);
  const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
  for (long r = 0; r < rounds; ++r)
    for (int i = 0; i < kChains; ++i)
      acc[i] = _mm512_fmadd_ps(acc[i], a, b);
  __m512 sum = acc[0];
  for (int i = 1; i < kChains; ++i)
    sum = _mm512_add_ps(sum, acc[i]);
  return _mm512_reduce_add_ps(sum);
}

__attribute__((target("avx2,fma"))) static float chains256(long rounds) {
  __m256 acc[kChains];
  for (int i = 0; i < kChains; ++i)
    acc[i] = _mm256_set1_ps((float)i);
  const __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
  for (long r = 0; r < rounds; ++r)
    for (int i = 0; i < kChains; ++i)
      acc[i] = _mm256_fmadd_ps(acc[i], a, b);
  float out[8];
  __m256 sum = acc[0];
  for (int i = 1; i < kChains; ++i)
    sum = _mm256_add_ps(sum, acc[i]);
  _mm256_storeu_ps(out, sum);
  return out[0] + out[1] + out[2] + out[3] + out[4] + out[5] + out[6] + out[7];
}

static int lanes;
static long rounds;

static void *run(void *result) {
  *(float *)result = lanes == 16 ? chains512(rounds) : chains256(rounds);
  return NULL;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 1;
  if (threads < 1 || threads > 1024) {
    fprintf(stderr, "usage: %s [threads (1-1024)]\n", argv[0]);
    return 2;
  }
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    lanes = 16;
  else if (__builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2"))
    lanes = 8;
  else {
    fprintf(stderr, "fma_peak: this CPU has neither AVX-512 nor AVX2 FMA\n");
    return 1;
  }
  // A short warm-up raises the clock and sizes the run to about 0.3 s.
  rounds = 1 << 16;
  float sink;
  double start = now();
  run(&sink);
  double warm = now() - start;
  rounds = (long)(rounds * 0.3 / (warm > 1e-6 ? warm : 1e-6));
  if (rounds < 1 || rounds > kRounds * 64L)
    rounds = kRounds;

  pthread_t ids[1024];
  float sums[1024];
  start = now();
  for (int t = 0; t < threads; ++t)
    if (pthread_create(&ids[t], NULL, run, &sums[t]) != 0) {
      perror("fma_peak: pthread_create");
      return 1;
    }
  for (int t = 0; t < threads; ++t)
    pthread_join(ids[t], NULL);
  double seconds = now() - start;
  double flops = 2.0 * lanes * kChains * (double)rounds * threads;
  float total = sink;
  for (int t = 0; t < threads; ++t)
    total += sums[t];
  printf("fma_peak_gflops %.1f threads %d lanes %d (checksum %g)\n",
         flops / seconds * 1e-9, threads, lanes, (double)total);
  return 0;
}
