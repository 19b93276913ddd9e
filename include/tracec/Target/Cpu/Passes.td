//===- Passes.td - tracec CPU code generation passes -*- tablegen -*-===//

#ifndef TRACEC_TARGET_CPU_PASSES
#define TRACEC_TARGET_CPU_PASSES

include "mlir/Pass/PassBase.td"

def TraceContractionLoopOrder : Pass<"trace-contraction-loop-order"> {
  let summary = "Order a contraction's loops so the innermost one is "
                "contiguous (m, k, n for a matmul)";
  let description = [{
    linalg.matmul and its kin lower to loops in (m, n, k) order, whose inner
    reduction walks a column of the right operand. Moving the reduction
    loops outside the last parallel loop gives (m, k, n): the inner loop
    reads a row of the right operand and updates a row of the result, both
    contiguous, which LLVM vectorizes. Contractions (matmul, batch_matmul,
    and generics shaped like them) are generalized and interchanged.
  }];
}

// The contraction route, IREE's on CPU: pack (data tiling) -> tile (cache
// tiles, a parallel outer loop) -> vectorize (the register tile becomes a
// vector.contract) on tensors; after bufferization the contracts become
// FMAs. Sizes come from the target CPU's vector unit (ContractionTiling.h).

defvar CpuOption = Option<"cpu", "cpu", "std::string", /*default=*/"\"native\"",
    "CPU whose vector unit sizes the micro-kernel: native (the host) or an "
    "LLVM CPU name such as skylake-avx512 or haswell">;

def TracePackContractions : Pass<"trace-cpu-pack-contractions"> {
  let summary = "Pack contractions into the layout of the FMA micro-kernel";
  let description = [{
    Data tiling on tensors. Each floating-point contraction with static
    shapes (linalg.matmul, batch_matmul, generics with transposed operands;
    conv_2d_nhwc_hwcf after an im2col rewrite) becomes linalg.pack of its
    operands into tiles, a contraction over the packed tensors, and
    linalg.unpack of the result:
      lhs  [M1][K1][k0][m0]   (M1 = ceil(M / m0), ...)
      rhs  [N1][K1][k0][n0]
      acc  [M1][N1][m0][n0]
    so the micro-kernel reads both operands contiguously whatever their
    original layout: a transposed operand is absorbed by its pack. Sizes
    not divisible by the tile are padded with zeros. The packed op carries
    `trace.micro_kernel = [m0, n0, k0]` for the later steps.
  }];
  let options = [CpuOption];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::arith::ArithDialect"];
}

def TraceTileContractions : Pass<"trace-cpu-tile-contractions"> {
  let summary = "Tile packed contractions for the caches and the registers";
  let description = [{
    Tiles each op marked `trace.micro_kernel` (by trace-cpu-pack-contractions)
    on tensors: an scf.forall over mc x nc blocks of the result (and the
    batch dims), which later passes may split across cores; inside it, an
    scf.for over kc-sized slices of the reduction, loops over the m0 x n0
    register tiles, and the innermost loop over k. What remains is one
    micro-kernel step: [m0, n0, k0] of the packed op. Also tiles the packs
    and unpacks so each moves a few tiles at a time.
  }];
  let options = [CpuOption];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::affine::AffineDialect",
                           "mlir::tensor::TensorDialect"];
}

def TraceVectorizeContractions : Pass<"trace-cpu-vectorize-contractions"> {
  let summary = "Vectorize micro-kernel steps, packs and unpacks";
  let description = [{
    Rewrites each micro-kernel step left by trace-cpu-tile-contractions as
    vector.contract on vector.transfer_read/write, and the tiled packs and
    unpacks as vector transfers and transposes. The accumulator tile is
    hoisted out of the k loop, so it lives in registers while k runs.
  }];
  let dependentDialects = ["mlir::vector::VectorDialect",
                           "mlir::tensor::TensorDialect"];
}

def TraceLowerContractionVectors
    : Pass<"trace-cpu-lower-contraction-vectors"> {
  let summary = "Lower vector contractions to FMAs, transfers to loads";
  let description = [{
    After bufferization: hoists the accumulator's transfers out of loops
    that do not write it, lowers vector.contract to outer products (one
    broadcast FMA per row of the register tile), and transfers, transposes
    and shape casts to the 1-D loads, stores and shuffles that
    convert-vector-to-llvm takes.
  }];
  let dependentDialects = ["mlir::vector::VectorDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect"];
}

#endif // TRACEC_TARGET_CPU_PASSES
