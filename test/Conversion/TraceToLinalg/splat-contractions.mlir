// RUN: tracec-opt %s --trace-to-linalg --trace-fuse-elementwise -split-input-file | FileCheck %s

// ones @ w is the column sums of w, broadcast over the rows: a sum over k,
// walking w in memory order (no contraction left to fall to a scalar loop
// once the constant is folded into its body), then c * sums (here 1 *
// sums, folded) added to the accumulator.
// CHECK-DAG: #[[$ROWS:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$COLUMN:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @ones_matmul
// CHECK-NOT: linalg.matmul
// CHECK: %[[SUMS:.+]] = linalg.generic {indexing_maps = [#[[$ROWS]], #[[$COLUMN]]], iterator_types = ["reduction", "parallel"]} ins(%arg0 : tensor<256x64xf32>) outs(%{{.+}} : tensor<64xf32>)
// CHECK: arith.addf
// CHECK: linalg.generic {indexing_maps = [#[[$COLUMN]], #[[$ROWS]]], iterator_types = ["parallel", "parallel"]} ins(%[[SUMS]] : tensor<64xf32>) outs(%{{.+}} : tensor<32x64xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f32, %[[OUT:.+]]: f32):
// CHECK-NEXT: arith.addf %[[OUT]], %[[IN]]
// CHECK-NOT: linalg.matmul
func.func @ones_matmul(%w: tensor<256x64xf32>) -> tensor<32x64xf32> {
  %ones = trace.constant dense<1.0> : tensor<32x256xf32>
  %0 = trace.matmul %ones, %w : (tensor<32x256xf32>, tensor<256x64xf32>) -> tensor<32x64xf32>
  return %0 : tensor<32x64xf32>
}

// -----

// A splat on the right, transposed: the row sums of x.
// CHECK-LABEL: func.func @matmul_splat_transposed
// CHECK-DAG: %[[HALF:.+]] = arith.constant 5.000000e-01 : f32
// CHECK: %[[SUMS:.+]] = linalg.generic {{.*}}ins(%arg0 : tensor<8x16xf32>) outs(%{{.+}} : tensor<8xf32>)
// CHECK: linalg.generic {{.*}}ins(%[[SUMS]] : tensor<8xf32>) outs(%{{.+}} : tensor<8x4xf32>)
// CHECK: arith.mulf %{{.+}}, %[[HALF]]
func.func @matmul_splat_transposed(%x: tensor<8x16xf32>) -> tensor<8x4xf32> {
  %half = trace.constant dense<0.5> : tensor<4x16xf32>
  %0 = trace.matmul %x, %half {transpose_b} : (tensor<8x16xf32>, tensor<4x16xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// Batched, with a `?` batch, the splat a fill of a run-time scalar: the
// sums keep the batch dim.
// CHECK-LABEL: func.func @batched_fill
// CHECK-NOT: linalg.batch_matmul
// CHECK: %[[SUMS:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]{{.*}} ins(%arg0 : tensor<?x16x8xf32>) outs(%{{.+}} : tensor<?x8xf32>)
// CHECK: linalg.generic {{.*}}ins(%[[SUMS]] : tensor<?x8xf32>) outs(%{{.+}} : tensor<?x4x8xf32>)
// CHECK: arith.mulf
// CHECK-NOT: linalg.batch_matmul
func.func @batched_fill(%w: tensor<?x16x8xf32>, %like: tensor<?x4x16xf32>, %v: tensor<f32>) -> tensor<?x4x8xf32> {
  %splat = trace.fill %v like %like : tensor<f32>, tensor<?x4x16xf32> -> tensor<?x4x16xf32>
  %0 = trace.matmul %splat, %w : (tensor<?x4x16xf32>, tensor<?x16x8xf32>) -> tensor<?x4x8xf32>
  return %0 : tensor<?x4x8xf32>
}

// -----

// A constant that is not a splat stays a contraction.
// CHECK-LABEL: func.func @not_a_splat
// CHECK: linalg.matmul
func.func @not_a_splat(%w: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %a = trace.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %0 = trace.matmul %a, %w : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// bf16 operands summed in f32 likewise: the column sums of w's elements,
// each extended to f32, into f32, then rounded to bf16 once.
// CHECK-LABEL: func.func @ones_matmul_bf16
// CHECK-NOT: linalg.matmul
// CHECK: %[[SUMS:.+]] = linalg.generic {{.*}}ins(%arg0 : tensor<256x64xbf16>) outs(%{{.+}} : tensor<64xf32>)
// CHECK: arith.extf %{{.+}} : bf16 to f32
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}}ins(%[[SUMS]] : tensor<64xf32>) outs({{.*}}tensor<32x64xbf16>)
// CHECK: arith.truncf %{{.+}} : f32 to bf16
// CHECK-NOT: linalg.matmul
func.func @ones_matmul_bf16(%w: tensor<256x64xbf16>) -> tensor<32x64xbf16> {
  %ones = trace.constant dense<1.0> : tensor<32x256xbf16>
  %0 = trace.matmul %ones, %w : (tensor<32x256xbf16>, tensor<256x64xbf16>) -> tensor<32x64xbf16>
  return %0 : tensor<32x64xbf16>
}
