// trace.print ahead of time: the object calls tracec_print_tensor, which a
// program gets from TracecABI (C, no LLVM). Prints come in program order,
// before the caller's own output, in NumPy's format.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: tracec %s --entry show --class Model -o %t/model.o --header %t/model.h
// RUN: clang -std=c11 -Wall -Wextra -Werror -I%t %S/Inputs/print-driver.c %t/model.o %tracec_abi %sanitize_link -lm -o %t/program
// RUN: %t/program | FileCheck %s
// The sanitizer runtime itself needs the C++ runtime: a sanitized build
// skips this check.
// RUN: %if !sanitizer %{ ldd %t/program | FileCheck %s --check-prefix=LDD --implicit-check-not=libLLVM --implicit-check-not=libMLIR --implicit-check-not=libstdc++ %}
// RUN: nm --undefined-only %t/program | FileCheck %s --check-prefix=NM --implicit-check-not=llvm --implicit-check-not=mlir

// CHECK: x: {{\[\[}} 1.   2.5]
// CHECK-NEXT:  [-3.   4. ]]
// CHECK-NEXT: k [ 7 -8  9]
// CHECK-NEXT: y: -1 -2.5 3 -4
// LDD: libc.so
// NM: U fwrite
func.func @show(%x: tensor<2x2xf32>, %k: tensor<3xi32>) -> tensor<2x2xf32> {
  %c0 = trace.print %x {message = "x:"} : tensor<2x2xf32>
  %c1 = trace.print %k after(%c0) {message = "k"} : tensor<3xi32>
  %y = trace.neg %x : tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}
