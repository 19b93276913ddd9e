//===- Passes.td - tracec bufferization helpers passes -*- tablegen -*-===//

#ifndef TRACEC_TRANSFORMS_BUFFERIZATION_PASSES
#define TRACEC_TRANSFORMS_BUFFERIZATION_PASSES

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

def TraceEmptyTensorPerUse : Pass<"trace-empty-tensor-per-use"> {
  let summary = "Give every use of a tensor.empty its own tensor.empty";
  let description = [{
    CSE merges identical `tensor.empty` ops, so one of them can feed the
    `outs` of every same-shaped kernel of a function (1,086 in the
    64-step unrolled LSTM's training step). One-Shot Bufferize's analysis
    then puts all those results in one alias set and checks every
    in-place write against all of it: quadratic, 12.4 of the 38 s that
    step's pipeline took. An empty tensor has no contents, so a copy per
    use means the same; each alias set is then one kernel's (the same
    step: 0.75 s). Slices taken from the tensor and inserted back into it
    (`tensor.extract_slice` / `tensor.insert_slice`, the phases of a
    strided input gradient) stay on the original: one buffer, each slice
    written in place; apart, every insert would be a copy.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def TraceSplitDeallocs : Pass<"trace-split-deallocs"> {
  let summary = "Free each distinct allocation of a bufferization.dealloc "
                "with a dealloc of its own";
  let description = [{
    Ownership-based deallocation frees a function body's allocations with
    one `bufferization.dealloc` at its end (3,400 memrefs in the 64-step
    unrolled LSTM's training step), and buffer-deallocation-simplification
    splits it by asking, for each memref, whether it may alias any other:
    quadratic, 3 of that step's 27 s of pipeline. A memref that is the
    only one of the list to view its allocation (a `memref.alloc` result
    or a view of one) aliases none of the others, so it can be freed on
    its own at once. A dealloc with retained values, or with a memref of
    any other origin (an argument, a loop's result), is left whole.
  }];
}

def TraceExpandCopies : Pass<"trace-expand-copies"> {
  let summary = "Rewrite memref.copy as linalg.copy, so it becomes loops";
  let description = [{
    The LLVM lowering turns a memref.copy between strided (non-contiguous)
    buffers into a call of `memrefCopy` from MLIR's C runner library.
    Compiled code must need only libc and libm, so copies become linalg
    copies, which the loop lowering expands inline (the GPU pipeline maps
    them to kernels).

    Upstream has the hook but not the option: the `memCpyFn` of
    `OneShotBufferizationOptions` and of `BufferResultsToOutParamsOpts`
    would create linalg copies in the first place, but in LLVM 22 the
    constructors of one-shot-bufferize and buffer-results-to-out-params
    take only their generated option structs, which have no such field
    (only the transform op `transform.bufferization.one_shot_bufferize`
    has `memcpy_op`). Using the hook would mean a hand-written pass around
    `runOneShotModuleBufferize` and `promoteBufferResultsToOutParams`
    instead of this one.

    A copy between two same-shaped reshapes (collapse_shape, expand_shape)
    of one buffer writes every element onto itself and is dropped: a slice
    updated in place through reshapes that drop its unit dims bufferizes
    its tensor.insert_slice to one, which the canonicalizer's self-copy
    fold does not see.

    With `memcpy` (the CPU pipeline), a copy between two contiguous
    buffers (identity layouts, or static row-major ones) stays a
    memref.copy, which the LLVM lowering makes one `memcpy` call (libc):
    expanded after vectorization, it would be a scalar loop (a loop-carried
    1 MB weight gradient copied per iteration took 17% of an LSTM step).
  }];
  let options = [
    Option<"memcpy", "memcpy", "bool", /*default=*/"false",
           "Keep copies between contiguous buffers as memref.copy "
           "(lowered to memcpy); only for host memory">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def TracePlanWorkspace : Pass<"trace-plan-workspace", "::mlir::ModuleOp"> {
  let summary = "Place a function's intermediate buffers in one workspace "
                "that is allocated once";
  let description = [{
    Runs on buffers, after the deallocation pipeline, so that a warm call
    allocates nothing. In each function whose body is one block, every
    `memref.alloc` of that block with a static shape and identity layout,
    freed by one `memref.dealloc` in that block and not passed to a call,
    a return or a region (loop-carried values), becomes a `memref.view` at
    a fixed offset of one workspace, and its dealloc goes. Offsets are
    planned from lifetimes (first to last use of the buffer and its
    views, in block order): buffers that are never live at once share
    bytes, the largest placed first (greedy by size), each 64-byte
    aligned.

    The workspace is a private zero-initialized global (`.bss`) with a
    busy flag: a call takes it with an atomic exchange and gives it back
    before returning. A concurrent call of the same function (another
    thread) finds it taken and allocates its own with `malloc`, freed on
    return, so compiled code stays reentrant and needs only libc.
    Allocations in loops or of dynamic size are left as they are.

    By default (`share-bytes=false`) every buffer gets its own global,
    all of them taken and given back together: distinct globals (or
    distinct mallocs) let LLVM prove that buffers do not alias, which its
    loop vectorizer needs. `share-bytes=true` places them in one global at
    planned offsets instead (less memory, but views of one base that LLVM
    cannot always tell apart; measured slower, see bench/run_threads.sh).

    `share-equal-sizes-only=true` (the CPU pipeline's choice when the
    code forks) lets only buffers of the same size share bytes. Threads
    split each buffer at its own fractions, so two buffers of different
    sizes at the same bytes make a core write lines that the other core
    last wrote; where the cores are far apart every such line crosses
    between them. conv2d backprop input s2 at 2 threads: 0.9-1.35 ms with
    any sizes sharing on far vCPUs, 0.49-0.59 ms equal sizes only (see
    docs/design/parallel-runtime.md).
  }];
  let options = [
    Option<"shareBytes", "share-bytes", "bool", /*default=*/"false",
           "Place buffers that are never live together at the same bytes "
           "of one workspace">,
    Option<"shareEqualSizesOnly", "share-equal-sizes-only", "bool",
           /*default=*/"false",
           "share-bytes: only buffers of the same size share bytes">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def TraceStackLoopBuffers : Pass<"trace-stack-loop-buffers", "::mlir::ModuleOp"> {
  let summary = "Small buffers allocated inside loops go on the stack, once "
                "per allocation scope";
  let description = [{
    trace-plan-workspace leaves buffers allocated inside loops (or other
    regions) alone: each
    iteration mallocs and frees them (a row reduction's 64-byte
    accumulator did so for each of the 2048 rows of an attention block's
    softmax). This pass turns each `memref.alloc` of a static shape and
    identity layout of at most `max-bytes` bytes, freed by one
    `memref.dealloc` in its own block and not passed to a call, a return or
    a region's successor, into one `memref.alloca` at the start of the
    nearest enclosing allocation scope (the function, or an `omp.parallel`
    region: one buffer per thread). Iterations of serial loops run one
    after the other, so they can share it; buffers inside `scf.parallel`
    or `scf.forall` (no scope of their own) are left alone. LLVM then
    keeps such a buffer in registers where its accesses allow.
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"16384",
           "Largest buffer that goes on the stack">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

#endif // TRACEC_TRANSFORMS_BUFFERIZATION_PASSES
