/* Calls an entry compiled with --cuda-chip: it links against the runtime
   shim, loads its kernels through whichever driver TRACEC_CUDA_DRIVER
   names, and reports the CUDA error, if any (without a driver nothing runs
   on the device and the program stays memory-safe). */
#include "model.h"
#include "tracec/ABI/tracec_cuda.h"

#include <stdio.h>

int main(void) {
  static float x[1024], y[1024];
  for (int i = 0; i < 1024; ++i)
    x[i] = (float)i / 1024;
  int status = cuda_scale(x, y);
  const char *error = tracec_cuda_take_error();
  printf("status %d, CUDA error: %s\n", status, error ? error : "none");
  return status;
}
