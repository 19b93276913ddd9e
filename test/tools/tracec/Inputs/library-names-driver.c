/* Calls AOT entries named like libm's exp and libc's free
   (c-library-names.mlir): the entries' own exp and dealloc calls must
   reach the C library. */
#include "model.h"

#include <stdio.h>

int main(void) {
  double x[3] = {0, 1, -1};
  double e[3], f[3];
  if (model_exp(x, e) || model_free(x, f))
    return 1;
  printf("exp: %.6f %.6f %.6f\n", e[0], e[1], e[2]);
  printf("free: %.6f %.6f %.6f\n", f[0], f[1], f[2]);
  return 0;
}
