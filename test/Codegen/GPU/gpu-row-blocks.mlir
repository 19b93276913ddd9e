// RUN: tracec-opt %s --trace-gpu-row-blocks -split-input-file | FileCheck %s

// softmax as the pipeline leaves it on buffers (max, exp(x - max), sum,
// divide, two fills): one launch, a block per row (64) of 256 threads
// (the rows are 1000 long), the ops in turn with a barrier between them;
// the fills and the row-scalar stores on thread 0, the reductions as
// block trees; allocations before the launch, deallocations after.
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME: %[[X:.*]]: memref<64x1000xf32>, %[[Y:.*]]: memref<64x1000xf32>)
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[MAX:.*]] = memref.alloc() : memref<64xf32>
// CHECK-DAG: %[[E:.*]] = memref.alloc() : memref<64x1000xf32>
// CHECK-DAG: %[[SUM:.*]] = memref.alloc() : memref<64xf32>
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C64]], {{.*}} threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]],
// CHECK: arith.remui %[[BX]]
// CHECK: scf.for %{{.*}} = %[[TX]] to %{{.*}} step %{{.*}} {
// CHECK: memref.store %{{.*}}, %[[MAX]][
// CHECK: gpu.barrier
// CHECK: scf.for {{.*}} iter_args
// CHECK: memref.load %[[X]]
// CHECK: arith.maximumf
// CHECK: gpu.all_reduce maximumf
// CHECK: memref.store %{{.*}}, %[[MAX]][
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: memref.load %[[MAX]][
// CHECK: math.exp
// CHECK: memref.store %{{.*}}, %[[E]][
// CHECK: gpu.barrier
// CHECK: memref.store %{{.*}}, %[[SUM]][
// CHECK: gpu.barrier
// CHECK: scf.for {{.*}} iter_args
// CHECK: memref.load %[[E]]
// CHECK: gpu.all_reduce add
// CHECK: memref.store %{{.*}}, %[[SUM]][
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: arith.divf
// CHECK: memref.store %{{.*}}, %[[Y]][
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK-NOT: linalg.
// CHECK: memref.dealloc
// CHECK: memref.dealloc
// CHECK: memref.dealloc
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax(%x: memref<64x1000xf32>, %y: memref<64x1000xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %max = memref.alloc() : memref<64xf32>
  linalg.fill ins(%ninf : f32) outs(%max : memref<64xf32>)
  linalg.reduce ins(%x : memref<64x1000xf32>) outs(%max : memref<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %e = memref.alloc() : memref<64x1000xf32>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : memref<64x1000xf32>, memref<64xf32>) outs(%e : memref<64x1000xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %s = arith.subf %a, %m : f32
    %ex = math.exp %s : f32
    linalg.yield %ex : f32
  }
  memref.dealloc %max : memref<64xf32>
  %sum = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<64xf32>)
  linalg.reduce ins(%e : memref<64x1000xf32>) outs(%sum : memref<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : memref<64x1000xf32>, memref<64xf32>) outs(%y : memref<64x1000xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %d = arith.divf %a, %s : f32
    linalg.yield %d : f32
  }
  memref.dealloc %e : memref<64x1000xf32>
  memref.dealloc %sum : memref<64xf32>
  return
}

// -----

// Layer norm's statistics: the mean (a sum, then a division on the rows
// alone, by thread 0), the centred values, their variance. Dynamic rows:
// the grid is memref.dim's; 32 threads for rows of 24.
// CHECK-LABEL: func.func @layer_norm_stats(
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<?x24xf32>
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[ROWS:.*]] = memref.dim %[[X]], %[[C0]]
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[ROWS]], {{.*}} threads({{.*}}) in (%{{.*}} = %[[C32]],
// CHECK: gpu.all_reduce add
// CHECK: gpu.barrier
// CHECK: arith.divf
// CHECK: gpu.barrier
// CHECK: arith.subf
// CHECK: gpu.barrier
// CHECK: arith.mulf
// CHECK: gpu.all_reduce add
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK-NOT: linalg.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row2 = affine_map<(d0, d1) -> (d0)>
#r1 = affine_map<(d0) -> (d0)>
func.func @layer_norm_stats(%x: memref<?x24xf32>, %sum: memref<?xf32>, %mean: memref<?xf32>, %c: memref<?x24xf32>, %var: memref<?xf32>) {
  %n = arith.constant 24.0 : f32
  linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x24xf32>) outs(%sum : memref<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#r1, #r1], iterator_types = ["parallel"]}
      ins(%sum : memref<?xf32>) outs(%mean : memref<?xf32>) {
  ^bb0(%s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [#id2, #row2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean : memref<?x24xf32>, memref<?xf32>) outs(%c : memref<?x24xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    linalg.yield %d : f32
  }
  linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%c : memref<?x24xf32>) outs(%var : memref<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Left to the other passes: a reduction alone; an op reading the reduced
// rows at another row (d1: another block's row); a view of a buffer the
// chain writes; a reduction over the leading dim (its rows trail); ops
// with a call between them.
// CHECK-LABEL: func.func @alone(
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
#id3 = affine_map<(d0, d1) -> (d0, d1)>
#row3 = affine_map<(d0, d1) -> (d0)>
#col3 = affine_map<(d0, d1) -> (d1)>
func.func @alone(%x: memref<8x8xf32>, %sum: memref<8xf32>) {
  linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x8xf32>) outs(%sum : memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// CHECK-LABEL: func.func @another_row(
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
// CHECK: linalg.generic
func.func @another_row(%x: memref<8x8xf32>, %sum: memref<8xf32>, %y: memref<8x8xf32>) {
  linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x8xf32>) outs(%sum : memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id3, #col3, #id3], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : memref<8x8xf32>, memref<8xf32>) outs(%y : memref<8x8xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %d = arith.divf %a, %s : f32
    linalg.yield %d : f32
  }
  return
}

// CHECK-LABEL: func.func @through_a_view(
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
// CHECK: linalg.generic
func.func @through_a_view(%x: memref<8x8xf32>, %y: memref<8x8xf32>) {
  %sum = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x8xf32>) outs(%sum : memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  %view = memref.subview %sum[0] [8] [1] : memref<8xf32> to memref<8xf32, strided<[1]>>
  linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel"]}
      ins(%x, %view : memref<8x8xf32>, memref<8xf32, strided<[1]>>) outs(%y : memref<8x8xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %d = arith.divf %a, %s : f32
    linalg.yield %d : f32
  }
  return
}

// CHECK-LABEL: func.func @leading_reduction(
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
// CHECK: linalg.generic
#lead = affine_map<(d0, d1) -> (d1)>
func.func @leading_reduction(%x: memref<8x8xf32>, %sum: memref<8xf32>, %y: memref<8x8xf32>) {
  linalg.generic {indexing_maps = [#id3, #lead], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<8x8xf32>) outs(%sum : memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id3, #lead, #id3], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : memref<8x8xf32>, memref<8xf32>) outs(%y : memref<8x8xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %d = arith.divf %a, %s : f32
    linalg.yield %d : f32
  }
  return
}

// CHECK-LABEL: func.func @call_between(
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
// CHECK: call @touch
// CHECK: linalg.generic
func.func private @touch(memref<8xf32>)
func.func @call_between(%x: memref<8x8xf32>, %sum: memref<8xf32>, %y: memref<8x8xf32>) {
  linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x8xf32>) outs(%sum : memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  call @touch(%sum) : (memref<8xf32>) -> ()
  linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : memref<8x8xf32>, memref<8xf32>) outs(%y : memref<8x8xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %d = arith.divf %a, %s : f32
    linalg.yield %d : f32
  }
  return
}
