/* Calls dynamic-buffer-cache.mlir's @hidden at several batch sizes, over
 * and over (argv[1] rounds, default 21), checking y = tanh(x @ w1) @ w2
 * against a computation here, and counts the mallocs of 4 KiB or more that
 * the object makes (linked with -Wl,--wrap=malloc): once the sizes have
 * been seen, calls reuse the buffers of earlier ones. Then threads call at
 * once. */
#include "model.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

void *__real_malloc(size_t size);

static atomic_long large_mallocs;

void *__wrap_malloc(size_t size) {
  if (size >= 4096)
    atomic_fetch_add(&large_mallocs, 1);
  return __real_malloc(size);
}

static float w1[CACHE_HIDDEN_ARG_W1_SIZE], w2[CACHE_HIDDEN_ARG_W2_SIZE];

static float x_at(int64_t i, int k) {
  return (float)((i * 5 + k * 3) % 11 - 5) / 8;
}

/* One call at batch n; 1 if y is right. Adds the object's mallocs of
 * 4 KiB or more during the call to *made. */
static int run_batch(int64_t n, long *made) {
  int64_t rows = -1;
  if (cache_hidden_shape(n, &rows, NULL, 0) != 0 || rows != n)
    return 0;
  float *x = malloc(CACHE_HIDDEN_ARG_X_BYTES(n));
  float *y = malloc(CACHE_HIDDEN_RESULT_Y_BYTES(n));
  for (int64_t i = 0; i < n; ++i)
    for (int k = 0; k < 64; ++k)
      x[i * 64 + k] = x_at(i, k);
  long before = atomic_load(&large_mallocs);
  int ok = cache_hidden(x, n, w1, w2, y, n) == 0;
  *made += atomic_load(&large_mallocs) - before;
  for (int64_t i = 0; i < n && ok; ++i) {
    double a[64];
    for (int j = 0; j < 64; ++j) {
      double h = 0;
      for (int k = 0; k < 64; ++k)
        h += (double)x[i * 64 + k] * w1[k * 64 + j];
      a[j] = tanh(h);
    }
    for (int j = 0; j < 8; ++j) {
      double expected = 0;
      for (int k = 0; k < 64; ++k)
        expected += a[k] * w2[k * 8 + j];
      ok &= fabs(y[i * 8 + j] - expected) <= 1e-4 * (1 + fabs(expected));
    }
  }
  free(x);
  free(y);
  return ok;
}

static const int64_t batches[] = {256, 7, 256, 1, 64, 300};
enum { kBatches = sizeof batches / sizeof batches[0] };

static int rounds = 21;

static void *caller(void *arg) {
  long ok = 1, made = 0;
  for (int round = 0; round < rounds / 2; ++round)
    for (int b = 0; b < kBatches; ++b)
      ok &= run_batch(batches[(b + (long)arg) % kBatches], &made);
  return (void *)ok;
}

int main(int argc, char **argv) {
  if (argc > 1)
    rounds = atoi(argv[1]);
  for (int i = 0; i < CACHE_HIDDEN_ARG_W1_SIZE; ++i)
    w1[i] = (float)(i % 13 - 6) / 32;
  for (int i = 0; i < CACHE_HIDDEN_ARG_W2_SIZE; ++i)
    w2[i] = (float)(i % 7 - 3) / 4;

  int ok = 1;
  long first = 0, later = 0;
  for (int round = 0; round < rounds; ++round)
    for (int b = 0; b < kBatches; ++b)
      ok &= run_batch(batches[b], round == 0 ? &first : &later);
  printf("first round: %ld mallocs of 4 KiB or more\n", first);
  printf("%d more rounds: %ld mallocs of 4 KiB or more\n", rounds - 1, later);
  printf("results at 256, 7, 256, 1, 64, 300: %s\n", ok ? "ok" : "WRONG");

  pthread_t threads[4];
  for (long t = 0; t < 4; ++t)
    pthread_create(&threads[t], NULL, caller, (void *)t);
  int threads_ok = 1;
  for (int t = 0; t < 4; ++t) {
    void *result;
    pthread_join(threads[t], &result);
    threads_ok &= result != NULL;
  }
  printf("4 threads: %s\n", threads_ok ? "ok" : "WRONG");
  return ok && threads_ok ? 0 : 1;
}
