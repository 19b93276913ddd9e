// Entries compiled twice by tracec — for the host CPU and with
// --cuda-chip — and compared by check.cpp on a real GPU: every kernel
// family of the GPU pipeline (fused elementwise with broadcasting, block
// reductions, shared-memory tiled matmuls, convolution and pooling, shape
// ops, random numbers) and a training step whose forward and backward
// kernels update variables. Odd sizes exercise partial tiles and blocks.

func.func @chain(%x: tensor<1000x37xf32>, %y: tensor<37xf32>) -> tensor<1000x37xf32> {
  %t = trace.tanh %x : tensor<1000x37xf32>
  %ty = trace.mul %t, %y : (tensor<1000x37xf32>, tensor<37xf32>) -> tensor<1000x37xf32>
  %e = trace.exp %ty : tensor<1000x37xf32>
  %s = trace.sigmoid %x : tensor<1000x37xf32>
  %r = trace.relu %x : tensor<1000x37xf32>
  %a = trace.add %e, %s : (tensor<1000x37xf32>, tensor<1000x37xf32>) -> tensor<1000x37xf32>
  %b = trace.sub %a, %r : (tensor<1000x37xf32>, tensor<1000x37xf32>) -> tensor<1000x37xf32>
  %g = trace.gelu %b : tensor<1000x37xf32>
  %l = trace.log1p %g : tensor<1000x37xf32>
  return %l : tensor<1000x37xf32>
}

func.func @reductions(%x: tensor<300x129xf32>)
    -> (tensor<300xf32>, tensor<129xf32>, tensor<f32>, tensor<300x129xf32>, tensor<300x129xf32>, tensor<300xf32>) {
  %sum = trace.reduce_sum %x {axes = array<i64: 1>} : tensor<300x129xf32> -> tensor<300xf32>
  %max = trace.reduce_max %x {axes = array<i64: 0>} : tensor<300x129xf32> -> tensor<129xf32>
  %mean = trace.reduce_mean %x {axes = array<i64: 0, 1>} : tensor<300x129xf32> -> tensor<f32>
  %sm = trace.softmax %x : tensor<300x129xf32>
  %lsm = trace.log_softmax %x : tensor<300x129xf32>
  %am = trace.argmax %x {axis = 1} : tensor<300x129xf32> -> tensor<300xi64>
  %amf = trace.cast %am : tensor<300xi64> to tensor<300xf32>
  return %sum, %max, %mean, %sm, %lsm, %amf : tensor<300xf32>, tensor<129xf32>, tensor<f32>, tensor<300x129xf32>, tensor<300x129xf32>, tensor<300xf32>
}

// Ops along rows as one kernel a row (trace-gpu-row-blocks), with rows
// longer than a block's 256 threads: layer norm (tracec.nn.layer_norm's
// trace, keepdims statistics) and softmax.
func.func @norms(%x: tensor<64x1000xf32>, %g: tensor<1000xf32>, %b: tensor<1000xf32>)
    -> (tensor<64x1000xf32>, tensor<64x1000xf32>) {
  %0 = trace.reduce_mean %x {axes = array<i64: -1>, keepdims} : tensor<64x1000xf32> -> tensor<64x1xf32>
  %1 = trace.sub %x, %0 : (tensor<64x1000xf32>, tensor<64x1xf32>) -> tensor<64x1000xf32>
  %2 = trace.mul %1, %1 : (tensor<64x1000xf32>, tensor<64x1000xf32>) -> tensor<64x1000xf32>
  %3 = trace.reduce_mean %2 {axes = array<i64: -1>, keepdims} : tensor<64x1000xf32> -> tensor<64x1xf32>
  %eps = trace.constant dense<1.0e-5> : tensor<f32>
  %4 = trace.add %3, %eps : (tensor<64x1xf32>, tensor<f32>) -> tensor<64x1xf32>
  %5 = trace.rsqrt %4 : tensor<64x1xf32>
  %6 = trace.mul %1, %5 : (tensor<64x1000xf32>, tensor<64x1xf32>) -> tensor<64x1000xf32>
  %7 = trace.mul %6, %g : (tensor<64x1000xf32>, tensor<1000xf32>) -> tensor<64x1000xf32>
  %ln = trace.add %7, %b : (tensor<64x1000xf32>, tensor<1000xf32>) -> tensor<64x1000xf32>
  %sm = trace.softmax %x : tensor<64x1000xf32>
  return %ln, %sm : tensor<64x1000xf32>, tensor<64x1000xf32>
}

