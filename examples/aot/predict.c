/* Calls the ahead-of-time compiled MLP through its plain C API: the caller
 * owns every buffer, including the variables, which @step updates in place.
 *
 *   build-aot/predict_c
 */
#include "mlp_model.h"

#include "data.h"

#include <stdio.h>

static float x[MLP_PREDICT_ARG_X_SIZE];
static int32_t labels[MLP_STEP_ARG_LABELS_SIZE];
static float w1[MLP_PREDICT_ARG_W1_SIZE], b1[MLP_PREDICT_ARG_B1_SIZE];
static float w2[MLP_PREDICT_ARG_W2_SIZE], b2[MLP_PREDICT_ARG_B2_SIZE];
static float probs[MLP_PREDICT_RESULT_PROBS_SIZE];
static int64_t classes[MLP_PREDICT_RESULT_CLASSES_SIZE];

int main(void) {
  for (int i = 0; i < MLP_PREDICT_ARG_X_SIZE; ++i)
    x[i] = example_x(i);
  for (int i = 0; i < MLP_STEP_ARG_LABELS_SIZE; ++i)
    labels[i] = example_label(i);
  for (int i = 0; i < MLP_PREDICT_ARG_W1_SIZE; ++i)
    w1[i] = example_w1(i);
  for (int i = 0; i < MLP_PREDICT_ARG_W2_SIZE; ++i)
    w2[i] = example_w2(i);

  if (mlp_predict(x, w1, b1, w2, b2, probs, classes) != 0)
    return 1;
  printf("probs");
  for (int i = 0; i < MLP_PREDICT_RESULT_PROBS_SIZE; ++i)
    printf(" %.9g", probs[i]);
  printf("\nclasses");
  for (int i = 0; i < MLP_PREDICT_RESULT_CLASSES_SIZE; ++i)
    printf(" %lld", (long long)classes[i]);

  float loss;
  if (mlp_step(x, labels, w1, b1, w2, b2, &loss) != 0)
    return 1;
  printf("\nloss 1 %.9g\n", loss);

  /* A null buffer is an error code, not a crash. */
  printf("null buffer -> %d\n", mlp_step(x, labels, w1, b1, w2, b2, NULL));
  return 0;
}
