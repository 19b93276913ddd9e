// The object and header from tracec, linked into C and C++ programs with
// nothing but libc/libm.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: tracec %s --entry affine --entry accumulate --class Affine --namespace ns::inner -o %t/model.o --header %t/model.h
// RUN: clang -std=c11 -Wall -Wextra -Werror -I%t %S/Inputs/driver.c %t/model.o -lm -o %t/c-driver
// RUN: %t/c-driver | FileCheck %s --check-prefix=C
// RUN: clang++ -std=c++17 -Wall -Wextra -Werror -I%t %S/Inputs/driver.cpp %t/model.o -lm -o %t/cpp-driver
// RUN: %t/cpp-driver | FileCheck %s --check-prefix=CPP

// y = x (2x3) @ w (3x2) + 1, by hand:
//   [1 2 3] @ [[1 .5] [-1 2] [0 1]] = [-1 7.5], [4 5 6] -> [-1 18]
// C: affine -> 0, y2x2: 0 8.5 0 19
// CPP: aligned 1, variables 1 (total, 8 bytes), args 2 (24, 24 bytes)
// CPP: affine -> 0: 0 8.5 0 19
func.func @affine(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>)
    -> (tensor<2x2xf32> {trace.name = "y"}) {
  %m = trace.matmul %x, %w : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %one = trace.constant dense<1.0> : tensor<f32>
  %y = trace.add %m, %one : (tensor<2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

// A variable updated in place across calls: 10 20 + 3 * (1 2).
// C: accumulate: total 13 26, before 12 24
// CPP: accumulate: total 13 26, before 12 24
func.func @accumulate(%total: !trace.resource<tensor<2xf32>>, %add: tensor<2xf32>)
    -> (tensor<2xf32> {trace.name = "before"}) {
  %before, %c0 = trace.var.read %total : !trace.resource<tensor<2xf32>>
  %c1 = trace.var.assign_add %total, %add after(%c0) : !trace.resource<tensor<2xf32>>
  return %before : tensor<2xf32>
}

// A null buffer is a return code; a bad index a null pointer.
// C: null -> 1
// CPP: null -> 1, bad index -> (nil)
