// Argument names: a `trace.name` attribute (what Python's tracing and
// GraphDef import set) wins over the source's SSA name, which names the
// others; a repeated name falls back to arg<i>.
//
// RUN: tracec %s --entry predict -o %t.o --header %t.h
// RUN: FileCheck %s < %t.h

// CHECK: int arg_names_predict(const float *params_w, const float *x, const float *scale, const float *arg3, float *result0);

func.func @predict(%arg0: tensor<3x2xf32> {trace.name = "params_w"}, %x: tensor<4x3xf32>, %arg2: tensor<f32> {trace.name = "scale"}, %scale: tensor<f32>) -> tensor<4x2xf32> {
  %0 = trace.matmul %x, %arg0 : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  %1 = trace.mul %0, %arg2 : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x2xf32>
  %2 = trace.mul %1, %scale : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x2xf32>
  return %2 : tensor<4x2xf32>
}
