/* Runs the MLP compiled ahead of time from a GraphDef: reads the features
 * (raw float32) from argv[1], writes the probabilities to argv[2]. */
#include "mlp.h"

#include <stdio.h>

int main(int argc, char **argv) {
  float x[MLP_MAIN_ARG_FEATURES_SIZE];
  float probs[MLP_MAIN_RESULT_PROBS_SIZE];
  FILE *in = fopen(argv[1], "rb");
  if (argc != 3 || !in ||
      fread(x, sizeof(float), MLP_MAIN_ARG_FEATURES_SIZE, in) !=
          MLP_MAIN_ARG_FEATURES_SIZE)
    return 2;
  fclose(in);
  int status = mlp_main(x, probs);
  FILE *out = fopen(argv[2], "wb");
  if (!out)
    return 2;
  fwrite(probs, sizeof(float), MLP_MAIN_RESULT_PROBS_SIZE, out);
  fclose(out);
  printf("mlp_main -> %d\n", status);
  return status;
}
