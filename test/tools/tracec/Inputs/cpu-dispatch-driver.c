/* Runs the dispatched @mm and checks its numbers against a double-precision
   reference computed here; prints the variant the object picked. */
#include "cpu.h"

#include <math.h>
#include <stdio.h>

enum { M = 37, K = 53, N = 29 };

int main(void) {
  static float x[M * K], w[K * N], y[M * N], total[1];
  for (int i = 0; i < M * K; ++i)
    x[i] = (float)((i * 7919) % 101) / 50.0f - 1.0f;
  for (int i = 0; i < K * N; ++i)
    w[i] = (float)((i * 104729) % 97) / 48.0f - 1.0f;
  const char *cpu = cpu_target_cpu();
  int status = cpu_mm(x, w, y, total);
  printf("cpu %s status %d\n", cpu ? cpu : "(none)", status);
  if (status != TRACEC_AOT_OK)
    return 0;
  double worst = 0, sum = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double acc = 0;
      for (int k = 0; k < K; ++k)
        acc += (double)x[i * K + k] * w[k * N + j];
      sum += acc;
      double error = fabs(tanh(acc) - y[i * N + j]);
      worst = error > worst ? error : worst;
    }
  double sumError = fabs(sum - total[0]) / fabs(sum);
  printf("%s (max error %.1e, sum relative error %.1e)\n",
         worst < 1e-5 && sumError < 1e-5 ? "match" : "MISMATCH", worst,
         sumError);
  return 0;
}
