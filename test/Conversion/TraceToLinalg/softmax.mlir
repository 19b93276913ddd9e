// RUN: tracec-opt %s --trace-to-linalg -split-input-file | FileCheck %s

// Numerically stable: m = max along the axis (from -inf), e = exp(x - m)
// reading m back through a map without the axis, s = sum(e), e / s.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[NOAXIS:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @softmax_negative_axis
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[MAXINIT:.*]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%{{.*}} : tensor<2x4xf32>)
// CHECK: %[[MAX:.*]] = linalg.reduce ins(%arg0 : tensor<2x3x4xf32>) outs(%[[MAXINIT]] : tensor<2x4xf32>) dimensions = [1]
// CHECK: arith.maximumf
// CHECK: %[[EXP:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[NOAXIS]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%arg0, %[[MAX]] : tensor<2x3x4xf32>, tensor<2x4xf32>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[M:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[SHIFTED:.*]] = arith.subf %[[X]], %[[M]] : f32
// CHECK: %[[E:.*]] = math.exp %[[SHIFTED]] : f32
// CHECK: linalg.yield %[[E]]
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[SUMINIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<2x4xf32>)
// CHECK: %[[SUM:.*]] = linalg.reduce ins(%[[EXP]] : tensor<2x3x4xf32>) outs(%[[SUMINIT]] : tensor<2x4xf32>) dimensions = [1]
// CHECK: arith.addf
// CHECK: %[[RESULT:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[NOAXIS]], #[[ID]]]
// CHECK-SAME: ins(%[[EXP]], %[[SUM]] : tensor<2x3x4xf32>, tensor<2x4xf32>)
// CHECK: arith.divf
// CHECK: return %[[RESULT]]
func.func @softmax_negative_axis(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = trace.softmax %x {axis = -2} : tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// log_softmax = (x - m) - log(s); the default axis is the last one.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[NOAXIS:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @log_softmax_default_axis
// CHECK: %[[MAX:.*]] = linalg.reduce ins(%arg0 : tensor<2x3xf64>) outs(%{{.*}} : tensor<2xf64>) dimensions = [1]
// CHECK: arith.maximumf
// CHECK: %[[EXP:.*]] = linalg.generic
// CHECK: math.exp
// CHECK: %[[SUM:.*]] = linalg.reduce ins(%[[EXP]] : tensor<2x3xf64>) {{.*}} dimensions = [1]
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[NOAXIS]], #[[NOAXIS]], #[[ID]]]
// CHECK-SAME: ins(%arg0, %[[MAX]], %[[SUM]] : tensor<2x3xf64>, tensor<2xf64>, tensor<2xf64>)
// CHECK: ^bb0(%[[X:.*]]: f64, %[[M:.*]]: f64, %[[S:.*]]: f64, %{{.*}}: f64):
// CHECK: %[[SHIFTED:.*]] = arith.subf %[[X]], %[[M]] : f64
// CHECK: %[[LOG:.*]] = math.log %[[S]] : f64
// CHECK: %[[R:.*]] = arith.subf %[[SHIFTED]], %[[LOG]] : f64
// CHECK: linalg.yield %[[R]]
func.func @log_softmax_default_axis(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = trace.log_softmax %x : tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// argmax: one generic reducing along the axis into (running max, index),
// starting from (-inf, 0). The candidate wins when greater, when NaN over a
// number, or when equal (NaN equal to NaN) with a lower index.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[NOAXIS:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @argmax_float
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[VALINIT:.*]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%{{.*}} : tensor<3xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[IDXINIT:.*]] = linalg.fill ins(%[[ZERO]] : i64) outs(%{{.*}} : tensor<3xi64>)
// CHECK: %[[ARGMAX:.*]]:2 = linalg.generic {indexing_maps = [#[[ID]], #[[NOAXIS]], #[[NOAXIS]]], iterator_types = ["reduction", "parallel"]}
// CHECK-SAME: ins(%arg0 : tensor<2x3xf32>) outs(%[[VALINIT]], %[[IDXINIT]] : tensor<3xf32>, tensor<3xi64>)
// CHECK: ^bb0(%[[V:.*]]: f32, %[[BEST:.*]]: f32, %[[BESTIDX:.*]]: i64):
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: %[[LOWER:.*]] = arith.cmpi slt, %[[I64]], %[[BESTIDX]] : i64
// CHECK: %[[VNAN:.*]] = arith.cmpf uno, %[[V]], %[[V]] : f32
// CHECK: %[[BNAN:.*]] = arith.cmpf uno, %[[BEST]], %[[BEST]] : f32
// CHECK: %[[GT:.*]] = arith.cmpf ogt, %[[V]], %[[BEST]] : f32
// CHECK: %[[EQ:.*]] = arith.cmpf oeq, %[[V]], %[[BEST]] : f32
// CHECK: %[[BOTHNAN:.*]] = arith.andi %[[VNAN]], %[[BNAN]] : i1
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: %[[NUMBER:.*]] = arith.xori %[[BNAN]], %[[TRUE]] : i1
// CHECK: %[[NANWINS:.*]] = arith.andi %[[VNAN]], %[[NUMBER]] : i1
// CHECK: %[[SAME:.*]] = arith.ori %[[EQ]], %[[BOTHNAN]] : i1
// CHECK: %[[TIEWINS:.*]] = arith.andi %[[SAME]], %[[LOWER]] : i1
// CHECK: %[[BEATS:.*]] = arith.ori %[[GT]], %[[NANWINS]] : i1
// CHECK: %[[WINS:.*]] = arith.ori %[[BEATS]], %[[TIEWINS]] : i1
// CHECK: %[[NEWBEST:.*]] = arith.select %[[WINS]], %[[V]], %[[BEST]] : f32
// CHECK: %[[NEWIDX:.*]] = arith.select %[[WINS]], %[[I64]], %[[BESTIDX]] : i64
// CHECK: linalg.yield %[[NEWBEST]], %[[NEWIDX]] : f32, i64
// CHECK: return %[[ARGMAX]]#1 : tensor<3xi64>
func.func @argmax_float(%x: tensor<2x3xf32>) -> tensor<3xi64> {
  %0 = trace.argmax %x {axis = -2} : tensor<2x3xf32> -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

// Integers start from the smallest value; ties go to the lower index.
// CHECK-LABEL: func.func @argmax_int
// CHECK: arith.constant -2147483648 : i32
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: linalg.index 1 : index
// CHECK: arith.cmpi slt
// CHECK: arith.cmpi sgt
// CHECK: arith.cmpi eq
// CHECK-NOT: arith.cmpf
// CHECK: linalg.yield {{.*}} : i32, i64
func.func @argmax_int(%x: tensor<4x5xi32>) -> tensor<4xi64> {
  %0 = trace.argmax %x {axis = 1} : tensor<4x5xi32> -> tensor<4xi64>
  return %0 : tensor<4xi64>
}
