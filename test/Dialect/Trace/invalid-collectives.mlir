// RUN: tracec-opt %s -split-input-file -verify-diagnostics

func.func @reduction(%x: tensor<4xf32>) {
  // expected-error @below {{'trace.all_reduce' op reduction must be sum, mean, max or min, got 'prod'}}
  %0, %c = trace.all_reduce %x {reduction = "prod"} : tensor<4xf32>
  return
}

// -----

func.func @element(%x: tensor<4xf16>) {
  // expected-error @below {{'trace.all_reduce' op elements must be f32, f64, i32 or i64, got 'f16'}}
  %0, %c = trace.all_reduce %x : tensor<4xf16>
  return
}

// -----

func.func @integer_mean(%x: tensor<4xi32>) {
  // expected-error @below {{'trace.all_reduce' op mean needs float elements, got 'i32'}}
  %0, %c = trace.all_reduce %x {reduction = "mean"} : tensor<4xi32>
  return
}

// -----

func.func @dynamic(%x: tensor<?xf32>) {
  // expected-error @below {{'trace.all_reduce' op needs a static shape, got 'tensor<?xf32>'}}
  %0, %c = trace.all_reduce %x : tensor<?xf32>
  return
}

// -----

func.func @negative_root(%x: tensor<4xf32>) {
  // expected-error @below {{'trace.broadcast' op root must be a rank (>= 0), got -1}}
  %0, %c = trace.broadcast %x {root = -1} : tensor<4xf32>
  return
}

// -----

func.func @half_broadcast(%x: tensor<4xf16>) {
  // expected-error @below {{'trace.broadcast' op elements must be f32, f64, i32 or i64, got 'f16'}}
  %0, %c = trace.broadcast %x : tensor<4xf16>
  return
}
