//===- Passes.td - tracec transformations --------------------*- tablegen -*-===//

#ifndef TRACEC_TRANSFORMS_PASSES
#define TRACEC_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def TraceReadOnlyInputs : Pass<"trace-readonly-inputs", "::mlir::ModuleOp"> {
  let summary = "Keep bufferization from writing into a public function's inputs";
  let description = [{
    Marks every tensor argument of a public function
    `bufferization.writable = false`. The caller owns those buffers (the
    destination-passing convention), so an in-place update must copy first
    instead of clobbering the caller's data. Private functions are left to
    the bufferization analysis, which sees all their call sites.
  }];
}

def TraceDistinctResults : Pass<"trace-distinct-results", "::mlir::ModuleOp"> {
  let summary = "Give every function result its own tensor";
  let description = [{
    A function that returns one value twice (`return %x, %x`, as the
    gradient of `x + y` with respect to both operands does) gets a copy
    (`bufferization.alloc_tensor copy(...)`) for each repeat, so that after
    bufferization every result can become its own out-parameter.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def TraceExpandCopies : Pass<"trace-expand-copies"> {
  let summary = "Rewrite memref.copy as linalg.copy, so it becomes loops";
  let description = [{
    The LLVM lowering turns a memref.copy between strided (non-contiguous)
    buffers into a call of `memrefCopy` from MLIR's C runner library.
    Compiled code must need only libc and libm, so copies become linalg
    copies, which the loop lowering expands inline.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
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

def TraceAutoDiff : Pass<"trace-autodiff", "::mlir::ModuleOp"> {
  let summary = "Differentiate functions: generate forward/backward functions "
                "and rewrite trace.grad, trace.value_and_grad and trace.vjp";
  let description = [{
    For each function `f` a gradient op references, generates `__forward_f`
    (f's results plus the residuals the backward function needs — only
    those), `__backward_f` (residuals and result cotangents -> argument
    cotangents) and `__inference_f` (the primal alone, which plain calls of
    `f` then use). Gradient ops become calls of the forward and backward
    functions. Gradient ops inside a function are rewritten before that
    function is differentiated, so grad of grad works. Rules come from
    DifferentiableOpInterface; fan-in cotangents are summed.
  }];
  // Rules of control flow build arith, scf and tensor ops.
  let dependentDialects = ["::mlir::trace::TraceDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def TraceAutoControlDeps : Pass<"trace-auto-control-deps", "::mlir::ModuleOp"> {
  let summary = "Order stateful ops with control tokens and keep them alive "
                "(TensorFlow's automatic control dependencies)";
  let description = [{
    Per function, and recursively in the regions of scf.if/for/while (a
    region starts from the state at its op and may use outer tokens):
    - ops on the same resource keep program order: a read waits for the last
      write, a write for the last write and every read since it; reads are
      not ordered among themselves; different resources are not ordered;
    - ops with effects on no particular resource (print, random_*) and calls
      of functions with such effects (or of external functions) are ordered
      with every other stateful op;
    - resources that may alias count as one: the same SSA value, and two
      parameters of a function that some call passes one resource for;
    - a func.call of a function that touches state is a stateful op on the
      resources passed to it, reading/writing what the callee (transitively)
      reads/writes. It takes no `after` tokens, so its tensor operands are
      routed through `trace.identity ... after(...)` instead;
    - the tensor results of a function (of a region: its yield) are routed
      through `trace.identity ... after(...)` on the last stateful ops of
      the block, so none can be dropped as dead. Stateful ops that no result
      can wait for (a function without tensor results) stay alive through
      their declared memory effects.
    Tokens are only added, never removed, and only where no token already
    orders the op; running the pass twice changes nothing. What an op reads
    and writes comes from MemoryEffectOpInterface; a stateful op's `after`
    tokens are its trailing operands. Tokens cannot leave a region or a call
    (scf ops and func.call yield no token): ops after one are ordered after
    it by its memory effects only.
  }];
  let dependentDialects = ["::mlir::trace::TraceDialect"];
}

def TraceLowerState : Pass<"trace-lower-state", "::mlir::ModuleOp"> {
  let summary = "Variables become caller-owned buffers updated in place";
  let description = [{
    Each `!trace.resource<tensor<S x T>>` function argument becomes a
    `memref<S x T>` argument: the caller's buffer, which the function reads
    and writes in place. `trace.var.read` becomes a snapshot of the buffer's
    current contents (`bufferization.to_tensor` of the buffer copied into a
    fresh tensor by `bufferization.alloc_tensor copy(...)`), so a later write
    cannot change an earlier read. `trace.var.assign` writes its value into
    the buffer (`bufferization.materialize_in_destination ... restrict
    writable`); `assign_add`/`assign_sub` snapshot the buffer, compute with
    `trace.add`/`trace.sub` (lowered by trace-to-linalg) and write back.
    `trace.random_uniform`/`random_normal` get a run counter each (a
    private i64 `memref.global`, 0 in a fresh module, advanced by
    `memref.atomic_rmw` on every run) and draw Philox4x32-10 numbers in a
    `linalg.generic` keyed by the op's seed. `trace.print` becomes a call of
    `tracec_print_tensor` (tracec/Runtime/PrintCallback.h) on a contiguous
    copy of its tensor.
    Control tokens and `trace.identity ... after(...)` are erased: the
    block's program order, made consistent with the tokens by
    trace-auto-control-deps, carries the order.
  }];
  let dependentDialects = ["::mlir::trace::TraceDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::tensor::TensorDialect"];
}

//===----------------------------------------------------------------------===//
// GPU
//===----------------------------------------------------------------------===//

def TraceGpuManagedBuffers : Pass<"trace-gpu-managed-buffers", "::mlir::ModuleOp"> {
  let summary = "Put every buffer a kernel may touch in CUDA managed memory";
  let description = [{
    Runs on bufferized host functions, before loops are mapped to the GPU.
    A kernel can only reach memory the driver knows, so:
    - `memref.alloc`/`memref.alloca` become `gpu.alloc host_shared` (CUDA
      managed memory: one address valid on the host and the device, pages
      migrate to whichever touches them) and their deallocations
      `gpu.dealloc`;
    - the caller's buffers (memref arguments of public functions) and
      constants (`memref.get_global`) get managed twins where they enter
      the function, filled by a copy if the function may read them; before
      each return, the twins of arguments the function may write (outputs,
      variables) are copied back. What an op reads and writes comes from
      MemoryEffectOpInterface; ops that declare nothing are assumed to do
      both. A mutable global that no linalg op uses (a random op's run
      counter, advanced atomically by host code) is left in place.
    Host code that remains (loops not mapped to the GPU, copies) reads and
    writes the same managed buffers after each synchronous launch, so the
    result is correct whichever side runs an op.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
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

#endif // TRACEC_TRANSFORMS_PASSES
