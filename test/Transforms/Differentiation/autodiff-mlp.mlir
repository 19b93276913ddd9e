// RUN: tracec-opt %s --trace-autodiff -split-input-file | FileCheck %s
// RUN: tracec-opt %s --trace-autodiff -split-input-file | FileCheck %s --check-prefix=BWD

// The residuals of a two-layer MLP's mean cross-entropy loss
// (matmul + add + relu, matmul + add, log_softmax, one_hot labels), wrt the
// weights and biases (not x, not the integer labels).
//
// What the backward function needs, rule by rule (lib/Dialect/Trace/Gradients):
//   div %total, %n      d total = dl / n (n is a constant: rematerialized)
//   mul %logp, %onehot  d logp = d picked * onehot -> %onehot
//   log_softmax         dx = dy - exp(y) * sum(dy)  -> %logp
//   matmul %a, %w2      d a = d o @ w2^T, d w2 = a^T @ d o -> %w2, %a
//   relu %hb            select(hb > 0, ...)          -> %hb
//   matmul %x, %w1      d w1 = x^T @ d h             -> %x
// The adds and reduce_sum read nothing but their cotangents. So the
// intermediates h = x @ w1, o = a @ w2, ob = o + b2, picked and total are
// never saved. Nor are the loss and %w1: the rules' cotangents of the
// inactive operands (d n = -(d total * mean), d onehot = d picked * logp,
// d x = d h @ w1^T) would read them, but those are dead and erased before
// the residuals are collected (autodiff-dead-residuals.mlir).

func.func @loss(%x: tensor<4x3xf32>, %labels: tensor<4xi32>, %w1: tensor<3x5xf32>, %b1: tensor<5xf32>,
                %w2: tensor<5x2xf32>, %b2: tensor<2xf32>) -> tensor<f32> {
  %h = trace.matmul %x, %w1 : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  %hb = trace.add %h, %b1 : (tensor<4x5xf32>, tensor<5xf32>) -> tensor<4x5xf32>
  %a = trace.relu %hb : tensor<4x5xf32>
  %o = trace.matmul %a, %w2 : (tensor<4x5xf32>, tensor<5x2xf32>) -> tensor<4x2xf32>
  %ob = trace.add %o, %b2 : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %logp = trace.log_softmax %ob : tensor<4x2xf32>
  %onehot = trace.one_hot %labels {depth = 2} : tensor<4xi32> -> tensor<4x2xf32>
  %picked = trace.mul %logp, %onehot : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %total = trace.reduce_sum %picked {axes = array<i64: 0, 1>} : tensor<4x2xf32> -> tensor<f32>
  %n = trace.constant dense<-4.0> : tensor<f32>
  %mean = trace.div %total, %n : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %mean : tensor<f32>
}

// CHECK-LABEL: func.func private @__forward_loss_wrt_2_3_4_5(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: tensor<4x3xf32>, %[[LABELS:[a-z0-9_]+]]: tensor<4xi32>, %[[W1:[a-z0-9_]+]]: tensor<3x5xf32>, %[[B1:[a-z0-9_]+]]: tensor<5xf32>, %[[W2:[a-z0-9_]+]]: tensor<5x2xf32>, %[[B2:[a-z0-9_]+]]: tensor<2xf32>)
// The loss, then six residuals.
// CHECK-SAME: -> (tensor<f32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<5x2xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x3xf32>)
// CHECK:      %[[H:[a-z0-9_]+]] = trace.matmul %[[X]], %[[W1]]
// CHECK-NEXT: %[[HB:[a-z0-9_]+]] = trace.add %[[H]], %[[B1]]
// CHECK-NEXT: %[[A:[a-z0-9_]+]] = trace.relu %[[HB]]
// CHECK-NEXT: %[[O:[a-z0-9_]+]] = trace.matmul %[[A]], %[[W2]]
// CHECK-NEXT: %[[OB:[a-z0-9_]+]] = trace.add %[[O]], %[[B2]]
// CHECK-NEXT: %[[LOGP:[a-z0-9_]+]] = trace.log_softmax %[[OB]]
// CHECK-NEXT: %[[ONEHOT:[a-z0-9_]+]] = trace.one_hot %[[LABELS]]
// CHECK-NEXT: %[[PICKED:[a-z0-9_]+]] = trace.mul %[[LOGP]], %[[ONEHOT]]
// CHECK-NEXT: %[[TOTAL:[a-z0-9_]+]] = trace.reduce_sum %[[PICKED]]
// CHECK-NEXT: %[[N:[a-z0-9_]+]] = trace.constant dense<-4.000000e+00>
// CHECK-NEXT: %[[MEAN:[a-z0-9_]+]] = trace.div %[[TOTAL]], %[[N]]
// Exactly these values, in this order; not h, o, ob, picked, total, n, the
// loss (only the dead cotangent of the constant divisor would read it) or
// W1 (only the cotangent of x, which is not differentiated, would).
// CHECK-NEXT: return %[[MEAN]], %[[ONEHOT]], %[[LOGP]], %[[W2]], %[[A]], %[[HB]], %[[X]] :

