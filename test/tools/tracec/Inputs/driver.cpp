// Uses the C++ class of c-api.mlir: owned buffers, named and indexed
// accessors, a variable the class owns.
#include "model.h"

#include <cstdio>
#include <cstdint>

int main() {
  ns::inner::Affine model;
  std::printf("aligned %d, variables %d (%s, %zu bytes), args %d (%zu, %zu bytes)\n",
              int(reinterpret_cast<uintptr_t>(model.variable_data(0)) % 64 == 0),
              model.kNumVariables, model.VariableName(0), model.VariableSize(0),
              model.affine.kNumArgs, model.affine.ArgSize(0), model.affine.ArgSize(1));
  float *x = model.affine.arg_x_data();
  for (int i = 0; i < 6; ++i)
    x[i] = float(i + 1);
  const float w[] = {1, 0.5f, -1, 2, 0, 1};
  model.affine.set_arg_w_data(w);
  int status = model.affine.Run();
  const float *y = static_cast<const float *>(model.affine.result_data(0));
  std::printf("affine -> %d: %g %g %g %g\n", status, y[0], y[1], y[2], y[3]);

  model.var_total_data()[0] = 10;
  model.var_total_data()[1] = 20;
  float *add = static_cast<float *>(model.accumulate.arg_data(0));
  add[0] = 1;
  add[1] = 2;
  for (int call = 0; call < 3; ++call)
    model.accumulate.Run();
  std::printf("accumulate: total %g %g, before %g %g\n", model.var_total_data()[0],
              model.var_total_data()[1], model.accumulate.result_before_data()[0],
              model.accumulate.result_before_data()[1]);
  model.affine.set_arg_data(1, nullptr);
  std::printf("null -> %d, bad index -> %p\n", model.affine.Run(),
              model.affine.arg_data(7));
  return 0;
}
