// A chain of elementwise ops (with a broadcast operand) becomes one fused
// kernel: global loads of both inputs, x * b, exp as a polynomial (no
// libdevice), relu as max, one global store.
// RUN: tracec-opt %s --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --check-prefixes=CHECK,SM80
// RUN: tracec-opt %s --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --check-prefixes=CHECK,SM90

// CHECK: // gpu.binary @chain_kernel
// SM80: .version 7.0
// SM80: .target sm_80
// SM90: .version 7.8
// SM90: .target sm_90
// CHECK-NOT: .extern
// CHECK: .visible .entry chain_kernel(
// CHECK-DAG: mov.u32 {{.*}}%tid.x
// CHECK-DAG: mov.u32 {{.*}}%ctaid.x
// CHECK-DAG: ld.global.b32
// CHECK-DAG: ld.global.b32
// CHECK: mul.rn.f32
// CHECK: cvt.rmi.f32.f32
// CHECK: max.NaN.f32
// CHECK: st.global.b32
// CHECK-NOT: .entry
func.func @chain(%x: tensor<64x1024xf32>, %b: tensor<1024xf32>) -> tensor<64x1024xf32> {
  %0 = trace.mul %x, %b : (tensor<64x1024xf32>, tensor<1024xf32>) -> tensor<64x1024xf32>
  %1 = trace.exp %0 : tensor<64x1024xf32>
  %2 = trace.relu %1 : tensor<64x1024xf32>
  return %2 : tensor<64x1024xf32>
}
