// RUN: tracec-opt %s | tracec-opt | FileCheck %s
// RUN: tracec-opt %s --mlir-print-op-generic | tracec-opt | FileCheck %s

// !trace.resource of every supported element type, any rank, dynamic dims;
// !trace.control. Both also parse in the verbose !trace<...> form.

// CHECK-LABEL: func.func @resources
// CHECK-SAME: !trace.resource<tensor<f16>>
// CHECK-SAME: !trace.resource<tensor<2xbf16>>
// CHECK-SAME: !trace.resource<tensor<784x10xf32>>
// CHECK-SAME: !trace.resource<tensor<1x2x3xf64>>
// CHECK-SAME: !trace.resource<tensor<8xi1>>
// CHECK-SAME: !trace.resource<tensor<?xi32>>
// CHECK-SAME: !trace.resource<tensor<?x?xi64>>
func.func @resources(%a: !trace.resource<tensor<f16>>, %b: !trace.resource<tensor<2xbf16>>, %c: !trace.resource<tensor<784x10xf32>>, %d: !trace.resource<tensor<1x2x3xf64>>, %e: !trace.resource<tensor<8xi1>>, %f: !trace.resource<tensor<?xi32>>, %g: !trace.resource<tensor<?x?xi64>>) {
  return
}

// CHECK-LABEL: func.func @control
// CHECK-SAME: (%{{[a-z0-9_]+}}: !trace.control) -> !trace.control
func.func @control(%t: !trace.control) -> !trace.control {
  return %t : !trace.control
}

// CHECK-LABEL: func.func @verbose
// CHECK-SAME: (%{{[a-z0-9_]+}}: !trace.resource<tensor<4xf32>>, %{{[a-z0-9_]+}}: !trace.control)
func.func @verbose(%v: !trace<resource<tensor<4xf32>>>, %t: !trace<control>) {
  return
}

// The types inside other types and attributes.
// CHECK-LABEL: func.func private @nested
// CHECK-SAME: (tensor<2x!trace.resource<tensor<4xf32>>>) -> (() -> !trace.control)
// CHECK-SAME: attributes {types = [!trace.resource<tensor<4xf32>>, !trace.control]}
func.func private @nested(tensor<2x!trace.resource<tensor<4xf32>>>) -> (() -> !trace.control) attributes {types = [!trace.resource<tensor<4xf32>>, !trace.control]}
