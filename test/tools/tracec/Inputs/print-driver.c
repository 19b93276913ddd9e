/* Calls an AOT-compiled entry that prints (print.mlir): the program links
   the object and TracecABI, nothing of LLVM. */
#include "model.h"

#include <stdio.h>

int main(void) {
  float x[4] = {1, 2.5f, -3, 4};
  int32_t k[3] = {7, -8, 9};
  float y[4];
  if (model_show(x, k, y))
    return 1;
  printf("y: %g %g %g %g\n", y[0], y[1], y[2], y[3]);
  return 0;
}
