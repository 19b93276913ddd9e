// RUN: tracec-opt %s --trace-auto-control-deps | FileCheck %s

// Only values trace.identity accepts (the dialect's dtypes, one list in
// ODS: Trace_Element) wait on tokens. A result of another element type
// (ui32 and si32 are not i32) is returned as it is, and the tokens ride on
// the float result. The pass's own copy of the dtype list took any i32
// and built an identity the verifier rejects.

// CHECK-LABEL: func.func @mixed
// CHECK-SAME: (%[[X:[a-z0-9_]+]]: tensor<2xf32>, %[[U:[a-z0-9_]+]]: tensor<2xui32>, %[[S:[a-z0-9_]+]]: tensor<2xsi32>)
// CHECK-NEXT: %[[C:[a-z0-9_]+]] = trace.print %[[X]] :
// CHECK-NEXT: %[[Y:[a-z0-9_]+]] = trace.identity %[[X]] after(%[[C]]) :
// CHECK-NEXT: return %[[Y]], %[[U]], %[[S]] :
func.func @mixed(%x: tensor<2xf32>, %u: tensor<2xui32>, %s: tensor<2xsi32>) -> (tensor<2xf32>, tensor<2xui32>, tensor<2xsi32>) {
  %c = trace.print %x : tensor<2xf32>
  return %x, %u, %s : tensor<2xf32>, tensor<2xui32>, tensor<2xsi32>
}
