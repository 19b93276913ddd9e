// RUN: tracec-opt %s --trace-to-linalg --trace-cpu-pack-contractions=cpu=skylake-avx512 --canonicalize | FileCheck %s

// A weight gradient summed over a loop (the adjoint of an RNN): the
// product accumulates into the carried sum (the packed contraction's
// accumulator is the sum, unpacked back into it, in place) instead of
// filling zeros and adding afterwards, which made the loop copy the whole
// sum every iteration.
// CHECK-LABEL: func.func @weight_gradient
// CHECK:         scf.for {{.*}} iter_args(%[[SUM:.*]] = %{{.*}}) -> (tensor<256x1024xf32>)
// CHECK:           linalg.pack %[[SUM]]
// CHECK:           linalg.contract
// CHECK:           %[[NEW:.*]] = linalg.unpack %{{.*}} into %[[SUM]]
// CHECK-NOT:       linalg.generic
// CHECK:           scf.yield %[[NEW]]
func.func @weight_gradient(%x: tensor<8x32x256xf32>, %dz: tensor<8x32x1024xf32>) -> tensor<256x1024xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = trace.constant dense<0.0> : tensor<256x1024xf32>
  %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (tensor<256x1024xf32>) {
    %xi = tensor.extract_slice %x[%i, 0, 0] [1, 32, 256] [1, 1, 1] : tensor<8x32x256xf32> to tensor<32x256xf32>
    %di = tensor.extract_slice %dz[%i, 0, 0] [1, 32, 1024] [1, 1, 1] : tensor<8x32x1024xf32> to tensor<32x1024xf32>
    %g = trace.matmul %xi, %di {transpose_a} : (tensor<32x256xf32>, tensor<32x1024xf32>) -> tensor<256x1024xf32>
    %next = trace.add %acc, %g : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
    scf.yield %next : tensor<256x1024xf32>
  }
  return %sum : tensor<256x1024xf32>
}

// Outside a loop the addition stays: the product fills zeros.
// CHECK-LABEL: func.func @plain_sum
// CHECK:         linalg.unpack
// CHECK:         linalg.generic
// CHECK:           arith.addf
func.func @plain_sum(%a: tensor<256x1024xf32>, %x: tensor<32x256xf32>, %d: tensor<32x1024xf32>) -> tensor<256x1024xf32> {
  %g = trace.matmul %x, %d {transpose_a} : (tensor<32x256xf32>, tensor<32x1024xf32>) -> tensor<256x1024xf32>
  %s = trace.add %a, %g : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  return %s : tensor<256x1024xf32>
}
