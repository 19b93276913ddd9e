// Trains the MLP of mlp.mlir with its ahead-of-time compiled @step; the
// weights are variables the generated class owns. Then classifies the
// batch with @predict.
//
//   cmake -S examples/aot -B build-aot -Dtracec_DIR=<prefix>/lib/cmake/tracec
//   cmake --build build-aot && build-aot/train_mlp [steps]

#include "mlp_model.h"

#include "data.h"

#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  int steps = argc > 1 ? std::atoi(argv[1]) : 20;
  example::Mlp model;

  // Initialise the variables in place (biases stay zero).
  for (int i = 0; i < MLP_STEP_ARG_W1_SIZE; ++i)
    model.var_w1_data()[i] = example_w1(i);
  for (int i = 0; i < MLP_STEP_ARG_W2_SIZE; ++i)
    model.var_w2_data()[i] = example_w2(i);

  // The batch goes into the class's own argument buffers.
  for (int i = 0; i < MLP_STEP_ARG_X_SIZE; ++i)
    model.step.arg_x_data()[i] = example_x(i);
  for (int i = 0; i < MLP_STEP_ARG_LABELS_SIZE; ++i)
    model.step.arg_labels_data()[i] = example_label(i);

  for (int step = 1; step <= steps; ++step) {
    if (model.step.Run() != 0) {
      std::fprintf(stderr, "train_mlp: @step failed (out of memory?)\n");
      return 1;
    }
    std::printf("loss %d %.9g\n", step, *model.step.result_loss_data());
  }

  // @predict reads the same batch straight from the step's buffer.
  model.predict.set_arg_x_data(model.step.arg_x_data());
  if (model.predict.Run() != 0)
    return 1;
  std::printf("probs");
  for (int i = 0; i < MLP_PREDICT_RESULT_PROBS_SIZE; ++i)
    std::printf(" %.9g", model.predict.result_probs_data()[i]);
  std::printf("\nclasses");
  for (int i = 0; i < MLP_PREDICT_RESULT_CLASSES_SIZE; ++i)
    std::printf(" %lld", (long long)model.predict.result_classes_data()[i]);
  std::printf("\n");
  return 0;
}
