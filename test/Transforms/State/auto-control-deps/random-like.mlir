// RUN: tracec-opt %s --trace-auto-control-deps | FileCheck %s
// RUN: tracec-opt %s --trace-auto-control-deps -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// random_* `like` a value: the `after` tokens are appended after `like`
// (the last operand segment grows).
// CHECK-LABEL: func.func @two
// CHECK: %[[A:.*]], %[[T:.*]] = trace.random_uniform like %arg0 {seed = 1 : i64} : tensor<?x4xf32> -> tensor<?x4xf32>
// CHECK: %[[B:.*]], %[[T2:.*]] = trace.random_normal like %arg0 after(%[[T]]) {seed = 2 : i64} : tensor<?x4xf32> -> tensor<?x4xf32>
// CHECK: trace.identity %[[A]] after(%[[T2]])
// GENERIC: "trace.random_normal"(%arg0, %{{.*}}) <{{{.*}}operandSegmentSizes = array<i32: 1, 1>
func.func @two(%x: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>) {
  %a, %t = trace.random_uniform like %x {seed = 1} : tensor<?x4xf32> -> tensor<?x4xf32>
  %b, %t2 = trace.random_normal like %x {seed = 2} : tensor<?x4xf32> -> tensor<?x4xf32>
  return %a, %b : tensor<?x4xf32>, tensor<?x4xf32>
}
