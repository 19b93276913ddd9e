/* Calls a `?`-batch entry compiled with --cuda-chip at two batch sizes:
   the shape function sizes the result, the entry launches its kernels
   through the driver TRACEC_CUDA_DRIVER names; then a call whose
   arguments' batches disagree fails in the shape function and the entry
   (status 2) before any CUDA call. */
#include "model.h"
#include "tracec/ABI/tracec_cuda.h"

#include <stdio.h>
#include <stdlib.h>

static int run(int64_t x_rows, int64_t y_rows) {
  char error[256];
  int64_t rows = -1;
  int status = model_add_shape(x_rows, y_rows, &rows, error, sizeof error);
  if (status != 0) {
    printf("shape status %d: %s\n", status, error);
    static float one[256];
    printf("call status %d\n", model_add(one, x_rows, one, y_rows, one, 1));
    return status;
  }
  float *x = calloc((size_t)MODEL_ADD_ARG_X_SIZE(x_rows), sizeof(float));
  float *y = calloc((size_t)MODEL_ADD_ARG_Y_SIZE(y_rows), sizeof(float));
  float *z = calloc((size_t)MODEL_ADD_RESULT_RESULT0_SIZE(rows), sizeof(float));
  status = model_add(x, x_rows, y, y_rows, z, rows);
  const char *cuda = tracec_cuda_take_error();
  printf("batch %lld: result rows %lld, status %d, CUDA error: %s\n",
         (long long)x_rows, (long long)rows, status, cuda ? cuda : "none");
  free(x);
  free(y);
  free(z);
  return status;
}

int main(void) {
  int failed = run(7, 7) != 0;
  failed |= run(300, 300) != 0;
  failed |= run(7, 5) != 2;
  return failed;
}
