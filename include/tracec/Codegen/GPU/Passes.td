//===- Passes.td - tracec GPU (CUDA) code generation passes -*- tablegen -*-===//

#ifndef TRACEC_TARGET_CUDA_PASSES
#define TRACEC_TARGET_CUDA_PASSES

include "mlir/Pass/PassBase.td"

def TraceGpuManagedBuffers : Pass<"trace-gpu-managed-buffers", "::mlir::ModuleOp"> {
  let summary = "Put every buffer a kernel may touch in CUDA managed memory";
  let description = [{
    Runs on bufferized host functions, before loops are mapped to the GPU.
    A kernel can only reach memory the driver knows, so:
    - `memref.alloc`/`memref.alloca` become `gpu.alloc host_shared` (CUDA
      managed memory: one address valid on the host and the device, pages
      migrate to whichever touches them) and their deallocations
      `gpu.dealloc`;
    - the caller's buffers (memref arguments of public functions) that are
      managed memory already (`tracec_cuda_is_managed`, asked at entry: a
      GPU function's results, `device_put`) are used in place; the others
      and constants (`memref.get_global`) get managed twins where they enter
      the function, filled by a copy if the function may read them or
      write only part of them (a variable's other elements go back as they
      were), unless its first access overwrites the whole buffer (a fill,
      an elementwise op that ignores the old value: an output the function
      writes and then reads back needs no copy in); before each return,
      the twins of arguments the function may write (outputs, variables)
      are copied back. What an op reads and writes comes from
      MemoryEffectOpInterface; ops that declare nothing are assumed to do
      both. A mutable global that no linalg op uses (a random op's run
      counter, advanced atomically by host code) is left in place.
    Host code that remains (loops not mapped to the GPU, copies) reads and
    writes the same managed buffers after each synchronous launch, so the
    result is correct whichever side runs an op.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def TraceGpuSyncManagedAllocs
    : Pass<"trace-gpu-sync-managed-allocs", "::mlir::func::FuncOp"> {
  let summary = "Take managed allocations out of gpu-async-region's chain";
  let description = [{
    Runs after upstream's `gpu-async-region`, which puts the launches,
    copies and frees of a function on one stream, in order, and the host's
    waits only where host code touches memory. It makes `gpu.alloc
    host_shared` (CUDA managed memory) asynchronous too, which
    `gpu-to-llvm` cannot lower (MLIR 22: no stream-ordered managed
    allocation). Each such allocation becomes synchronous again, at its
    place (cuMemAllocManaged blocks the host anyway, and the memory it
    returns is idle), and the ops that waited on its token wait on its
    dependencies instead.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def TraceGpuBlockReductions
    : Pass<"trace-gpu-block-reductions", "::mlir::func::FuncOp"> {
  let summary = "Reduce with a block of threads per output element, "
                "combined as a tree";
  let description = [{
    Rewrites a linalg.generic on buffers that reduces (static shapes, one
    f32 or i32 output, a body `yield combine(f(inputs), out)` with combine
    one of add, mul, max, min, and, or, xor; not a contraction with two or
    more parallel dimensions such as a matmul, nor a convolution) into a
    `gpu.launch` with one block per output element: each thread folds a
    strided share of the reduction space into a partial result, then
    `gpu.all_reduce` combines the block's partials as a tree (warp
    shuffles, shared memory between warps) and thread 0 folds the total
    into the output. Full reductions (no parallel dimension) thus run on
    the GPU too. Other ops are left to the loop lowering.
  }];
  let options = [
    Option<"threads", "threads", "int64_t", "256",
           "Threads per block (a power of two, 32 to 1024); fewer when the "
           "reduction is shorter">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def TraceGpuRowBlocks : Pass<"trace-gpu-row-blocks", "::mlir::func::FuncOp"> {
  let summary = "A chain of ops that work along rows as one kernel, a "
                "block per row (softmax, layer norm)";
  let description = [{
    Finds runs of linalg ops on buffers around a block reduction whose
    leading k dims are parallel (the rows), such as softmax's max, exp,
    sum and divide with their fills, where every op has the rows as its
    leading parallel dims and each buffer the run writes is accessed only
    at the row being computed (the row dims as whole indices, at the same
    positions in every access; not through views). It rewrites each run
    into one `gpu.launch` with a block per row that runs the ops in turn,
    a `gpu.barrier` between them: the threads take strided turns over
    each op's other dims, reductions combine as in
    trace-gpu-block-reductions, and ops over the rows alone run on thread
    0. Ops between the run's that touch no memory or allocate move before
    the kernel, deallocations after it. Other ops are left alone.
  }];
  let options = [
    Option<"threads", "threads", "int64_t", "256",
           "Threads per block (a power of two, 32 to 1024); fewer when the "
           "rows are shorter">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def TraceGpuMmaMatmul : Pass<"trace-gpu-mma-matmul", "::mlir::func::FuncOp"> {
  let summary = "Matmul on tensor cores (mma.sync)";
  let description = [{
    Rewrites a `linalg.matmul` on static buffers whose shape tiles into
    tensor-core instructions into a `gpu.launch` whose warps keep tiles of
    C in registers (a fragment per lane) while they step along k, one
    `nvgpu.mma.sync` (PTX `mma.sync.aligned`) per 16 x 8 tile and k-step.
    Where C tiles into 128 x 128 (or 64 x 64) blocks, k into 64-byte slabs
    and A and B are row-major buffers, a block of 8 (4) warps stages A's
    and B's slabs through shared memory with `nvgpu.device_async_copy`
    (PTX `cp.async`, 16 bytes a copy), three stages deep in dynamic shared
    memory so that the next two slabs' copies run under this one's
    products, and its warps take their
    16-bit fragments by `nvgpu.ldmatrix`. That kernel also runs batched
    matmuls (a grid z per batch) and A or B transposed (`linalg.generic`
    contractions that widen and multiply-add: trace.matmul's
    `transpose_a`/`transpose_b` of f16): each slab keeps its operand's
    layout, and ldmatrix transposes where it differs from the fragment's.
    Adjacent m dims (a dense layer on [batch, tokens, features]) are first
    collapsed into one (`linalg::collapseOpIterationDims`).
    Else, for a plain `linalg.matmul` of whole mma tiles, one warp per
    16 x 8 tile of C (grid n/8 x m/16, 32 threads) loads its fragments
    from global memory.
    The instructions:
    - f16 x f16 -> f32 (trace.matmul of f16) or -> f16, and bf16 x bf16
      -> f32: m16n8k16 (bf16 as `nvvm.mma.sync`: MLIR 22's nvgpu-to-nvvm
      cannot type bf16 multiplicands);
    - f32 x f32 -> f32 with `tf32`: m16n8k4 in TF32 (10-bit mantissa
      products, f32 accumulation: PyTorch's `allow_tf32`, JAX's default
      precision on GPUs); without it, f32 matmuls keep full precision.
    Other matmuls (other sizes and types, transposed or batched operands
    that do not tile into whole blocks) are left to
    `trace-gpu-tiled-matmul`. Needs sm_80 or newer (the pipeline
    runs it only there).
    With `wgmma` (sm_90a: the pipeline sets it for that chip), a plain
    matmul of row-major f16 or bf16 A (m x k) and B (k x n) into f32 C,
    m and n multiples of 128 and k of 64, runs first of all as one
    warpgroup per 128 x 128 tile of C (WarpgroupMmaTiles.h): one thread
    loads A's and B's 64-deep slabs by TMA (tensor maps the host creates,
    128-byte swizzled), 4 stages deep in dynamic shared memory, each
    stage's arrival an mbarrier phase; the warpgroup multiplies them with
    `wgmma.mma_async` on shared-memory descriptors, asynchronously under
    the wait for the next slab.
  }];
  let options = [
    Option<"tf32", "tf32", "bool", "false",
           "f32 matmuls on tensor cores in TF32 (f32 accumulation)">,
    Option<"wgmma", "wgmma", "bool", "false",
           "16-bit matmuls by TMA and wgmma (sm_90a)">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def TraceGpuTiledMatmul : Pass<"trace-gpu-tiled-matmul", "::mlir::func::FuncOp"> {
  let summary = "Matmul as a shared-memory tiled kernel";
  let description = [{
    Rewrites a contraction on static buffers of one element type (float or
    integer) with one m, one n and one k dimension (linalg.matmul,
    transposed operands, batch_matmul and broadcast batch dimensions) into
    a `gpu.launch` in which each block
    computes a `tile` x `tile` tile of the result (batch over the grid's z):
    for each `tile`-wide slab of k, its threads copy one element of A and of
    B into shared memory (`#gpu.address_space<workgroup>`; zero outside the
    matrices), `gpu.barrier`, accumulate `tile` products from shared
    memory, `gpu.barrier`; then add their sum to C. Other contractions are
    left to the loop lowering.
  }];
  let options = [
    Option<"tile", "tile", "int64_t", "16",
           "Tile edge: tile x tile threads per block, at most 32">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def TraceGpuTileParallelLoops
    : Pass<"trace-gpu-tile-parallel-loops", "::mlir::func::FuncOp"> {
  let summary = "Tile each outermost scf.parallel into blocks of threads";
  let description = [{
    Splits every outermost `scf.parallel` into a loop over tiles (mapped to
    blocks by gpu-map-parallel-loops) around a loop inside a tile (mapped to
    threads). Without `tile-sizes`, the innermost (contiguous) dimensions
    get up to `threads` threads, so neighbouring threads touch neighbouring
    elements (coalesced loads and stores). Out-of-range threads of a partial
    tile are masked by an `scf.if`.
  }];
  let options = [
    Option<"threads", "threads", "int64_t", "256",
           "Threads per block when tile-sizes is not given">,
    ListOption<"tileSizes", "tile-sizes", "int64_t",
               "Tile sizes of the innermost parallel dimensions, outermost "
               "first (the last is the innermost dimension)">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def TraceGpuGridStride : Pass<"trace-gpu-grid-stride", "::mlir::func::FuncOp"> {
  let summary = "Clamp each gpu.launch's grid to CUDA's limits; blocks "
                "stride over the rest";
  let description = [{
    A grid dimension whose size is not a constant within CUDA's limits
    (x: 2^31 - 1 blocks, y and z: 65535) -- a size computed at run time
    from dynamic dims -- is launched with `max(1, min(size, limit))` blocks,
    and the kernel's body runs in a grid-stride loop
    `for b = block_id to size step grid_dim`, with `b` in place of the block
    id. So a launch never exceeds the limits, a size of 0 launches one block
    that does nothing, and every block runs the same number of iterations
    as its other threads (barriers stay uniform). Where the body
    synchronizes (a barrier, `gpu.all_reduce`, workgroup memory), each
    iteration ends with a `gpu.barrier`, so no thread starts reusing shared
    memory that others still read. Runs on `gpu.launch` before outlining.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect"];
}

def TraceGpuAlignWorkgroupBuffers
    : Pass<"trace-gpu-align-workgroup-buffers", "::mlir::gpu::GPUFuncOp"> {
  let summary = "Align a kernel's shared-memory buffers to 16 bytes";
  let description = [{
    convert-gpu-to-nvvm places a workgroup attribution (a `gpu.launch`'s
    shared-memory buffer) at the alignment of its element type unless the
    attribution says otherwise (`llvm.align`); `cp.async` of 16 bytes and
    `ldmatrix` read and write 16 aligned bytes of shared memory at a time.
    This pass asks for 16 bytes for every attribution that has no alignment
    of its own (at most 15 bytes of padding each).
  }];
}

def TraceGpuExternDynamicShared
    : Pass<"trace-gpu-extern-dynamic-shared", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Declare a kernel module's dynamic shared memory `.extern`";
  let description = [{
    convert-gpu-to-nvvm lowers `gpu.dynamic_shared_memory` to an internal
    zero-length shared array, which the NVPTX back end emits as a one-byte
    static variable (`.shared .align 16 .b8 x;`): the launch's dynamic
    bytes then start wherever the static ones end, and writes through the
    variable overrun the static arrays laid out after it (the mbarriers of
    a TMA kernel). A declaration with external linkage is what PTX means
    by dynamic shared memory (`.extern .shared .align 16 .b8 x[];`, placed
    after every static array), so this pass gives every zero-length
    shared-memory global of the module external linkage.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def TraceGpuExpandMath : Pass<"trace-gpu-expand-math"> {
  let summary = "Expand math functions into arithmetic, for kernels that "
                "link no libdevice";
  let description = [{
    convert-gpu-to-nvvm turns math functions (exp, tanh, erf, log1p, ...)
    into calls of CUDA's libdevice (`__nv_expf`), which only the CUDA SDK
    provides; unresolved, the PTX does not load. This pass computes f16 and
    bf16 functions in f32, expands tanh, sinh, powers and the like into
    simpler ops, and replaces the f32 ones by MLIR's polynomial
    approximations (those of the CPU's vectorized math). What is left
    (floor, sqrt, fma, ...) trace-nvvm-native-math defines. f64 functions
    are left to libdevice (see trace-nvvm-native-math).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def TraceNvvmNativeMath : Pass<"trace-nvvm-native-math"> {
  let summary = "Define the libdevice functions NVPTX implements natively";
  let description = [{
    Runs after convert-gpu-to-nvvm, which turns floor, ceil, fabs, sqrt,
    fma, copysign, trunc, rint and round into declarations of libdevice
    functions (`__nv_floorf`, ...). Each such declaration gets an internal
    body calling the LLVM intrinsic, which the NVPTX back end compiles to
    one instruction (`cvt.rmi.f32.f32`, `sqrt.rn.f32`, ...), so the PTX
    needs no libdevice. Other libdevice functions (f64 exp, log, sin, ...)
    are left for gpu-module-to-binary to link where a CUDA toolkit is found
    (CUDA_ROOT, CUDA_HOME, CUDA_PATH); where none is, each is an error at
    its call, since the module would not load.
  }];
}

def TraceNvvmAttachTarget : Pass<"trace-nvvm-attach-target", "::mlir::ModuleOp"> {
  let summary = "Attach a checked #nvvm.target to every gpu.module";
  let description = [{
    Like nvvm-attach-target, but an unknown chip or a PTX version the chip
    does not support is a diagnostic instead of an abort inside LLVM's NVPTX
    back end. Without `features`, the chip's minimum PTX version is used.
  }];
  let options = [
    Option<"chip", "chip", "std::string", "\"sm_80\"",
           "NVIDIA GPU architecture (sm_80, sm_90, sm_90a, ...)">,
    Option<"features", "features", "std::string", "\"\"",
           "PTX features such as +ptx80 (default: the chip's minimum)">,
    Option<"optLevel", "O", "unsigned", "3", "LLVM optimization level">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::NVVM::NVVMDialect"];
}

def TracePrintGpuAssembly : Pass<"trace-print-gpu-assembly", "::mlir::ModuleOp"> {
  let summary = "Print the assembly (PTX) of every gpu.binary to stdout";
  let description = [{
    `gpu-module-to-binary{format=isa}` embeds PTX in a `gpu.binary` as an
    escaped string. This pass prints each object's text as is, preceded by
    `// gpu.binary @name (target)`, for FileCheck and for reading; use it
    with `-o /dev/null`.
  }];
}

#endif // TRACEC_TARGET_CUDA_PASSES
