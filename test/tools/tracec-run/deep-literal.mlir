// A literal's nesting is bounded (64 levels, the rank of its tensor): one
// nested 30000 deep is an error, not a stack overflow in the reader. Long
// literals are shown by their start in the message.
//
// The literals go through response files (lit's shell has no $(...)).
// RUN: %python -c "print('--input=x=' + '[' * 30000 + '1' + ']' * 30000)" > %t.deep.rsp
// RUN: %python -c "print('--input=x=' + '[' * 65 + '1' + ']' * 65)" > %t.rank65.rsp
// RUN: not tracec-run %s --entry f @%t.deep.rsp 2>&1 | FileCheck %s
// RUN: not tracec-run %s --entry f @%t.rank65.rsp 2>&1 | FileCheck %s --check-prefix=RANK65

// CHECK: tracec-run: error: input 'x' (argument 0 of @f): bad literal '{{\[+}}...' at column 66: lists nested deeper than 64 levels (a tensor of rank over 64)
// RANK65: error: input 'x' (argument 0 of @f): bad literal '{{\[+}}...' at column 66: lists nested deeper than 64 levels
func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = trace.neg %x : tensor<3xf32>
  return %y : tensor<3xf32>
}
