// Matmuls on tensor cores (trace-gpu-mma-matmul), compiled by build.sh
// for the host CPU and with --cuda-chip --tf32, compared by check.cpp.
// Arguments and results are f32 (check.cpp fills floats); each entry
// casts to the multiplicands' type. Shapes take each kernel: blocks of
// 128 x 128 (8 warps) and 64 x 64 (4 warps) staged through shared memory
// (cp.async, ldmatrix), with A or B transposed and batched, and a warp per
// 16 x 8 tile (48 x 24). Compiled for sm_90a as well, where the 16-bit
// matmuls of whole 128 x 128 tiles (half's first, dense, deep) run as
// warpgroups on TMA loads and wgmma; deep's k of 512 is 8 slabs, twice
// round the 4 stages (refills and both mbarrier phases).

func.func @half(%a: tensor<256x64xf32>, %b: tensor<64x128xf32>,
                %c: tensor<48x32xf32>, %d: tensor<32x24xf32>)
    -> (tensor<256x128xf32>, tensor<48x24xf32>) {
  %ah = trace.cast %a : tensor<256x64xf32> to tensor<256x64xf16>
  %bh = trace.cast %b : tensor<64x128xf32> to tensor<64x128xf16>
  %ab = trace.matmul %ah, %bh : (tensor<256x64xf16>, tensor<64x128xf16>) -> tensor<256x128xf16>
  %ch = trace.cast %c : tensor<48x32xf32> to tensor<48x32xf16>
  %dh = trace.cast %d : tensor<32x24xf32> to tensor<32x24xf16>
  %cd = trace.matmul %ch, %dh : (tensor<48x32xf16>, tensor<32x24xf16>) -> tensor<48x24xf16>
  %r0 = trace.cast %ab : tensor<256x128xf16> to tensor<256x128xf32>
  %r1 = trace.cast %cd : tensor<48x24xf16> to tensor<48x24xf32>
  return %r0, %r1 : tensor<256x128xf32>, tensor<48x24xf32>
}

func.func @brain(%a: tensor<128x96xf32>, %b: tensor<96x64xf32>) -> tensor<128x64xf32> {
  %ab16 = trace.cast %a : tensor<128x96xf32> to tensor<128x96xbf16>
  %bb16 = trace.cast %b : tensor<96x64xf32> to tensor<96x64xbf16>
  %p = trace.matmul %ab16, %bb16 : (tensor<128x96xbf16>, tensor<96x64xbf16>) -> tensor<128x64xbf16>
  %r = trace.cast %p : tensor<128x64xbf16> to tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}

func.func @single(%a: tensor<128x48xf32>, %b: tensor<48x256xf32>) -> tensor<128x256xf32> {
  %p = trace.matmul %a, %b : (tensor<128x48xf32>, tensor<48x256xf32>) -> tensor<128x256xf32>
  return %p : tensor<128x256xf32>
}

// Attention's scores (batched, B transposed) in f16, a weight gradient
// (A transposed) in bf16, and B transposed in TF32.
func.func @transposed(%q: tensor<4x64x32xf32>, %k: tensor<4x64x32xf32>,
                      %x: tensor<64x128xf32>, %dy: tensor<64x64xf32>,
                      %a: tensor<64x32xf32>, %b: tensor<128x32xf32>)
    -> (tensor<4x64x64xf32>, tensor<128x64xf32>, tensor<64x128xf32>) {
  %qh = trace.cast %q : tensor<4x64x32xf32> to tensor<4x64x32xf16>
  %kh = trace.cast %k : tensor<4x64x32xf32> to tensor<4x64x32xf16>
  %s = trace.matmul %qh, %kh {transpose_b} : (tensor<4x64x32xf16>, tensor<4x64x32xf16>) -> tensor<4x64x64xf16>
  %xb = trace.cast %x : tensor<64x128xf32> to tensor<64x128xbf16>
  %dyb = trace.cast %dy : tensor<64x64xf32> to tensor<64x64xbf16>
  %dw = trace.matmul %xb, %dyb {transpose_a} : (tensor<64x128xbf16>, tensor<64x64xbf16>) -> tensor<128x64xbf16>
  %ab = trace.matmul %a, %b {transpose_b} : (tensor<64x32xf32>, tensor<128x32xf32>) -> tensor<64x128xf32>
  %r0 = trace.cast %s : tensor<4x64x64xf16> to tensor<4x64x64xf32>
  %r1 = trace.cast %dw : tensor<128x64xbf16> to tensor<128x64xf32>
  return %r0, %r1, %ab : tensor<4x64x64xf32>, tensor<128x64xf32>, tensor<64x128xf32>
}

// A dense layer on [batch, tokens, features]: 4 x 32 rows as one m of 128.
func.func @dense(%x: tensor<4x32x64xf32>, %w: tensor<64x128xf32>) -> tensor<4x32x128xf32> {
  %xh = trace.cast %x : tensor<4x32x64xf32> to tensor<4x32x64xf16>
  %wh = trace.cast %w : tensor<64x128xf32> to tensor<64x128xf16>
  %y = trace.matmul %xh, %wh : (tensor<4x32x64xf16>, tensor<64x128xf16>) -> tensor<4x32x128xf16>
  %r = trace.cast %y : tensor<4x32x128xf16> to tensor<4x32x128xf32>
  return %r : tensor<4x32x128xf32>
}

func.func @deep(%a: tensor<256x512xf32>, %b: tensor<512x384xf32>,
                %c: tensor<128x64xf32>, %d: tensor<64x256xf32>)
    -> (tensor<256x384xf32>, tensor<128x256xf32>) {
  %ah = trace.cast %a : tensor<256x512xf32> to tensor<256x512xf16>
  %bh = trace.cast %b : tensor<512x384xf32> to tensor<512x384xf16>
  %ab = trace.matmul %ah, %bh : (tensor<256x512xf16>, tensor<512x384xf16>) -> tensor<256x384xf16>
  %cb = trace.cast %c : tensor<128x64xf32> to tensor<128x64xbf16>
  %db = trace.cast %d : tensor<64x256xf32> to tensor<64x256xbf16>
  %cd = trace.matmul %cb, %db : (tensor<128x64xbf16>, tensor<64x256xbf16>) -> tensor<128x256xbf16>
  %r0 = trace.cast %ab : tensor<256x384xf16> to tensor<256x384xf32>
  %r1 = trace.cast %cd : tensor<128x256xbf16> to tensor<128x256xf32>
  return %r0, %r1 : tensor<256x384xf32>, tensor<128x256xf32>
}
