// A write that fails (here /dev/full: no space left on the device) is an
// error naming the file, exit code 1, and leaves no partial output behind;
// it used to end in "LLVM ERROR: IO failure on output stream".
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: not tracec %s --entry f -o /dev/full 2>&1 | FileCheck %s --check-prefix=OBJ
// RUN: not tracec %s --entry f -o /dev/full --emit=mlir 2>&1 | FileCheck %s --check-prefix=OBJ
// RUN: not tracec %s --entry f -o %t/f.o --header /dev/full 2>&1 | FileCheck %s --check-prefix=HEADER
// RUN: not test -e %t/f.o

// OBJ: tracec: error: cannot write '/dev/full': No space left on device
// OBJ-NOT: LLVM ERROR
// HEADER: tracec: error: cannot write '/dev/full': No space left on device
// HEADER-NOT: LLVM ERROR
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = trace.exp %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
