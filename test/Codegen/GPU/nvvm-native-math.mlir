// RUN: env -u CUDA_ROOT -u CUDA_HOME -u CUDA_PATH tracec-opt %s --trace-nvvm-native-math -split-input-file -verify-diagnostics | FileCheck %s

// libdevice functions NVPTX has as instructions get internal bodies that
// call the LLVM intrinsic.
// CHECK-LABEL: gpu.module @k
// CHECK: llvm.func internal @__nv_floorf(%[[X:.*]]: f32) -> f32 {
// CHECK-NEXT: %[[R:.*]] = llvm.intr.floor(%[[X]]) : (f32) -> f32
// CHECK-NEXT: llvm.return %[[R]] : f32
// CHECK: llvm.func internal @__nv_fma(%[[A:.*]]: f64, %[[B:.*]]: f64, %[[C:.*]]: f64) -> f64 {
// CHECK-NEXT: llvm.intr.fma(%[[A]], %[[B]], %[[C]]) : (f64, f64, f64) -> f64
// CHECK: llvm.func @other(f32) -> f32
gpu.module @k {
  llvm.func @__nv_floorf(f32) -> f32
  llvm.func @__nv_fma(f64, f64, f64) -> f64
  llvm.func @other(f32) -> f32
}

// -----

// Any other libdevice function, with no CUDA toolkit to link libdevice
// from, would leave the module unloadable: an error where it is called.
gpu.module @k {
  llvm.func @__nv_lgammaf(f32) -> f32
  llvm.func @use(%x: f32) -> f32 {
    // expected-error @below {{'__nv_lgammaf' is a function of CUDA's libdevice, and no CUDA toolkit is found (set CUDA_HOME)}}
    %0 = llvm.call @__nv_lgammaf(%x) : (f32) -> f32
    llvm.return %0 : f32
  }
}
