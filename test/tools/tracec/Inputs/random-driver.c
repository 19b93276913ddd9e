/* Calls the AOT-compiled @draw twice: each call is a new run of the
   generator, as in the JIT. */
#include "random.h"

#include <stdio.h>

int main(void) {
  for (int call = 0; call < 2; ++call) {
    float u[4];
    if (random_draw(u) != 0)
      return 1;
    printf("call %d: %.8g %.8g %.8g %.8g\n", call, u[0], u[1], u[2], u[3]);
  }
  return 0;
}
