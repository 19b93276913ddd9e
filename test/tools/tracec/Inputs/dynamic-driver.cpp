// Runs dynamic.mlir's @affine through the generated C++ class at several
// batch sizes, with the class's buffers and with the caller's, and checks
// the results against values computed here.
#include "model.h"

#include <cstdio>
#include <vector>

static const float w[6] = {1, 0.5f, -1, 2, 0, 1};

static float x_at(int64_t i, int k) { return float((i * 3 + k) % 7 - 3); }
static float scale_at(int64_t i) { return float(i % 3 + 1); }

static bool check(Dyn::Affine &affine, int64_t n) {
  const int64_t *dims = affine.result_y_dims();
  if (dims[0] != n || dims[1] != 2)
    return false;
  for (int64_t i = 0; i < n; ++i)
    for (int j = 0; j < 2; ++j) {
      float sum = 0;
      for (int k = 0; k < 3; ++k)
        sum += x_at(i, k) * w[k * 2 + j];
      if (affine.result_y_data()[i * 2 + j] != sum * scale_at(i))
        return false;
    }
  return true;
}

int main() {
  Dyn model;
  Dyn::Affine &affine = model.affine;
  for (int k = 0; k < 6; ++k)
    affine.arg_w_data()[k] = w[k];
  for (int64_t n : {1, 7, 64, 256}) {
    float *x = affine.set_arg_x_dims(n);
    float *scale = affine.set_arg_scale_dims(n);
    for (int64_t i = 0; i < n; ++i) {
      for (int k = 0; k < 3; ++k)
        x[i * 3 + k] = x_at(i, k);
      scale[i] = scale_at(i);
    }
    int status = affine.Run();
    std::printf("batch %lld: %s\n", (long long)n,
                status == 0 && check(affine, n) ? "ok" : "WRONG");
  }

  std::vector<float> x(9), scale(3);
  for (int64_t i = 0; i < 3; ++i) {
    for (int k = 0; k < 3; ++k)
      x[i * 3 + k] = x_at(i, k);
    scale[i] = scale_at(i);
  }
  affine.set_arg_x_data(x.data(), 3);
  affine.set_arg_scale_data(scale.data(), 3);
  std::printf("caller's buffers, batch 3: %s\n",
              affine.Run() == 0 && check(affine, 3) ? "ok" : "WRONG");

  affine.set_arg_x_dims(4);
  affine.set_arg_scale_dims(5);
  int status = affine.Run();
  std::printf("mismatch -> %d: %s\n", status, affine.error_message());
  affine.set_arg_scale_dims(-1);
  affine.set_arg_x_dims(-1);
  status = affine.Run();
  std::printf("negative -> %d: %s\n", status, affine.error_message());

  Dyn fresh;
  fresh.affine.set_arg_x_dims(1);
  fresh.affine.set_arg_scale_dims(1);
  fresh.affine.set_arg_w_data(nullptr);
  status = fresh.affine.Run();
  std::printf("unset argument -> %d: %s\n", status,
              fresh.affine.error_message());

  fresh.affine.set_arg_w_data(w);
  fresh.affine.Run();
  std::printf("ArgSize(0) %zu, ResultSize(0) %zu after batch 1\n",
              fresh.affine.ArgSize(0), fresh.affine.ResultSize(0));
  return 0;
}
