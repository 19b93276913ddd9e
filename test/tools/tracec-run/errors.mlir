// Every bad invocation is one clear error line and exit code 1.
// RUN: not tracec-run %s --entry nope --input x=1 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: not tracec-run %s --entry f --input x="[1, 2" 2>&1 | FileCheck %s --check-prefix=LITERAL
// RUN: not tracec-run %s --entry f --input x="[[1], [2, 3]]" 2>&1 | FileCheck %s --check-prefix=RAGGED
// RUN: not tracec-run %s --entry f --input x="[1, 2.5, 3]" 2>&1 | FileCheck %s --check-prefix=NOTINT
// RUN: not tracec-run %s --entry f --input x="[1, 2]" 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not tracec-run %s --entry f --input x=@%t.missing.npy 2>&1 | FileCheck %s --check-prefix=FILE
// RUN: not tracec-run %s --entry f 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not tracec-run %s --entry f --input "[1,2,3]" 2>&1 | FileCheck %s --check-prefix=NOEQ
// RUN: not tracec-run %t.missing.mlir --entry f 2>&1 | FileCheck %s --check-prefix=MODEL
// RUN: rm -rf %t.dir && mkdir -p %t.dir && %python -c "import numpy as np; np.save('%t.dir/x.npy', np.zeros((3,), np.float64))"
// RUN: not tracec-run %s --entry f --input x=@%t.dir/x.npy 2>&1 | FileCheck %s --check-prefix=DTYPE

// ENTRY: tracec-run: error: no function @nope in the module (it has @f)
// LITERAL: tracec-run: error: input 'x' (argument 0 of @f): bad literal '[1, 2' at column 6: expected ',' or ']'
// RAGGED: error: input 'x' (argument 0 of @f): bad literal '{{\[\[}}1], [2, 3]]' at column 13: ragged list: a list at depth 1 has 2 elements, another 1
// NOTINT: error: input 'x' (argument 0 of @f): value 2.500000 is not an integer, as i32 needs
// SHAPE: error: input 'x' (argument 0 of @f): the literal is a tensor<2xi32> but the argument is a tensor<3xi32>
// FILE: error: input 'x' (argument 0 of @f): {{.*}}missing.npy: cannot read: No such file or directory
// COUNT: error: @f takes 1 arguments but 0 --input values were given (signature @f(tensor<3xi32>) -> (tensor<3xi32>))
// NOEQ: error: --input '[1,2,3]' is not name=value
// MODEL: error: {{.*}}missing.mlir: cannot read: No such file or directory
// DTYPE: error: input 'x' (argument 0 of @f): expected tensor<3xi32>, got tensor<3xf64>
func.func @f(%x: tensor<3xi32>) -> tensor<3xi32> {
  %0 = trace.neg %x : tensor<3xi32>
  return %0 : tensor<3xi32>
}
