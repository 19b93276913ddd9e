/* Calls the AOT-compiled @dense (y = tanh(x @ w) + b, and the row sums of
   y) on fixed inputs and compares with the same computation in double
   precision: prints the largest error and a checksum of the bits. Later
   calls must give the same bits: a threaded object's regions sample
   serial and parallel runs in turn (trace-cpu-adaptive-parallel). */
#include "dense.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { M = 256, K = 64, N = 128 };
enum { CALLS = 4 };
static float x[M * K], w[K * N], b[N], y[M * N], s[M], y2[M * N], s2[M];

int main(void) {
  for (int i = 0; i < M * K; ++i)
    x[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
  for (int i = 0; i < K * N; ++i)
    w[i] = (float)((i * 5) % 11) / 11.0f - 0.5f;
  for (int j = 0; j < N; ++j)
    b[j] = (float)j / N;
  if (dense_dense(x, w, b, y, s) != 0)
    return 1;
  int agree = 1;
  for (int call = 1; call < CALLS; ++call) {
    if (dense_dense(x, w, b, y2, s2) != 0)
      return 1;
    agree &= !memcmp(y, y2, sizeof y) && !memcmp(s, s2, sizeof s);
  }
  printf("%d calls %s\n", CALLS, agree ? "agree" : "DIFFER");
  double err = 0;
  uint64_t checksum = 0;
  for (int i = 0; i < M; ++i) {
    double row = 0;
    for (int j = 0; j < N; ++j) {
      double acc = 0;
      for (int k = 0; k < K; ++k)
        acc += (double)x[i * K + k] * w[k * N + j];
      double ref = tanh(acc) + b[j];
      row += ref;
      err = fmax(err, fabs(ref - y[i * N + j]));
      uint32_t bits;
      memcpy(&bits, &y[i * N + j], sizeof bits);
      checksum = checksum * 31 + bits;
    }
    err = fmax(err, fabs(row - s[i]) / N);
  }
  printf("max error %s\n", err < 1e-5 ? "below 1e-5" : "TOO LARGE");
  printf("checksum %llu\n", (unsigned long long)checksum);
  return 0;
}
