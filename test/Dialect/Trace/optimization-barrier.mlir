// RUN: tracec-opt %s -split-input-file | tracec-opt -split-input-file | FileCheck %s
// RUN: tracec-opt %s -split-input-file --mlir-print-op-generic | tracec-opt -split-input-file | FileCheck %s
// RUN: tracec-opt %s -split-input-file --canonicalize --cse | FileCheck %s --check-prefix=OPT

// trace.optimization_barrier returns its operands (result types = operand
// types). Nothing looks through it: canonicalize does not fold %r#0 to %x,
// CSE merges neither two barriers over the same values nor an op on a
// barrier's result with the same op on its operand, and an unused barrier
// is not dropped (it is not Pure).

// CHECK-LABEL: func.func @barrier
// OPT-LABEL: func.func @barrier
func.func @barrier(%x: tensor<4xf32>, %m: tensor<2x3xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x3xi32>) {
  // CHECK: %[[R:[a-z0-9_]+]]:2 = trace.optimization_barrier %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : tensor<4xf32>, tensor<2x3xi32>
  // CHECK: trace.optimization_barrier %{{[a-z0-9_]+}} : tensor<4xf32>
  // OPT-SAME: (%[[X:[a-z0-9_]+]]: tensor<4xf32>, %[[M:[a-z0-9_]+]]: tensor<2x3xi32>)
  // OPT: %[[R:[a-z0-9_]+]]:2 = trace.optimization_barrier %[[X]], %[[M]]
  // OPT: %[[S:[a-z0-9_]+]]:2 = trace.optimization_barrier %[[X]], %[[M]]
  // OPT: trace.optimization_barrier %[[X]] : tensor<4xf32>
  // OPT: %[[E:[a-z0-9_]+]] = trace.exp %[[X]]
  // OPT: %[[F:[a-z0-9_]+]] = trace.exp %[[R]]#0
  // OPT: %[[G:[a-z0-9_]+]] = trace.exp %[[S]]#0
  // OPT: return %[[E]], %[[F]], %[[G]], %[[R]]#1
  %r:2 = trace.optimization_barrier %x, %m : tensor<4xf32>, tensor<2x3xi32>
  %s:2 = trace.optimization_barrier %x, %m : tensor<4xf32>, tensor<2x3xi32>
  %unused = trace.optimization_barrier %x : tensor<4xf32>
  %e = trace.exp %x : tensor<4xf32>
  %f = trace.exp %r#0 : tensor<4xf32>
  %g = trace.exp %s#0 : tensor<4xf32>
  return %e, %f, %g, %r#1 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x3xi32>
}
