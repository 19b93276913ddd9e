/* Calls dynamic.mlir's entries through the C API at several batch sizes
 * with one object and checks the results against values computed here.
 * With two arguments (the rows of x and of scale), makes one call with
 * those dims: on an error, prints the message and exits 1. */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const float w[DYN_AFFINE_ARG_W_SIZE] = {1, 0.5f, -1, 2, 0, 1};

static float x_at(int64_t i, int k) { return (float)((i * 3 + k) % 7 - 3); }
static float scale_at(int64_t i) { return (float)(i % 3 + 1); }

/* The rows of y = (x @ w) * scale, by hand. */
static float y_at(int64_t i, int j) {
  float sum = 0;
  for (int k = 0; k < 3; ++k)
    sum += x_at(i, k) * w[k * 2 + j];
  return sum * scale_at(i);
}

static int run_batch(int64_t n, float total[2]) {
  int64_t rows = -1;
  char error[256];
  if (dyn_affine_shape(n, n, &rows, error, sizeof error) != 0 || rows != n ||
      error[0] != '\0')
    return 0;
  float *x = malloc(DYN_AFFINE_ARG_X_BYTES(n));
  float *scale = malloc(DYN_AFFINE_ARG_SCALE_BYTES(n));
  float *y = malloc(DYN_AFFINE_RESULT_Y_BYTES(rows));
  float colsum[DYN_AFFINE_RESULT_COLSUM_SIZE];
  for (int64_t i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k)
      x[i * 3 + k] = x_at(i, k);
    scale[i] = scale_at(i);
  }
  float before[2] = {total[0], total[1]};
  int ok = dyn_affine(x, n, w, scale, n, total, y, rows, colsum) == 0;
  float expected[2] = {0, 0};
  for (int64_t i = 0; i < n; ++i)
    for (int j = 0; j < 2; ++j) {
      ok &= y[i * 2 + j] == y_at(i, j);
      expected[j] += y_at(i, j);
    }
  for (int j = 0; j < 2; ++j)
    ok &= colsum[j] == expected[j] && total[j] == before[j] + expected[j];
  free(x);
  free(scale);
  free(y);
  return ok;
}

int main(int argc, char **argv) {
  char error[256];
  int64_t rows;
  if (argc == 3) {
    int status = dyn_affine_shape(atoll(argv[1]), atoll(argv[2]), &rows, error,
                                  sizeof error);
    if (status != TRACEC_AOT_OK) {
      fprintf(stderr, "error %d: %s\n", status, error);
      return 1;
    }
    printf("rows %lld\n", (long long)rows);
    return 0;
  }

  float total[2] = {0, 0};
  const int64_t batches[] = {1, 7, 64, 256};
  for (int b = 0; b < 4; ++b)
    printf("batch %lld: %s\n", (long long)batches[b],
           run_batch(batches[b], total) ? "ok" : "WRONG");

  /* Both dims of one buffer dynamic. */
  float s[15], t[15];
  for (int i = 0; i < 15; ++i)
    s[i] = (float)i;
  int ok = dyn_scale(s, 5, 3, t, 5, 3) == 0;
  for (int i = 0; i < 15; ++i)
    ok &= t[i] == 2.0f * i;
  printf("scale 5x3: %s\n", ok ? "ok" : "WRONG");

  /* Inconsistent dims: the message, and nothing written. */
  int status = dyn_affine_shape(7, 6, &rows, error, sizeof error);
  printf("shape(7, 6) -> %d: %s\n", status, error);
  float x[7 * 3] = {0}, scale[7] = {0}, y[7 * 2], colsum[2] = {-1, -1};
  for (int i = 0; i < 14; ++i)
    y[i] = -1;
  float before[2] = {total[0], total[1]};
  status = dyn_affine(x, 7, w, scale, 6, total, y, 7, colsum);
  ok = status == TRACEC_AOT_BAD_DIMS && total[0] == before[0] &&
       total[1] == before[1] && colsum[0] == -1 && colsum[1] == -1;
  for (int i = 0; i < 14; ++i)
    ok &= y[i] == -1;
  printf("affine(7, 6) -> %d, y and the variable untouched: %s\n", status,
         ok ? "ok" : "WRONG");
  status = dyn_affine(x, 7, w, scale, 7, total, y, 6, colsum);
  ok = status == TRACEC_AOT_BAD_RESULT_DIMS && y[0] == -1 && y[13] == -1 &&
       total[0] == before[0];
  printf("affine(7, 7) with y of 6 rows -> %d, y untouched: %s\n", status,
         ok ? "ok" : "WRONG");

  status = dyn_affine_shape(-2, -2, &rows, error, sizeof error);
  printf("shape(-2, -2) -> %d: %s\n", status, error);
  printf("null y_dim0 -> %d\n", dyn_affine_shape(7, 7, NULL, NULL, 0));
  printf("null buffer -> %d\n",
         dyn_affine(x, 7, w, NULL, 7, total, y, 7, colsum));
  char small[11];
  status = dyn_affine_shape(7, 6, &rows, small, sizeof small);
  printf("short error buffer -> %d: \"%s\"\n", status, small);
  return 0;
}
