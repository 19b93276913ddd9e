// A result whose size the shape function computes from the arguments, too
// large for memory: an error naming the result and its type, exit 1 (the
// size wrapped to 0 bytes, and the compiled code wrote far past a 64-byte
// buffer). The inputs take no bytes: (2^31, 0) and (0, 2^31).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/a.npy', np.zeros((2**31, 0), np.float32)); np.save('%t/b.npy', np.zeros((0, 2**31), np.float32))"
// RUN: not tracec-run %s --entry outer --input a=@%t/a.npy --input b=@%t/b.npy 2>&1 | FileCheck %s
// CHECK: tracec-run: error: @outer: result 0: tensor<2147483648x2147483648xf32> is larger than a tensor can be (at most 2^48 bytes)

func.func @outer(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = trace.matmul %a, %b : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
