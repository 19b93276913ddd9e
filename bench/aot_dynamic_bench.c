/* The MLP train step of bench/workloads/mlp_dynamic.mlir (784-512-512-10)
 * as AOT objects in a plain C program, as a user links them
 * (cc program.c model.o -lm): the object compiled with the `?` batch, or
 * its static twin compiled with the batch fixed (256 or 64). bench/run's
 * "MLP train step AOT, ? batch" rows compare the two.
 *
 *   tracec_bench_aot_dynamic dynamic|static BATCH [SECONDS]
 *
 * Calls the entry for about SECONDS (default 0.5; at least 10 calls, after
 * 3 untimed ones) and prints "<median seconds per call> <loss>". */
#include "bench_mlp_dynamic_aot.h"
#include "bench_mlp_static_256_aot.h"
#include "bench_mlp_static_64_aot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kInputs = 784, kHidden = 512, kClasses = 10 };

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static float *buffer(size_t elements) {
  float *p = aligned_alloc(64, (elements * sizeof(float) + 63) / 64 * 64);
  if (!p) {
    fprintf(stderr, "tracec_bench_aot_dynamic: out of memory\n");
    exit(1);
  }
  return p;
}

/* Uniform in [-scale, scale), from a fixed LCG. */
static void fill(float *p, size_t n, float scale, unsigned *state) {
  for (size_t i = 0; i < n; ++i) {
    *state = *state * 1664525u + 1013904223u;
    p[i] = scale * ((float)(*state >> 8) / 8388608.0f - 1.0f);
  }
}

int main(int argc, char **argv) {
  if (argc < 3 || (strcmp(argv[1], "dynamic") && strcmp(argv[1], "static"))) {
    fprintf(stderr, "usage: tracec_bench_aot_dynamic dynamic|static BATCH "
                    "[SECONDS]\n");
    return 2;
  }
  int dynamic = strcmp(argv[1], "dynamic") == 0;
  int64_t n = atoll(argv[2]);
  double seconds = argc > 3 ? atof(argv[3]) : 0.5;
  if (!dynamic && n != 256 && n != 64) {
    fprintf(stderr, "tracec_bench_aot_dynamic: the static objects have batch "
                    "256 or 64, not %lld\n", (long long)n);
    return 2;
  }

  const size_t sizes[6] = {kInputs * kHidden, kHidden, kHidden * kHidden,
                           kHidden, kHidden * kClasses, kClasses};
  unsigned state = 1;
  float *x = buffer((size_t)n * kInputs), *w[6], *grads[6], loss[16];
  int32_t *labels = (int32_t *)buffer((size_t)n);
  fill(x, (size_t)n * kInputs, 0.5f, &state);
  for (int64_t i = 0; i < n; ++i)
    labels[i] = (int32_t)((i * 7) % kClasses);
  for (int i = 0; i < 6; ++i) {
    w[i] = buffer(sizes[i]);
    grads[i] = buffer(sizes[i]);
    fill(w[i], sizes[i], i % 2 ? 0.0f : 0.05f, &state);
  }

  size_t capacity = 1024, calls = 0;
  double *times = malloc(capacity * sizeof(double));
  double start = now();
  for (int call = -3; call < 10 || now() - start < seconds; ++call) {
    double before = now();
    int status =
        dynamic ? mlpdynamicbench_train_step(
                      x, n, labels, n, w[0], w[1], w[2], w[3], w[4], w[5],
                      loss, grads[0], grads[1], grads[2], grads[3], grads[4],
                      grads[5])
        : n == 256
            ? mlpstatic256bench_train_step(x, labels, w[0], w[1], w[2], w[3],
                                           w[4], w[5], loss, grads[0],
                                           grads[1], grads[2], grads[3],
                                           grads[4], grads[5])
            : mlpstatic64bench_train_step(x, labels, w[0], w[1], w[2], w[3],
                                          w[4], w[5], loss, grads[0], grads[1],
                                          grads[2], grads[3], grads[4],
                                          grads[5]);
    double elapsed = now() - before;
    if (status != 0) {
      fprintf(stderr, "tracec_bench_aot_dynamic: train_step returned %d\n",
              status);
      return 1;
    }
    if (call < 0)
      continue;
    if (calls == capacity)
      times = realloc(times, (capacity *= 2) * sizeof(double));
    times[calls++] = elapsed;
  }
  qsort(times, calls, sizeof(double), compare);
  printf("%.9g %.9g\n", times[calls / 2], loss[0]);
  free(times);
  free(x);
  free(labels);
  for (int i = 0; i < 6; ++i) {
    free(w[i]);
    free(grads[i]);
  }
  return 0;
}
