// f64 transcendental functions need CUDA's libdevice. Without a CUDA
// toolkit to link it from, each is a diagnostic at the op that uses it
// (f32 ones never need it).
// RUN: env -u CUDA_ROOT -u CUDA_HOME -u CUDA_PATH not tracec-opt %s --tracec-gpu-pipeline -o /dev/null 2>&1 | FileCheck %s
// CHECK: f64-libdevice.mlir:[[@LINE+3]]:8: error: '__nv_log' is a function of CUDA's libdevice, and no CUDA toolkit is found (set CUDA_HOME)
// CHECK-NOT: error
func.func @log(%x: tensor<8xf64>, %y: tensor<8xf32>) -> (tensor<8xf64>, tensor<8xf32>) {
  %0 = trace.log %x : tensor<8xf64>
  %1 = trace.log %y : tensor<8xf32>
  return %0, %1 : tensor<8xf64>, tensor<8xf32>
}
