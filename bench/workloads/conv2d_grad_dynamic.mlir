// The backprop ops of bench/workloads/conv2d_grad.mlir with `?` batch,
// height and width (one compile for every image size), to time against
// the static ones at 1x56x56x64:
//   tracec-run bench/workloads/conv2d_grad.mlir --entry backprop_input ...
//   tracec-run bench/workloads/conv2d_grad_dynamic.mlir --entry backprop_input ...
func.func @backprop_input(%w: tensor<3x3x64x64xf32>, %dy: tensor<?x?x?x64xf32>, %x: tensor<?x?x?x64xf32>) -> tensor<?x?x?x64xf32> {
  %0 = trace.conv2d_backprop_input %w, %dy like %x {padding = array<i64: 1, 1, 1, 1>} : (tensor<3x3x64x64xf32>, tensor<?x?x?x64xf32>, tensor<?x?x?x64xf32>) -> tensor<?x?x?x64xf32>
  return %0 : tensor<?x?x?x64xf32>
}
func.func @backprop_filter(%x: tensor<?x?x?x64xf32>, %dy: tensor<?x?x?x64xf32>) -> tensor<3x3x64x64xf32> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 64, 64>, padding = array<i64: 1, 1, 1, 1>} : (tensor<?x?x?x64xf32>, tensor<?x?x?x64xf32>) -> tensor<3x3x64x64xf32>
  return %0 : tensor<3x3x64x64xf32>
}
func.func @backprop_input_s2(%w: tensor<3x3x64x64xf32>, %dy: tensor<?x?x?x64xf32>, %x: tensor<?x?x?x64xf32>) -> tensor<?x?x?x64xf32> {
  %0 = trace.conv2d_backprop_input %w, %dy like %x {strides = array<i64: 2, 2>, padding = array<i64: 0, 1, 0, 1>} : (tensor<3x3x64x64xf32>, tensor<?x?x?x64xf32>, tensor<?x?x?x64xf32>) -> tensor<?x?x?x64xf32>
  return %0 : tensor<?x?x?x64xf32>
}
func.func @backprop_filter_s2(%x: tensor<?x?x?x64xf32>, %dy: tensor<?x?x?x64xf32>) -> tensor<3x3x64x64xf32> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 64, 64>, strides = array<i64: 2, 2>, padding = array<i64: 0, 1, 0, 1>} : (tensor<?x?x?x64xf32>, tensor<?x?x?x64xf32>) -> tensor<3x3x64x64xf32>
  return %0 : tensor<3x3x64x64xf32>
}
