//===- Passes.td - tracec CPU code generation passes -*- tablegen -*-===//

#ifndef TRACEC_TARGET_CPU_PASSES
#define TRACEC_TARGET_CPU_PASSES

include "mlir/Pass/PassBase.td"

def TraceCpuInlineAllocaScopes : Pass<"trace-cpu-inline-alloca-scopes"> {
  let summary = "Inline the stack scopes of parallel bodies that allocate "
                "nothing on the stack themselves";
  let description = [{
    After convert-scf-to-openmp, which wraps each parallel body in a
    memref.alloca_scope: inlines each scope whose body has no memref.alloca,
    llvm.alloca or nested scope. The canonicalizer keeps a scope around a
    call (a micro-kernel's, trace-cpu-lower-to-ukernels), an op it cannot
    see into, though a callee allocates in its own frame; kept, the scope
    must stay one block, and the loops beside the call turn into blocks
    (invalid IR).
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

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

def TraceCpuDirectFilterGradients
    : Pass<"trace-cpu-direct-filter-gradients"> {
  let summary = "Compute conv2d_backprop_filter as register tiles of the "
                "gradient, before trace-to-linalg";
  let description = [{
    Each trace.conv2d_backprop_filter of f32 or f64 with static shapes
    becomes loops on tensors (lib/Codegen/CPU/DirectConvolution.cpp): per
    tap row kh, the gradient is a matrix of KW * C rows (kw, c) by F; a
    register tile of R rows by n0 channels (one or two vectors) is reduced
    over a block of output pixels by one vector.outerproduct per pixel
    (dy's row of n0 channels times the R input values the rows read there)
    and added to the task's partial gradient. Four tasks (an scf.forall)
    split the output rows (n, oh) and walk them in blocks of about 512
    pixels, all tiles per block, so x and dy stay in cache; the partials
    are summed at the end. Sums are blocked (a row of pixels, a block, a
    task, the tasks): f32 error within 2x of PyTorch's. x is read in
    place, never padded (a padded copy cost 10% of a strided gradient):
    output rows whose tap row falls on the padding are skipped, and only
    the output columns outside the interior, where some row of the tile
    reads padding, load x under a guard. Runs on the trace
    op, before trace-to-linalg's per-tap matmuls (which the GPU keeps), so
    it needs no pattern matching of their loops.
  }];
  let options = [CpuOption];
  let dependentDialects = ["mlir::tensor::TensorDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::vector::VectorDialect"];
}

def TracePackContractions : Pass<"trace-cpu-pack-contractions"> {
  let summary = "Pack contractions into the layout of the FMA micro-kernel";
  let description = [{
    Data tiling on tensors. Each floating-point contraction with static
    shapes and at least `min-work` multiply-adds (smaller ones stay loops:
    packs, padding and the kernel's code cost more there) (linalg.matmul,
    batch_matmul, generics with transposed operands;
    conv_2d_nhwc_hwcf of `?` sizes after an im2col rewrite) becomes
    linalg.pack of its
    operands into tiles, a contraction over the packed tensors, and
    linalg.unpack of the result:
      lhs  [M1][K1][k0][m0]   (M1 = ceil(M / m0), ...)
      rhs  [N1][K1][k0][n0]
      acc  [M1][N1][m0][n0]
    so the micro-kernel reads both operands contiguously whatever their
    original layout: a transposed operand is absorbed by its pack. Sizes
    not divisible by the tile are padded with zeros. The packed op carries
    `trace.micro_kernel = [m0, n0, k0]` for the later steps.

    conv_2d_nhwc_hwcf of f32/f64 with static shapes is not packed: it
    becomes loops of its own (DirectConvolution.cpp), an scf.forall over
    output rows (n, oh) whose register tiles of R pixels by n0 channels
    (one vector of channels when F is at most one, else two) are
    vector.outerproduct steps over (kh, kw, c), reading the input in place:
    no im2col matrix and no packed copy. Nor a padded copy: where the input
    is a tensor.pad with zeros around its rows and columns (directly or
    through a unit-stride slice, as the phases of a strided input gradient
    read it), the convolution reads the pad's source; tap rows on the
    padding are skipped, and only the tiles whose taps reach a padded
    column load under a guard.
  }];
  let options = [
    CpuOption,
    Option<"minWork", "min-work", "int64_t", /*default=*/"4096",
           "Multiply-adds (the product of the loop sizes) below which a "
           "contraction is not packed">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::vector::VectorDialect"];
}

def TraceTileContractions : Pass<"trace-cpu-tile-contractions"> {
  let summary = "Tile packed contractions for the caches and the registers";
  let description = [{
    Tiles each op marked `trace.micro_kernel` (by trace-cpu-pack-contractions)
    on tensors: an scf.forall over mc x nc blocks of the result (and the
    batch dims), which later passes may split across cores, each block
    zeroed by its own task where a linalg.fill only initialized the result;
    inside it, an
    scf.for over kc-sized slices of the reduction, loops over the m0 x n0
    register tiles, and the innermost loop over k. What remains is one
    micro-kernel step: [m0, n0, k0] of the packed op. Also tiles the packs
    and unpacks so each moves a few tiles at a time. A pack of a `?` size
    pads its operand only when the size is not a multiple of the tile at
    run time (an scf.if); otherwise it reads the operand itself.

    With `ukernels`, contractions and relayouts that the precompiled
    micro-kernels of include/tracec/ABI/tracec_ukernels.h take (f32 on an
    AVX2+FMA or AVX-512 target) stop earlier: a contraction at its kc
    panels (inside the scf.forall of tasks), a pack's or unpack's
    transpose in an scf.forall of tasks of 128 KiB or more (one task where
    the shape is dynamic); each is marked `trace.ukernel` for
    trace-cpu-lower-to-ukernels. The rest is tiled as above. With
    `ukernel-relayouts`, only the relayouts go to the micro-kernel: the
    generated relayouts are most of the IR of a training step's
    contractions, and the kernel moves them as fast.
  }];
  let options = [
    CpuOption,
    Option<"ukernels", "ukernels", "bool", /*default=*/"false",
           "Leave what the micro-kernel library takes to "
           "trace-cpu-lower-to-ukernels">,
    Option<"ukernelRelayouts", "ukernel-relayouts", "bool",
           /*default=*/"false",
           "Leave the relayouts (the transposes of packs and unpacks) that "
           "the micro-kernel library takes to trace-cpu-lower-to-ukernels">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::affine::AffineDialect",
                           "mlir::tensor::TensorDialect"];
}

def TraceLowerToUkernels : Pass<"trace-cpu-lower-to-ukernels", "ModuleOp"> {
  let summary = "Call precompiled micro-kernels for marked contractions";
  let description = [{
    On buffers, after trace-cpu-tile-contractions{ukernels=1} and
    bufferization: each op marked `trace.ukernel` becomes a func.call of an
    external kernel of include/tracec/ABI/tracec_ukernels.h, in the variant
    the target CPU's features pick (never the build machine's):
      - a kc panel of a packed contraction -> tracec_uk_mmt4d_f32_<isa>
        with the aligned base pointer, offset, sizes and strides of the
        packed lhs, rhs and accumulator (memref.extract_strided_metadata);
      - a pack's or unpack's linalg.transpose -> tracec_uk_transpose_f32_*
        with sizes and both sides' strides (up to 6 dims);
      - with `copies`, every linalg.copy of f32 or i32 buffers at a
        function's top level (pads, unpacked results, outputs; marked or
        not) -> the same kernel, as a bitwise copy (one call: serial, where
        the generated copy is a loop threads can split).
    Kernels are declared once per module. An op whose layout the kernel
    cannot take (inner tiles not contiguous) is left as it is, and is
    lowered to loops. The JIT resolves the symbols to TracecUkernels.
  }];
  let options = [
    CpuOption,
    Option<"copies", "copies", "bool", /*default=*/"true",
           "Also call the relayout kernel for unmarked linalg.copy ops">,
  ];
  let dependentDialects = ["mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::LLVM::LLVMDialect"];
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
    broadcast FMA per row of the register tile) or, on bf16 pairs into f32
    (k0 = 2) where `cpu` has AVX512_BF16, to x86vector.avx512.dot
    (vdpbf16ps, one per 16 columns of a row), and transfers, transposes and
    shape casts to the 1-D loads, stores and shuffles that
    convert-vector-to-llvm takes.
  }];
  let options = [CpuOption];
  let dependentDialects = ["mlir::vector::VectorDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::x86vector::X86VectorDialect"];
}

def TraceCpuFuseRows : Pass<"trace-cpu-fuse-rows", "func::FuncOp"> {
  let summary = "Run chains through row reductions (softmax, layer norm) "
                "one row at a time";
  let description = [{
    linalg.reduce becomes linalg.generic and single-use elementwise
    producers fuse into it (the square of a variance into its sum). Then
    each chain that ends in an elementwise op fed by a reduction along the
    innermost loops is tiled to one row (every loop but the innermost, by
    1) with all its producers fused into the row loop: softmax's max, exp,
    sum and division run on one row while it is in L1, so the input is read
    from memory once and the result written once, and no whole-tensor
    intermediate exists.
  }];
  let dependentDialects = [
    "mlir::linalg::LinalgDialect", "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect",
  ];
}

def TraceCpuVectorize : Pass<"trace-cpu-vectorize", "func::FuncOp"> {
  let summary = "Tile elementwise ops and reductions to the target's vector "
                "width and vectorize them (linalg on tensors)";
  let description = [{
    Every linalg op on tensors that is not a contraction or a convolution
    (those are the contraction passes' job) and whose innermost loop walks
    its operands contiguously (or broadcasts them) is tiled to one vector
    of the target's width along the innermost loop and to 1 along the
    others, its innermost loop is peeled so that full tiles need no mask,
    and each tile is vectorized by linalg's vectorizer (the remainder tile
    with masks). A reduction along the innermost loop is tiled as a partial
    reduction: a vector of lane accumulators, reduced across lanes once
    after the loop. The vector width comes from the target CPU's features
    (AVX-512: 16 f32 lanes, AVX2: 8, SSE/NEON: 4), never from a constant.
    First, each static op that reduces over a window of at most 16 taps (a
    pooling, the window argmax and the gathers of pooling gradients: loops
    parallel then reduction, every input read at `stride * d + offset` once
    the window is fixed) becomes one elementwise linalg.generic that folds
    its accumulators with one strided slice of each input per tap, applying
    the op's own body in the window's order: vectorized along the channels
    like any elementwise op (the window loops innermost, no operand was
    contiguous along the innermost loop).
  }];
  let options = [
    Option<"targetCpu", "target-cpu", "std::string", /*default=*/"\"native\"",
           "CPU whose vector width to use: native (the host) or an LLVM CPU "
           "name such as skylake-avx512 or x86-64-v3">,
    Option<"dynamicInner", "dynamic-inner", "bool", /*default=*/"false",
           "Also vectorize ops whose innermost loop is dynamic (full vectors "
           "and a masked remainder). Off by default: the tiles keep elementwise "
           "chains from sharing a buffer (an allocation per call) and measured "
           "slower than the scalar loops LLVM vectorizes">,
  ];
  let dependentDialects = [
    "mlir::affine::AffineDialect", "mlir::arith::ArithDialect",
    "mlir::linalg::LinalgDialect", "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect", "mlir::vector::VectorDialect",
  ];
}

def TraceCpuLowerVectors : Pass<"trace-cpu-lower-vectors", "func::FuncOp"> {
  let summary = "Lower vectorized code on buffers to 1-D vector loads, "
                "stores and arithmetic";
  let description = [{
    After bufferization: keeps lane accumulators in registers across their
    loop (hoisting the transfers of loop-invariant buffers), lowers masks
    to masked loads and stores, drops unit dims, lowers multi-reductions to
    one reduction per row of lanes and the transfers to vector.load/store,
    so that convert-vector-to-llvm sees 1-D vectors only.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::memref::MemRefDialect",
    "mlir::scf::SCFDialect", "mlir::vector::VectorDialect",
  ];
}

def TraceCpuMathApproximation
    : Pass<"trace-cpu-math-approximation", "func::FuncOp"> {
  let summary = "Replace f32 math functions by polynomial approximations "
                "that vectorize";
  let description = [{
    math.exp, expm1, log, log2, log1p, tanh, erf, erfc, atan, atan2, asin,
    acos and cbrt on f32 (scalars and vectors; f16 and bf16 through f32)
    become upstream MLIR's polynomial approximations, built from arith
    ops, so a vector of 16 lanes costs a few FMAs per lane instead of 16
    libm calls. powf with a small integer or half-integer constant
    exponent becomes multiplications and sqrt. Their accuracy is tested
    against libm (unittests/Codegen/CPU/MathAccuracyTest.cpp); the bounds
    are in lib/Codegen/CPU/MathAccuracy.md. sin, cos, sqrt, rsqrt, pow with other
    exponents and every f64 function keep the lowering they had (LLVM
    intrinsics or libm).
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::math::MathDialect",
    "mlir::vector::VectorDialect",
  ];
}

def TraceParallelLoops : Pass<"trace-parallel-loops"> {
  let summary = "Keep one parallel loop per large loop nest, for OpenMP; "
                "make the rest serial";
  let description = [{
    Decides which loops run on several threads. For every outermost
    scf.parallel without results (linalg ops lowered by
    convert-linalg-to-parallel-loops, tiles from scf.forall), the work of
    its loop nest is estimated as the number of operations it executes
    (trip counts times the operations of each body; a dynamic trip count
    counts as large). A nest with at least `min-work` of them keeps its
    outermost loop of more than one iteration as a one-dimensional
    scf.parallel, which convert-scf-to-openmp turns into one
    omp.parallel/omp.wsloop; every other parallel loop of it, and every
    loop of a smaller nest, becomes scf.for. So small ops stay serial (no
    fork/join), each parallel region forks once, and the inner loops keep
    the serial code (and vectorization) they had. Only parallel
    dimensions are split, so results do not depend on the thread count.
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t", /*default=*/"32768",
           "Operations a loop nest must execute to run in parallel">,
  ];
  let dependentDialects = ["scf::SCFDialect"];
}

def TraceAdaptiveParallel
    : Pass<"trace-cpu-adaptive-parallel", "ModuleOp"> {
  let summary = "Fork only where forking was measured to pay: each entry "
                "times serial and parallel calls of itself";
  let description = [{
    Whether a function runs faster on several threads depends on the
    machine more than on its loop nests: the cost of a fork/join and of
    moving cache lines between cores differs by 10x between hosts (on the
    2-core VM a cache line takes 450 ns between the two cores; on one CCX
    well under 100 ns), and an operation count cannot know it. So every
    top-level omp.parallel gets an `if` clause that reads the module's
    mode (`__tracec_parallel_fork`), and every public function that forks
    (or calls a function that does) sets the mode for its call:
    `__tracec_call_begin` decides, `__tracec_call_end` times. Of every
    1,024 calls of an entry, the first runs untimed (it pays for first
    touches of memory), the next 8 alternate parallel and serial runs,
    timed with the cycle counter, and the others fork only if the fastest
    parallel call beat the fastest serial one by 1/16. Sampling stops
    early once one way beats the other by more than 30%, so that a short
    run of long calls is not spent on the slow way. Past the samples
    every call is timed too, and every 32nd runs the other way (every
    128th while that way is more than 30% slower): a decision that a
    burst on the host skewed (one slow sample can stop sampling early)
    is undone within 32 or 128 calls, at a cost of 1/32 of the calls
    when it was right, or 1/128 where the other way is much slower. Re-sampling follows the machine when its
    load or placement changes.
    A call made while another is in progress (nested, or from another
    host thread) keeps the mode and is not timed.

    The decision is per call, not per region: a region's data lives where
    the previous regions wrote it, so a region timed among serial ones
    says nothing about it among parallel ones (deciding per region made
    the CNN training step 20% slower than forking everywhere). A region
    that does not fork runs the same loop on the calling thread, so
    results do not depend on the choice. The policy is LLVM dialect
    source in the module: JIT and AOT code carry it with no runtime
    library.
  }];
  let dependentDialects = ["LLVM::LLVMDialect"];
}

def TraceDedupKernels : Pass<"trace-cpu-dedup-kernels", "ModuleOp"> {
  let summary = "Outline the ops a function repeats, on tensors, into one "
                "function each";
  let description = [{
    A graph unrolled over steps (a Python loop traced 64 times) repeats
    every step's ops, and each copy was tiled, vectorized, bufferized and
    lowered on its own: compile time grew with the copies, not with the
    distinct code. This pass runs on tensors, after packing, before
    tiling. The unit is a chain of work at the top level of a
    function body: ops that compute on tensors (linalg ops, packs, loops
    of them; static shapes only), each op joined to the chain of its
    one user when that user is work too (a fill and the packs into their
    contraction, its unpack, the elementwise op after it), so what the
    contraction passes fuse stays together. A chain with an equal twin
    somewhere in the module (the same ops, attributes and operand types,
    the same constants and empty tensors, which are cloned in) moves into
    a private function (`<function>_<last op>`) that every copy calls; a
    chain without one stays where it is, so graphs without repeats compile
    as before. Each such function is `noinline`, internal in LLVM, marked
    `trace.tensor_kernel` (trace-cpu-outline-kernels then makes a kernel of
    its loop nest even when it has one) and `trace.borrows_arguments` (the
    buffers its calls take stay the caller's, for the workspace plan). A
    slice passed to it is copied to a buffer of its own (function
    boundaries have identity layouts).
  }];
  let dependentDialects = ["func::FuncDialect", "LLVM::LLVMDialect"];
}

def TraceOutlineKernels : Pass<"trace-cpu-outline-kernels", "ModuleOp"> {
  let summary = "Outline each top-level loop nest of a function into a "
                "kernel function of its own";
  let description = [{
    A traced function lowers to one long LLVM function of hundreds of
    loops, and LLVM's cost grows with it: at -O3 its loop passes
    (IndVarSimplify, LoopLoadElimination, unrolling) took more than half
    of a JIT compile, re-analysing loops that the contraction and
    elementwise passes already tiled, unrolled and vectorized. This pass
    moves every loop nest at the top level of a function body (of a
    function with at least two of them) into a
    private function (`<function>_kernel<N>`) called in its place: the
    values it uses from above become arguments (constants are cloned in),
    and its results are returned. Each kernel is `noinline` and carries
    the LLVM function attribute `tracec-kernel`: `"vector"` when it holds
    vector code (LLVM then runs only a scalar cleanup pipeline on it, see
    CpuTarget.h), `"scalar"` otherwise (LLVM's full pipeline, which
    vectorizes the loops left scalar). A nest equal to one already
    outlined (the same ops on the same types, as every step of a graph
    unrolled over steps has) calls that kernel instead: the 64-step
    unrolled LSTM's training step outlines some 4,000 nests into about
    130 kernels, each lowered and compiled once. Kernels have internal
    linkage, so LLVM also merges those that became identical later (a
    forward function and a training step share their forward ops'
    kernels).
  }];
  let dependentDialects = ["func::FuncDialect", "LLVM::LLVMDialect"];
}

#endif // TRACEC_TARGET_CPU_PASSES
