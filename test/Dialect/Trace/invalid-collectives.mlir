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

// -----

func.func @gather_axis(%x: tensor<4xf32>) {
  // expected-error @below {{'trace.all_gather' op axis 1 is out of range for 1-d tensors}}
  %0, %c = trace.all_gather %x {axis = 1, world_size = 2} : tensor<4xf32> -> tensor<8xf32>
  return
}

// -----

func.func @gather_world(%x: tensor<4xf32>) {
  // expected-error @below {{'trace.all_gather' op world_size must be at least 1, got 0}}
  %0, %c = trace.all_gather %x {axis = 0, world_size = 0} : tensor<4xf32> -> tensor<0xf32>
  return
}

// -----

func.func @gather_shape(%x: tensor<4x2xf32>) {
  // expected-error @below {{'trace.all_gather' op tiles 'tensor<4x2xf32>' over 3 processes along axis 1 into 'tensor<12x2xf32>'; expected 'tensor<4x6xf32>'}}
  %0, %c = trace.all_gather %x {axis = 1, world_size = 3} : tensor<4x2xf32> -> tensor<12x2xf32>
  return
}

// -----

func.func @scatter_split(%x: tensor<5x2xf64>) {
  // expected-error @below {{'trace.reduce_scatter' op axis 0 of 'tensor<5x2xf64>' does not split into 2 equal slices}}
  %0, %c = trace.reduce_scatter %x {axis = 0, world_size = 2} : tensor<5x2xf64> -> tensor<2x2xf64>
  return
}

// -----

func.func @scatter_mean(%x: tensor<4xi32>) {
  // expected-error @below {{'trace.reduce_scatter' op mean needs float elements, got 'i32'}}
  %0, %c = trace.reduce_scatter %x {axis = 0, world_size = 2, reduction = "mean"} : tensor<4xi32> -> tensor<2xi32>
  return
}

// -----

func.func @scatter_dynamic(%x: tensor<?xf32>) {
  // expected-error @below {{'trace.reduce_scatter' op needs a static shape, got 'tensor<?xf32>'}}
  %0, %c = trace.reduce_scatter %x {axis = 0, world_size = 2} : tensor<?xf32> -> tensor<?xf32>
  return
}

// -----

func.func @gather_overflow(%x: tensor<4xf32>) {
  // expected-error @below {{'trace.all_gather' op dim 0 of 'tensor<4xf32>' times world_size 4611686018427387904 overflows}}
  %0, %c = trace.all_gather %x {axis = 0, world_size = 4611686018427387904} : tensor<4xf32> -> tensor<0xf32>
  return
}

// -----

func.func @groups_not_a_partition(%x: tensor<4xf32>) {
  // expected-error @below {{'trace.all_reduce' op groups must hold the ranks 0 ... 3 of a world of 4 processes, got rank 4}}
  %0, %c = trace.all_reduce %x {groups = dense<[[0, 1], [2, 4]]> : tensor<2x2xi64>} : tensor<4xf32>
  return
}

// -----

func.func @groups_repeat_a_rank(%x: tensor<4xf32>) {
  // expected-error @below {{'trace.all_reduce' op groups name rank 1 twice}}
  %0, %c = trace.all_reduce %x {groups = dense<[[0, 1], [1, 3]]> : tensor<2x2xi64>} : tensor<4xf32>
  return
}

// -----

func.func @groups_not_2d(%x: tensor<4xf32>) {
  // expected-error @below {{'trace.all_reduce' op groups must be a non-empty 2-d array of ranks (a row per group), got 'tensor<4xi64>'}}
  %0, %c = trace.all_reduce %x {groups = dense<[0, 1, 2, 3]> : tensor<4xi64>} : tensor<4xf32>
  return
}

// -----

// Every op over groups verifies them (ProcessGroupsOpInterface).
func.func @gather_groups_not_a_partition(%x: tensor<4xf32>) {
  // expected-error @below {{'trace.all_gather' op groups name rank 0 twice}}
  %0, %c = trace.all_gather %x {axis = 0, world_size = 2, groups = dense<[[0, 0]]> : tensor<1x2xi64>} : tensor<4xf32> -> tensor<8xf32>
  return
}

// -----

func.func @rank_groups_not_a_partition() {
  // expected-error @below {{'trace.comm_rank' op groups must hold the ranks 0 ... 1 of a world of 2 processes, got rank 2}}
  %r = trace.comm_rank {groups = dense<[[0, 2]]> : tensor<1x2xi64>} : tensor<i32>
  return
}

// -----

func.func @broadcast_root_outside_group(%x: tensor<4xf32>) {
  // expected-error @below {{'trace.broadcast' op root 2 is not a position in a group of 2}}
  %0, %c = trace.broadcast %x {root = 2, groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : tensor<4xf32>
  return
}

// -----

func.func @gather_world_not_group(%x: tensor<4xf32>) {
  // expected-error @below {{'trace.all_gather' op world_size 4 must be the length of a row of groups, 2}}
  %0, %c = trace.all_gather %x {axis = 0, world_size = 4, groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : tensor<4xf32> -> tensor<16xf32>
  return
}

// -----

func.func @scatter_world_not_group(%x: tensor<4xf32>) {
  // expected-error @below {{'trace.reduce_scatter' op world_size 1 must be the length of a row of groups, 2}}
  %0, %c = trace.reduce_scatter %x {axis = 0, world_size = 1, groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : tensor<4xf32> -> tensor<4xf32>
  return
}
