/* One ahead-of-time compiled object, every batch size: mlp_dynamic.mlir's
 * @evaluate has a `?` batch. For each batch the caller asks the shape
 * function for the results' dims, allocates the outputs and calls the
 * entry with the dims of every buffer; the results are checked against a
 * forward pass computed here in double precision.
 *
 *   build-aot/evaluate_dynamic            batches 1, 7, 64 and 256
 *   build-aot/evaluate_dynamic 7 6        one call: x of 7 rows, labels
 *                                         of 6 (exits 1 with the message)
 */
#include "mlp_dynamic_model.h"

#include "data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static float w1[MLP_DYNAMIC_EVALUATE_ARG_W1_SIZE], b1[MLP_DYNAMIC_EVALUATE_ARG_B1_SIZE];
static float w2[MLP_DYNAMIC_EVALUATE_ARG_W2_SIZE], b2[MLP_DYNAMIC_EVALUATE_ARG_B2_SIZE];

/* The reference: probs and the mean cross-entropy of rows of x. */
static double reference(int64_t n, const float *x, const int32_t *labels,
                        double *probs) {
  double loss = 0;
  for (int64_t i = 0; i < n; ++i) {
    double hidden[16], logits[3], max = -INFINITY, sum = 0;
    for (int j = 0; j < 16; ++j) {
      hidden[j] = b1[j];
      for (int k = 0; k < 4; ++k)
        hidden[j] += (double)x[i * 4 + k] * w1[k * 16 + j];
      hidden[j] = hidden[j] > 0 ? hidden[j] : 0;
    }
    for (int c = 0; c < 3; ++c) {
      logits[c] = b2[c];
      for (int j = 0; j < 16; ++j)
        logits[c] += hidden[j] * w2[j * 3 + c];
      max = logits[c] > max ? logits[c] : max;
    }
    for (int c = 0; c < 3; ++c)
      sum += exp(logits[c] - max);
    for (int c = 0; c < 3; ++c)
      probs[i * 3 + c] = exp(logits[c] - max) / sum;
    loss -= logits[labels[i]] - max - log(sum);
  }
  return loss / (double)n;
}

/* Runs @evaluate on x of `rows` rows and labels of `labelRows`; returns
 * the status, with the message in `error`. */
static int evaluate(int64_t rows, int64_t labelRows, char *error,
                    size_t errorSize) {
  int64_t batch;
  int status = mlp_dynamic_evaluate_shape(rows, labelRows, &batch, error,
                                          errorSize);
  if (status != TRACEC_AOT_OK)
    return status;
  float *x = malloc(MLP_DYNAMIC_EVALUATE_ARG_X_BYTES(rows));
  int32_t *labels = malloc(MLP_DYNAMIC_EVALUATE_ARG_LABELS_BYTES(labelRows));
  float *probs = malloc(MLP_DYNAMIC_EVALUATE_RESULT_PROBS_BYTES(batch));
  double *expected = malloc(sizeof(double) * 3 * batch);
  float loss;
  for (int64_t i = 0; i < rows * 4; ++i)
    x[i] = example_x((int)i);
  for (int64_t i = 0; i < labelRows; ++i)
    labels[i] = example_label((int)i);
  status = mlp_dynamic_evaluate(x, rows, labels, labelRows, w1, b1, w2, b2,
                                probs, batch, &loss);
  if (status == TRACEC_AOT_OK) {
    double expectedLoss = reference(batch, x, labels, expected);
    double worst = fabs(loss - expectedLoss) / fabs(expectedLoss);
    for (int64_t i = 0; i < batch * 3; ++i) {
      double error = fabs(probs[i] - expected[i]);
      worst = error > worst ? error : worst;
    }
    printf("batch %lld: loss %.9g, %s (max error %.2g)\n", (long long)batch,
           loss, worst < 1e-5 ? "ok" : "WRONG", worst);
    if (!(worst < 1e-5))
      status = -1;
  }
  free(x);
  free(labels);
  free(probs);
  free(expected);
  return status;
}

int main(int argc, char **argv) {
  for (int i = 0; i < MLP_DYNAMIC_EVALUATE_ARG_W1_SIZE; ++i)
    w1[i] = example_w1(i);
  for (int i = 0; i < MLP_DYNAMIC_EVALUATE_ARG_W2_SIZE; ++i)
    w2[i] = example_w2(i);
  for (int i = 0; i < MLP_DYNAMIC_EVALUATE_ARG_B1_SIZE; ++i)
    b1[i] = (float)(i % 5 - 2) / 8.0f;
  for (int i = 0; i < MLP_DYNAMIC_EVALUATE_ARG_B2_SIZE; ++i)
    b2[i] = (float)(i - 1) / 4.0f;

  char error[512];
  if (argc == 3) {
    int status = evaluate(atoll(argv[1]), atoll(argv[2]), error, sizeof error);
    if (status > 0)
      fprintf(stderr, "evaluate_dynamic: error %d: %s\n", status, error);
    return status == 0 ? 0 : 1;
  }
  const int64_t batches[] = {1, 7, 64, 256};
  for (int b = 0; b < 4; ++b) {
    int status = evaluate(batches[b], batches[b], error, sizeof error);
    if (status != 0) {
      if (status > 0)
        fprintf(stderr, "evaluate_dynamic: error %d: %s\n", status, error);
      return 1;
    }
  }
  return 0;
}