func.func @matmuls(%a: tensor<100x70xf32>, %b: tensor<70x45xf32>, %c: tensor<50x70xf32>,
                   %p: tensor<3x20x17xf32>, %q: tensor<3x17x29xf32>)
    -> (tensor<100x45xf32>, tensor<100x50xf32>, tensor<3x20x29xf32>) {
  %ab = trace.matmul %a, %b : (tensor<100x70xf32>, tensor<70x45xf32>) -> tensor<100x45xf32>
  %act = trace.matmul %a, %c {transpose_b} : (tensor<100x70xf32>, tensor<50x70xf32>) -> tensor<100x50xf32>
  %pq = trace.matmul %p, %q : (tensor<3x20x17xf32>, tensor<3x17x29xf32>) -> tensor<3x20x29xf32>
  return %ab, %act, %pq : tensor<100x45xf32>, tensor<100x50xf32>, tensor<3x20x29xf32>
}

func.func @convolution(%x: tensor<2x16x16x3xf32>, %w: tensor<3x3x3x8xf32>)
    -> (tensor<2x14x14x8xf32>, tensor<2x7x7x8xf32>, tensor<2x7x7x8xf32>) {
  %c = trace.conv2d %x, %w : (tensor<2x16x16x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x14x14x8xf32>
  %m = trace.max_pool2d %c {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<2x14x14x8xf32> -> tensor<2x7x7x8xf32>
  %v = trace.avg_pool2d %c {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<2x14x14x8xf32> -> tensor<2x7x7x8xf32>
  return %c, %m, %v : tensor<2x14x14x8xf32>, tensor<2x7x7x8xf32>, tensor<2x7x7x8xf32>
}

func.func @shapes(%x: tensor<20x30xf32>) -> (tensor<30x20xf32>, tensor<20x45xf32>, tensor<23x32xf32>, tensor<5x30xf32>) {
  %t = trace.transpose %x {perm = array<i64: 1, 0>} : tensor<20x30xf32> -> tensor<30x20xf32>
  %s = trace.slice %x {start = array<i64: 0, 0>, limit = array<i64: 20, 30>, strides = array<i64: 1, 2>} : tensor<20x30xf32> -> tensor<20x15xf32>
  %cat = trace.concat %x, %s {axis = 1} : (tensor<20x30xf32>, tensor<20x15xf32>) -> tensor<20x45xf32>
  %pad = trace.pad %x {low = array<i64: 1, 0>, high = array<i64: 2, 2>, value = -2.5} : tensor<20x30xf32> -> tensor<23x32xf32>
  %i = trace.constant dense<[19, 0, 7, 7, 3]> : tensor<5xi32>
  %g = trace.gather %x, %i {axis = 0} : (tensor<20x30xf32>, tensor<5xi32>) -> tensor<5x30xf32>
  return %t, %cat, %pad, %g : tensor<30x20xf32>, tensor<20x45xf32>, tensor<23x32xf32>, tensor<5x30xf32>
}

func.func @draws() -> (tensor<4096xf32>, tensor<4096xf32>) {
  %u, %c0 = trace.random_uniform {seed = 7, low = -1.0, high = 3.0} : tensor<4096xf32>
  %n, %c1 = trace.random_normal {seed = 8, mean = 1.0, stddev = 2.0} : tensor<4096xf32>
  return %u, %n : tensor<4096xf32>, tensor<4096xf32>
}
