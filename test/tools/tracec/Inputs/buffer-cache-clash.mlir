// A function named like the buffer cache that tracec compiles into an
// object with buffers of run-time size (dynamic-buffer-cache.mlir).
func.func @tracec_aot_alloc(%x: tensor<?x64xf32>, %w: tensor<64x64xf32>) -> tensor<?x64xf32> {
  %h = trace.matmul %x, %w : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  %a = trace.tanh %h : tensor<?x64xf32>
  %y = trace.matmul %a, %w : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}