// The backward function takes the six residuals and the loss's cotangent
// and returns the four gradients, in wrt order.
// CHECK-LABEL: func.func private @__backward_loss_wrt_2_3_4_5(
// CHECK-SAME: %[[RONEHOT:[a-z0-9_]+]]: tensor<4x2xf32>, %[[RLOGP:[a-z0-9_]+]]: tensor<4x2xf32>, %[[RW2:[a-z0-9_]+]]: tensor<5x2xf32>, %[[RA:[a-z0-9_]+]]: tensor<4x5xf32>, %[[RHB:[a-z0-9_]+]]: tensor<4x5xf32>, %[[RX:[a-z0-9_]+]]: tensor<4x3xf32>, %[[DL:[a-z0-9_]+]]: tensor<f32>)
// CHECK-SAME: -> (tensor<3x5xf32>, tensor<5xf32>, tensor<5x2xf32>, tensor<2xf32>)
// The constant divisor is made again, not passed in.
// CHECK:      %[[RN:[a-z0-9_]+]] = trace.constant dense<-4.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[DTOTAL:[a-z0-9_]+]] = trace.div %[[DL]], %[[RN]]
// CHECK:      %[[DPICKED:[a-z0-9_]+]] = trace.broadcast_to
// CHECK:      %[[DLOGP:[a-z0-9_]+]] = trace.mul %[[DPICKED]], %[[RONEHOT]]
// CHECK:      %[[SUM:[a-z0-9_]+]] = trace.reduce_sum %[[DLOGP]] {axes = array<i64: -1>, keepdims}
// CHECK:      %[[EXP:[a-z0-9_]+]] = trace.exp %[[RLOGP]]
// CHECK:      %[[SCALED:[a-z0-9_]+]] = trace.mul %[[EXP]], %[[SUM]]
// CHECK:      %[[DOB:[a-z0-9_]+]] = trace.sub %[[DLOGP]], %[[SCALED]]
// CHECK:      %[[DB2SUM:[a-z0-9_]+]] = trace.reduce_sum %[[DOB]] {axes = array<i64: 0>, keepdims}
// CHECK:      %[[DB2:[a-z0-9_]+]] = trace.reshape %[[DB2SUM]] : tensor<1x2xf32> -> tensor<2xf32>
// CHECK:      %[[DA:[a-z0-9_]+]] = trace.matmul %[[DOB]], %[[RW2]] {transpose_b}
// CHECK:      %[[DW2:[a-z0-9_]+]] = trace.matmul %[[RA]], %[[DOB]] {transpose_a}
// CHECK:      %[[POS:[a-z0-9_]+]] = trace.gt %[[RHB]], %{{[a-z0-9_]+}}
// CHECK:      %[[DHB:[a-z0-9_]+]] = trace.select %[[POS]], %[[DA]], %{{[a-z0-9_]+}}
// CHECK:      %[[DB1SUM:[a-z0-9_]+]] = trace.reduce_sum %[[DHB]] {axes = array<i64: 0>, keepdims}
// CHECK:      %[[DB1:[a-z0-9_]+]] = trace.reshape %[[DB1SUM]] : tensor<1x5xf32> -> tensor<5xf32>
// CHECK:      %[[DW1:[a-z0-9_]+]] = trace.matmul %[[RX]], %[[DHB]] {transpose_a}
// CHECK-NEXT: return %[[DW1]], %[[DB1]], %[[DW2]], %[[DB2]] :

// Nothing of the forward computation is redone in the backward function,
// and no cotangent nothing needs is computed (of the one-hot labels, of x).
// BWD-LABEL: func.func private @__backward_loss_wrt_2_3_4_5(
// BWD-NOT: trace.matmul %{{.*}} {transpose_b}{{.*}}tensor<3x5xf32>
// BWD-NOT: trace.relu
// BWD-NOT: trace.log_softmax
// BWD-NOT: trace.one_hot
// BWD-NOT: call
// BWD: return

// CHECK-LABEL: func.func @train(
// CHECK-SAME: %[[TX:[a-z0-9_]+]]: tensor<4x3xf32>, %[[TL:[a-z0-9_]+]]: tensor<4xi32>, %[[TW1:[a-z0-9_]+]]: tensor<3x5xf32>, %[[TB1:[a-z0-9_]+]]: tensor<5xf32>, %[[TW2:[a-z0-9_]+]]: tensor<5x2xf32>, %[[TB2:[a-z0-9_]+]]: tensor<2xf32>)
// CHECK:      %[[F:[a-z0-9_]+]]:7 = call @__forward_loss_wrt_2_3_4_5(%[[TX]], %[[TL]], %[[TW1]], %[[TB1]], %[[TW2]], %[[TB2]])
// CHECK-NEXT: %[[ONE:[a-z0-9_]+]] = trace.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[G:[a-z0-9_]+]]:4 = call @__backward_loss_wrt_2_3_4_5(%[[F]]#1, %[[F]]#2, %[[F]]#3, %[[F]]#4, %[[F]]#5, %[[F]]#6, %[[ONE]])
// CHECK-NEXT: return %[[F]]#0, %[[G]]#0, %[[G]]#1, %[[G]]#2, %[[G]]#3 :
// CHECK-NOT: trace.value_and_grad
func.func @train(%x: tensor<4x3xf32>, %labels: tensor<4xi32>, %w1: tensor<3x5xf32>, %b1: tensor<5xf32>,
                 %w2: tensor<5x2xf32>, %b2: tensor<2xf32>)
    -> (tensor<f32>, tensor<3x5xf32>, tensor<5xf32>, tensor<5x2xf32>, tensor<2xf32>) {
  %l, %g:4 = trace.value_and_grad @loss(%x, %labels, %w1, %b1, %w2, %b2) {wrt = array<i64: 2, 3, 4, 5>}
      : (tensor<4x3xf32>, tensor<4xi32>, tensor<3x5xf32>, tensor<5xf32>, tensor<5x2xf32>, tensor<2xf32>)
      -> (tensor<f32>, tensor<3x5xf32>, tensor<5xf32>, tensor<5x2xf32>, tensor<2xf32>)
  return %l, %g#0, %g#1, %g#2, %g#3 : tensor<f32>, tensor<3x5xf32>, tensor<5xf32>, tensor<5x2xf32>, tensor<2xf32>
}
