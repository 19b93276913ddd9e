// The gradient of sum(a @ b^T) + sum(triu(diag(a[1]) * 2)^2), traced from
// Python (tracec.numpy's tensordot, diag as a scatter_add, triu as a
// select): one of its kernels is one on which LLVM's instcombine does not
// reach a fixpoint in one iteration. Spelled `instcombine` in a pass
// pipeline string, LLVM verifies that and aborted the process ("LLVM
// ERROR: Instruction Combining ... did not reach a fixpoint"); the kernel
// cleanup pipeline now asks for no verification, as the standard
// pipelines do. Expected: d/da = [1 1 1 0] per row plus 8 a[1] in row 1;
// d/db = the column sums of a in every row.
// RUN: tracec-run %s --entry g --input 'arg0=[[1,2,3,4],[5,6,7,8],[9,10,11,12]]' --input 'arg1=[[1,0,0,0],[0,1,0,0],[0,0,1,0]]' --input 'arg2=[0,5,10,15]' | FileCheck %s

// CHECK: result 0: tensor<3x4xf64>
// CHECK-NEXT: {{\[\[ *1\. +1\. +1\. +0\.\]}}
// CHECK-NEXT: {{\[ *41\. +49\. +57\. +64\.\]}}
// CHECK-NEXT: {{\[ *1\. +1\. +1\. +0\.\]\]}}
// CHECK: result 1: tensor<3x4xf64>
// CHECK-COUNT-3: {{15\. +18\. +21\. +24\.}}
module {
  func.func private @g_callee0(%arg0: tensor<3x4xf64>, %arg1: tensor<3x4xf64>, %arg2: tensor<4xi32>) -> tensor<f64> {
    %0 = trace.transpose %arg1 {perm = array<i64: 1, 0>} : tensor<3x4xf64> -> tensor<4x3xf64>
    %1 = trace.reshape %arg0 : tensor<3x4xf64> -> tensor<1x3x4xf64>
    %2 = trace.reshape %0 : tensor<4x3xf64> -> tensor<1x4x3xf64>
    %3 = trace.matmul %1, %2 : (tensor<1x3x4xf64>, tensor<1x4x3xf64>) -> tensor<1x3x3xf64>
    %4 = trace.reshape %3 : tensor<1x3x3xf64> -> tensor<3x3xf64>
    %5 = trace.reduce_sum %4 {axes = array<i64: 0, 1>} : tensor<3x3xf64> -> tensor<f64>
    %6 = trace.slice %arg0 {limit = array<i64: 2, 4>, start = array<i64: 1, 0>, strides = array<i64: 1, 1>} : tensor<3x4xf64> -> tensor<1x4xf64>
    %7 = trace.reshape %6 : tensor<1x4xf64> -> tensor<4xf64>
    %8 = trace.constant dense<0.000000e+00> : tensor<16xf64>
    %9 = trace.constant dense<16> : tensor<i32>
    %10 = trace.constant dense<0> : tensor<i32>
    %11 = trace.lt %arg2, %10 : (tensor<4xi32>, tensor<i32>) -> tensor<4xi1>
    %12 = trace.add %arg2, %9 : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
    %13 = trace.select %11, %12, %arg2 : (tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    %14 = trace.scatter_add %8, %13, %7 : (tensor<16xf64>, tensor<4xi32>, tensor<4xf64>) -> tensor<16xf64>
    %15 = trace.reshape %14 : tensor<16xf64> -> tensor<4x4xf64>
    %16 = trace.constant dense<2.000000e+00> : tensor<f64>
    %17 = trace.mul %15, %16 : (tensor<4x4xf64>, tensor<f64>) -> tensor<4x4xf64>
    %18 = trace.iota : tensor<4xi32>
    %19 = trace.reshape %18 : tensor<4xi32> -> tensor<4x1xi32>
    %20 = trace.constant dense<-1> : tensor<i32>
    %21 = trace.add %19, %20 : (tensor<4x1xi32>, tensor<i32>) -> tensor<4x1xi32>
    %22 = trace.iota : tensor<4xi32>
    %23 = trace.reshape %22 : tensor<4xi32> -> tensor<1x4xi32>
    %24 = trace.ge %21, %23 : (tensor<4x1xi32>, tensor<1x4xi32>) -> tensor<4x4xi1>
    %25 = trace.constant dense<0.000000e+00> : tensor<4x4xf64>
    %26 = trace.select %24, %25, %17 : (tensor<4x4xi1>, tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
    %27 = trace.constant dense<2.000000e+00> : tensor<f64>
    %28 = trace.pow %26, %27 : (tensor<4x4xf64>, tensor<f64>) -> tensor<4x4xf64>
    %29 = trace.reduce_sum %28 {axes = array<i64: 0, 1>} : tensor<4x4xf64> -> tensor<f64>
    %30 = trace.add %5, %29 : (tensor<f64>, tensor<f64>) -> tensor<f64>
    return %30 : tensor<f64>
  }
  func.func @g(%arg0: tensor<3x4xf64>, %arg1: tensor<3x4xf64>, %arg2: tensor<4xi32>) -> (tensor<3x4xf64>, tensor<3x4xf64>) {
    %0:2 = trace.grad @g_callee0(%arg0, %arg1, %arg2) {wrt = array<i64: 0, 1>} : (tensor<3x4xf64>, tensor<3x4xf64>, tensor<4xi32>) -> (tensor<3x4xf64>, tensor<3x4xf64>)
    return %0#0, %0#1 : tensor<3x4xf64>, tensor<3x4xf64>
  }
}

