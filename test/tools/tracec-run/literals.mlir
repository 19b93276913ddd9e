// Literal inputs are converted to the argument's dtype; results print like
// NumPy (x @ w + b and its sum: [[4.5, 4], [10.5, 10]] and 29).
// RUN: tracec-run %s --entry dense --input x="[[1,2,3],[4,5,6]]" --input w="[[1,0],[0,1],[1,1]]" --input b="[0.5, -1]" | FileCheck %s
// RUN: tracec-run %s --entry count --input flags="[true, false, 1, true]" --input n=3 | FileCheck %s --check-prefix=INT

// CHECK:      result 0: tensor<2x2xf32>
// CHECK-NEXT: {{^\[\[}} 4.5  4. ]
// CHECK-NEXT: {{^}} [10.5 10. ]]
// CHECK-NEXT: result 1: tensor<f32>
// CHECK-NEXT: {{^}}29.0
func.func @dense(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>, %b: tensor<2xf32>) -> (tensor<2x2xf32>, tensor<f32>) {
  %0 = trace.matmul %x, %w : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %1 = trace.add %0, %b : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  %2 = trace.reduce_sum %1 {axes = array<i64: 0, 1>} : tensor<2x2xf32> -> tensor<f32>
  return %1, %2 : tensor<2x2xf32>, tensor<f32>
}

// INT:      result 0: tensor<4xi64>
// INT-NEXT: {{^}}[3 0 3 3]
// INT-NEXT: result 1: tensor<4xi1>
// INT-NEXT: {{^}}[False  True False False]
func.func @count(%flags: tensor<4xi1>, %n: tensor<i64>) -> (tensor<4xi64>, tensor<4xi1>) {
  %0 = trace.cast %flags : tensor<4xi1> to tensor<4xi64>
  %1 = trace.mul %0, %n : (tensor<4xi64>, tensor<i64>) -> tensor<4xi64>
  %2 = trace.lt %1, %n : (tensor<4xi64>, tensor<i64>) -> tensor<4xi1>
  return %1, %2 : tensor<4xi64>, tensor<4xi1>
}
