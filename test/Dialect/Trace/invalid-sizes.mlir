// RUN: tracec-opt %s -split-input-file -verify-diagnostics

// A tensor larger than memory can hold (2^48 bytes) is an error wherever
// an op reads or makes one: a static size whose byte count wraps would
// otherwise allocate a small buffer that compiled code writes past.

func.func @wraps() -> tensor<4611686018427387905xi32> {
  // expected-error @+1 {{'trace.constant' op result 0 is 'tensor<4611686018427387905xi32>', larger than a tensor can be (at most 2^48 bytes)}}
  %c = trace.constant dense<1> : tensor<4611686018427387905xi32>
  return %c : tensor<4611686018427387905xi32>
}

// -----

func.func @product_too_large(%a: tensor<2147483648x1xf32>, %b: tensor<1x2147483648xf32>) -> tensor<2147483648x2147483648xf32> {
  // expected-error @+1 {{'trace.matmul' op result 0 is 'tensor<2147483648x2147483648xf32>', larger than a tensor can be}}
  %r = trace.matmul %a, %b : (tensor<2147483648x1xf32>, tensor<1x2147483648xf32>) -> tensor<2147483648x2147483648xf32>
  return %r : tensor<2147483648x2147483648xf32>
}

// -----

// Only the static dims count; a 0 dim makes any tensor empty.
func.func @fits(%a: tensor<?x70368744177664xi32>, %b: tensor<0x4611686018427387904xf32>) -> (tensor<?x70368744177664xi32>, tensor<0x4611686018427387904xf32>) {
  %r = trace.neg %a : tensor<?x70368744177664xi32>
  %s = trace.neg %b : tensor<0x4611686018427387904xf32>
  return %r, %s : tensor<?x70368744177664xi32>, tensor<0x4611686018427387904xf32>
}
