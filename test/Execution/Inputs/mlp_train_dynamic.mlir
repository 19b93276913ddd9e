// The bench MLP training step (bench/workloads/mlp.mlir, @train_step) with
// a dynamic batch: trace-autodiff's output for the static module (inlined,
// canonicalized), batch dims made `?`, and the constant -1/256 of the mean's
// gradient computed from the batch at run time. (trace-autodiff on the `?`
// module itself does not yet give a lowerable gradient: its reduce_mean rule
// folds the count of a `?` dim and broadcasts a tensor<1xf32> to ?.)
func.func @train_step(%arg0: tensor<?x784xf32>, %arg1: tensor<?xi32>, %arg2: tensor<784x512xf32>, %arg3: tensor<512xf32>, %arg4: tensor<512x512xf32>, %arg5: tensor<512xf32>, %arg6: tensor<512x10xf32>, %arg7: tensor<10xf32>) -> (tensor<f32>, tensor<784x512xf32>, tensor<512xf32>, tensor<512x512xf32>, tensor<512xf32>, tensor<512x10xf32>, tensor<10xf32>) {
  %1 = trace.constant dense<0.000000e+00> : tensor<f32>
  %2 = trace.matmul %arg0, %arg2 : (tensor<?x784xf32>, tensor<784x512xf32>) -> tensor<?x512xf32>
  %3 = trace.add %2, %arg3 : (tensor<?x512xf32>, tensor<512xf32>) -> tensor<?x512xf32>
  %4 = trace.relu %3 : tensor<?x512xf32>
  %5 = trace.matmul %4, %arg4 : (tensor<?x512xf32>, tensor<512x512xf32>) -> tensor<?x512xf32>
  %6 = trace.add %5, %arg5 : (tensor<?x512xf32>, tensor<512xf32>) -> tensor<?x512xf32>
  %7 = trace.relu %6 : tensor<?x512xf32>
  %8 = trace.matmul %7, %arg6 : (tensor<?x512xf32>, tensor<512x10xf32>) -> tensor<?x10xf32>
  %9 = trace.add %8, %arg7 : (tensor<?x10xf32>, tensor<10xf32>) -> tensor<?x10xf32>
  %10 = trace.log_softmax %9 : tensor<?x10xf32>
  %11 = trace.one_hot %arg1 {depth = 10 : i64} : tensor<?xi32> -> tensor<?x10xf32>
  %12 = trace.mul %10, %11 : (tensor<?x10xf32>, tensor<?x10xf32>) -> tensor<?x10xf32>
  %13 = trace.reduce_sum %12 {axes = array<i64: 1>} : tensor<?x10xf32> -> tensor<?xf32>
  %14 = trace.neg %13 : tensor<?xf32>
  %15 = trace.reduce_mean %14 {axes = array<i64: 0>} : tensor<?xf32> -> tensor<f32>
  // d(mean)/d(nll) = 1/N with N the batch, at run time (the
  // static autodiff output folds it into a constant).
  %same = trace.eq %arg1, %arg1 : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi1>
  %ones = trace.cast %same : tensor<?xi1> to tensor<?xf32>
  %n = trace.reduce_sum %ones {axes = array<i64: 0>} : tensor<?xf32> -> tensor<f32>
  %minus1 = trace.constant dense<-1.000000e+00> : tensor<f32>
  %scale = trace.div %minus1, %n : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %16 = trace.mul %11, %scale : (tensor<?x10xf32>, tensor<f32>) -> tensor<?x10xf32>
  %17 = trace.reduce_sum %16 {axes = array<i64: -1>, keepdims} : tensor<?x10xf32> -> tensor<?x1xf32>
  %18 = trace.exp %10 : tensor<?x10xf32>
  %19 = trace.mul %18, %17 : (tensor<?x10xf32>, tensor<?x1xf32>) -> tensor<?x10xf32>
  %20 = trace.sub %16, %19 : (tensor<?x10xf32>, tensor<?x10xf32>) -> tensor<?x10xf32>
  %21 = trace.reduce_sum %20 {axes = array<i64: 0>, keepdims} : tensor<?x10xf32> -> tensor<1x10xf32>
  %22 = trace.reshape %21 : tensor<1x10xf32> -> tensor<10xf32>
  %23 = trace.matmul %20, %arg6 {transpose_b} : (tensor<?x10xf32>, tensor<512x10xf32>) -> tensor<?x512xf32>
  %24 = trace.matmul %7, %20 {transpose_a} : (tensor<?x512xf32>, tensor<?x10xf32>) -> tensor<512x10xf32>
  %25 = trace.gt %6, %1 : (tensor<?x512xf32>, tensor<f32>) -> tensor<?x512xi1>
  %26 = trace.select %25, %23, %1 : (tensor<?x512xi1>, tensor<?x512xf32>, tensor<f32>) -> tensor<?x512xf32>
  %27 = trace.reduce_sum %26 {axes = array<i64: 0>, keepdims} : tensor<?x512xf32> -> tensor<1x512xf32>
  %28 = trace.reshape %27 : tensor<1x512xf32> -> tensor<512xf32>
  %29 = trace.matmul %26, %arg4 {transpose_b} : (tensor<?x512xf32>, tensor<512x512xf32>) -> tensor<?x512xf32>
  %30 = trace.matmul %4, %26 {transpose_a} : (tensor<?x512xf32>, tensor<?x512xf32>) -> tensor<512x512xf32>
  %31 = trace.gt %3, %1 : (tensor<?x512xf32>, tensor<f32>) -> tensor<?x512xi1>
  %32 = trace.select %31, %29, %1 : (tensor<?x512xi1>, tensor<?x512xf32>, tensor<f32>) -> tensor<?x512xf32>
  %33 = trace.reduce_sum %32 {axes = array<i64: 0>, keepdims} : tensor<?x512xf32> -> tensor<1x512xf32>
  %34 = trace.reshape %33 : tensor<1x512xf32> -> tensor<512xf32>
  %35 = trace.matmul %arg0, %32 {transpose_a} : (tensor<?x784xf32>, tensor<?x512xf32>) -> tensor<784x512xf32>
  return %15, %35, %34, %30, %28, %24, %22 : tensor<f32>, tensor<784x512xf32>, tensor<512xf32>, tensor<512x512xf32>, tensor<512xf32>, tensor<512x10xf32>, tensor<10xf32>
}
