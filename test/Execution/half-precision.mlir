// f16 and bf16 compute in their own precision (each op's result rounded).
// Expected values: NumPy in float16 for @half: e = np.exp(x); e * x and
// its sum. For @brain, NumPy has no bfloat16: round-to-nearest-even of the
// float32 bits' upper half after each op, bf16(bf16(tanh(y)) + y), printed
// through an exact cast to f32.
// RUN: tracec-run %s --entry half --input x="[0.5, 1, -1, 2]" | FileCheck %s --check-prefix=HALF
// RUN: tracec-run %s --entry brain --input y="[0.5, 1, -1, 2]" | FileCheck %s --check-prefix=BRAIN

// HALF:      result 0: tensor<4xf16>
// HALF-NEXT: [ 0.824  2.719 -0.368 14.78 ]
// HALF-NEXT: result 1: tensor<f16>
// HALF-NEXT: 17.95
func.func @half(%x: tensor<4xf16>) -> (tensor<4xf16>, tensor<f16>) {
  %e = trace.exp %x : tensor<4xf16>
  %p = trace.mul %e, %x : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  %s = trace.reduce_sum %p {axes = array<i64: 0>} : tensor<4xf16> -> tensor<f16>
  return %p, %s : tensor<4xf16>, tensor<f16>
}

// BRAIN:      result 0: tensor<4xf32>
// BRAIN-NEXT: [ 0.9609375  1.765625  -1.765625   2.96875  ]
func.func @brain(%y: tensor<4xbf16>) -> tensor<4xf32> {
  %t = trace.tanh %y : tensor<4xbf16>
  %s = trace.add %t, %y : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
  %f = trace.cast %s : tensor<4xbf16> to tensor<4xf32>
  return %f : tensor<4xf32>
}
