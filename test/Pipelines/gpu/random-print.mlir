// random_uniform and print on the GPU pipeline: the run counter stays a
// host global advanced atomically, Philox runs in a kernel (sm_80 and
// sm_90, nothing unresolved), print calls the host callback on the
// managed buffer.
// RUN: tracec-opt %s --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern
// RUN: tracec-opt %s --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern
// RUN: tracec-opt %s --tracec-gpu-pipeline | FileCheck %s --check-prefix=HOST

// The Philox rounds: 32-bit high multiplies.
// CHECK: .visible .entry noise_kernel(
// CHECK: mul.hi.u32
// CHECK: st.global.b32

// HOST: llvm.mlir.global private @__trace_random_counter(0 : i64)
// HOST-LABEL: llvm.func @noise(
// HOST: llvm.atomicrmw add
// HOST: llvm.call @tracec_print_tensor(
// HOST: gpu.launch_func
func.func @noise(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r, %c = trace.random_uniform {seed = 3} : tensor<4xf32>
  %c1 = trace.print %x after(%c) : tensor<4xf32>
  %y = trace.add %r, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %z = trace.identity %y after(%c1) : tensor<4xf32>
  return %z : tensor<4xf32>
}
