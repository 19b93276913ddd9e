// AOT entries named like the C library functions compiled code calls
// (libm's `exp`, libc's `free`): the C functions keep the entries' names,
// and the code's own calls reach the C library.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: tracec %s --entry exp --entry free --class Model -o %t/model.o --header %t/model.h
// RUN: clang -std=c11 -Wall -Wextra -Werror -I%t %S/Inputs/library-names-driver.c %t/model.o -lm -o %t/driver
// RUN: %t/driver | FileCheck %s

// CHECK: exp: 1.000000 2.718282 0.367879
// CHECK: free: 2.000000 3.718282 1.367879
func.func @exp(%x: tensor<3xf64>) -> tensor<3xf64> {
  %y = trace.exp %x : tensor<3xf64>
  return %y : tensor<3xf64>
}

func.func @free(%x: tensor<3xf64>) -> tensor<3xf64> {
  %e = func.call @exp(%x) : (tensor<3xf64>) -> tensor<3xf64>
  %one = trace.constant dense<1.0> : tensor<f64>
  %y = trace.add %e, %one : (tensor<3xf64>, tensor<f64>) -> tensor<3xf64>
  return %y : tensor<3xf64>
}
