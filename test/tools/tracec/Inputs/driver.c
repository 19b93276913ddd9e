/* Calls the C API of c-api.mlir's entries and prints what they return. */
#include "model.h"

#include <stdio.h>

int main(void) {
  const float x[AFFINE_AFFINE_ARG_X_SIZE] = {1, 2, 3, 4, 5, 6};
  const float w[AFFINE_AFFINE_ARG_W_SIZE] = {1, 0.5f, -1, 2, 0, 1};
  float y[AFFINE_AFFINE_RESULT_Y_SIZE];
  int64_t shape[] = AFFINE_AFFINE_RESULT_Y_SHAPE;
  printf("affine -> %d, y%lldx%lld:", affine_affine(x, w, y), (long long)shape[0],
         (long long)shape[1]);
  for (int i = 0; i < AFFINE_AFFINE_RESULT_Y_SIZE; ++i)
    printf(" %g", y[i]);

  float total[AFFINE_ACCUMULATE_ARG_TOTAL_SIZE] = {10, 20};
  const float add[2] = {1, 2};
  float before[2];
  for (int call = 0; call < 3; ++call)
    affine_accumulate(total, add, before);
  printf("\naccumulate: total %g %g, before %g %g\n", total[0], total[1],
         before[0], before[1]);
  printf("null -> %d\n", affine_affine(x, NULL, y));
  return 0;
}
