// A print reads a copy of its tensor that is freed after the callback
// returns, never before (valgrind would report an invalid read) and never
// leaked; random ops allocate nothing beyond their result. In a loop, on
// 5 calls.
// Valgrind cannot run a sanitized build; ASan checks the same there.
// UNSUPPORTED: sanitizer
// RUN: valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite --error-exitcode=99 tracec-run %s --repeat=5 --entry f --input x="[1, 2, 3]" 2>&1 | FileCheck %s
// CHECK-NOT: Invalid
// CHECK-NOT: definitely lost
// CHECK-COUNT-10: step [
// CHECK-NEXT: result 0: tensor<3xf32>
// CHECK-NOT: Invalid
// CHECK-NOT: definitely lost
func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %x) -> (tensor<3xf32>) {
    %u, %cu = trace.random_uniform {seed = 4} : tensor<3xf32>
    %s = trace.add %acc, %u : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %p = trace.print %s {message = "step"} : tensor<3xf32>
    scf.yield %s : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}
