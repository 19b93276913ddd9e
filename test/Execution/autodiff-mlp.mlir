// RUN: tracec-run %s --entry loss_and_gradients --input x="[[ 0.5 , -1.  ,  0.25], [ 1.5 ,  0.75, -0.5 ], [-0.25,  0.5 ,  1.  ], [ 1.  , -0.75, -1.25]]" --input labels="[2, 0, 1, 2]" --input w1="[[ 0.5  , -0.25 ,  0.75 ,  0.125], [-0.5  ,  0.375,  0.25 , -0.625], [ 0.25 ,  0.5  , -0.375,  0.875]]" --input b1="[ 0.1875, -0.25  ,  0.0625,  0.1875]" --input w2="[[ 0.625, -0.5  ,  0.25 ], [-0.375,  0.75 ,  0.5  ], [ 0.5  ,  0.125, -0.625], [-0.25 , -0.875,  0.375]]" --input b2="[ 0.0625, -0.125 ,  0.25  ]" | FileCheck %s
//
// trace.value_and_grad of a two-layer MLP's mean softmax cross-entropy,
// compiled and run by tracec-run, against NumPy. Inputs and CHECK values:
// test/Execution/gen_expected_autodiff.py, mlp_loss_and_gradients()
// (float64 backpropagation by hand, cross-checked by central differences of
// mlp_loss() in the script); the float32 results are matched on their
// leading digits, with the alternatives a relative change of 1e-5 allows.
// The NumPy loss is 1.0936785362798696.

// CHECK: result 0: tensor<f32>
// CHECK-NEXT: {{^}}{{(1\.0936)[0-9]*}}{{$}}
// CHECK-NEXT: result 1: tensor<3x4xf32>
// CHECK-NEXT: {{^ *\[\[ *}}{{(-0\.095728|-0\.095729|-0\.09573)[0-9]*}}{{ +}}{{(0\.024336)[0-9]*}}{{ +}}{{(0\.19705|0\.19706)[0-9]*}}{{ +}}{{(-0\.093348|-0\.093349)[0-9]*}}{{ *\]}}
// CHECK-NEXT: {{^ *\[ *}}{{(-0\.013957)[0-9]*}}{{ +}}{{(-0\.048672|-0\.048673)[0-9]*}}{{ +}}{{(-0\.31886|-0\.31887)[0-9]*}}{{ +}}{{(0\.18669)[0-9]*}}{{ *\]}}
// CHECK-NEXT: {{^ *\[ *}}{{(0\.1714)[0-9]*}}{{ +}}{{(-0\.097345|-0\.097346|-0\.097347)[0-9]*}}{{ +}}{{(-0\.21548)[0-9]*}}{{ +}}{{(0\.20329|0\.2033)[0-9]*}}{{ *\]}}
// CHECK-NEXT: result 2: tensor<4xf32>
// CHECK-NEXT: {{^ *\[ *}}{{(0\.16663|0\.16664)[0-9]*}}{{ +}}{{(-0\.097345|-0\.097346|-0\.097347)[0-9]*}}{{ +}}{{(0\.28175)[0-9]*}}{{ +}}{{(0\.1466)[0-9]*}}{{ *\]}}
// CHECK-NEXT: result 3: tensor<4x3xf32>
// CHECK-NEXT: {{^ *\[\[ *}}{{(0\.18952)[0-9]*}}{{ +}}{{(0\.050479|0\.05048)[0-9]*}}{{ +}}{{(-0\.23999|-0\.24)[0-9]*}}{{ *\]}}
// CHECK-NEXT: {{^ *\[ *}}{{(0\.026453)[0-9]*}}{{ +}}{{(-0\.1021)[0-9]*}}{{ +}}{{(0\.075652|0\.075653|0\.075654)[0-9]*}}{{ *\]}}
// CHECK-NEXT: {{^ *\[ *}}{{(0\.068146|0\.068147)[0-9]*}}{{ +}}{{(0\.11977)[0-9]*}}{{ +}}{{(-0\.18791|-0\.18792)[0-9]*}}{{ *\]}}
// CHECK-NEXT: {{^ *\[ *}}{{(0\.14282|0\.14283)[0-9]*}}{{ +}}{{(-0\.13302|-0\.13303)[0-9]*}}{{ +}}{{(-0\.0097977|-0\.0097978|-0\.0097979)[0-9]*}}{{ *\]}}
// CHECK-NEXT: result 4: tensor<3xf32>
// CHECK-NEXT: {{^ *\[ *}}{{(0\.2365)[0-9]*}}{{ +}}{{(-0\.10393)[0-9]*}}{{ +}}{{(-0\.13256|-0\.13257)[0-9]*}}{{ *\]}}

func.func private @loss(%x: tensor<4x3xf32>, %labels: tensor<4xi32>, %w1: tensor<3x4xf32>, %b1: tensor<4xf32>,
                        %w2: tensor<4x3xf32>, %b2: tensor<3xf32>) -> tensor<f32> {
  %h = trace.matmul %x, %w1 : (tensor<4x3xf32>, tensor<3x4xf32>) -> tensor<4x4xf32>
  %hb = trace.add %h, %b1 : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  %a = trace.relu %hb : tensor<4x4xf32>
  %o = trace.matmul %a, %w2 : (tensor<4x4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %ob = trace.add %o, %b2 : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %logp = trace.log_softmax %ob : tensor<4x3xf32>
  %onehot = trace.one_hot %labels {depth = 3} : tensor<4xi32> -> tensor<4x3xf32>
  %picked = trace.mul %logp, %onehot : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %per = trace.reduce_sum %picked {axes = array<i64: 1>} : tensor<4x3xf32> -> tensor<4xf32>
  %nll = trace.neg %per : tensor<4xf32>
  %mean = trace.reduce_mean %nll {axes = array<i64: 0>} : tensor<4xf32> -> tensor<f32>
  return %mean : tensor<f32>
}

func.func @loss_and_gradients(%x: tensor<4x3xf32>, %labels: tensor<4xi32>, %w1: tensor<3x4xf32>, %b1: tensor<4xf32>,
                              %w2: tensor<4x3xf32>, %b2: tensor<3xf32>)
    -> (tensor<f32>, tensor<3x4xf32>, tensor<4xf32>, tensor<4x3xf32>, tensor<3xf32>) {
  %l, %g:4 = trace.value_and_grad @loss(%x, %labels, %w1, %b1, %w2, %b2) {wrt = array<i64: 2, 3, 4, 5>}
      : (tensor<4x3xf32>, tensor<4xi32>, tensor<3x4xf32>, tensor<4xf32>, tensor<4x3xf32>, tensor<3xf32>)
      -> (tensor<f32>, tensor<3x4xf32>, tensor<4xf32>, tensor<4x3xf32>, tensor<3xf32>)
  return %l, %g#0, %g#1, %g#2, %g#3 : tensor<f32>, tensor<3x4xf32>, tensor<4xf32>, tensor<4x3xf32>, tensor<3xf32>
}
