// gather with its operands as arguments: test/Execution/gather.mlir passes
// constants, which the pipeline folds (trace.gather has a constant folder).
func.func @gather(%p: tensor<3x4xf32>, %i: tensor<4xi32>) -> tensor<4x4xf32> {
  %0 = trace.gather %p, %i {axis = 0} : (tensor<3x4xf32>, tensor<4xi32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
