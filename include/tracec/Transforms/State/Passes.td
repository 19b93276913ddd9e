//===- Passes.td - tracec control dependencies and state lowering passes -*- tablegen -*-===//

#ifndef TRACEC_TRANSFORMS_STATE_PASSES
#define TRACEC_TRANSFORMS_STATE_PASSES

include "mlir/Pass/PassBase.td"

def TraceAutoControlDeps : Pass<"trace-auto-control-deps", "::mlir::ModuleOp"> {
  let summary = "Order stateful ops with control tokens and keep them alive "
                "(TensorFlow's automatic control dependencies)";
  let description = [{
    Per function, and recursively in regions:
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
      reads/writes, and a node of the token graph: the callee takes one
      `!trace.control` argument (its body starts from it) and returns a
      token standing for all it did (yielded besides its results, which
      still wait for its last stateful ops, as after inlining they must).
      A public callee keeps its signature (it is the host's entry) and so
      does one a gradient op references: their calls call a private copy
      `__ordered_<name>` in that form. A gradient op takes no tokens: its
      tensor operands are routed through `trace.identity ... after(...)`;
      the pipelines run the pass again after `trace-autodiff`, when the
      gradient ops have become calls;
    - an scf.if/index_switch/execute_region/for/while whose regions touch
      state is one node of the token graph, a stateful op on what its
      regions touch: it gets a `!trace.control` result, and what follows it
      on those resources waits for that token. scf.if, scf.index_switch,
      scf.execute_region: each region yields a token (a missing else is
      added) standing for the region's last ops and for everything the op
      waits for, so the token is complete whichever region ran; the ops in
      a region wait for outer tokens directly. scf.for/scf.while: the token
      is loop-carried (an iter_arg; in scf.while also a condition operand);
      its initial value is what the loop waits for, every op of an
      iteration waits for the carried token, and an iteration yields its
      last ops, so iteration i+1 comes after iteration i;
    - the tensor results of a function are routed through
      `trace.identity ... after(...)` on the last stateful ops (or scf
      nodes) of its block, so every stateful op is reachable from them
      through tokens. Stateful ops that no result can wait for (a function
      without tensor results) stay alive through their declared memory
      effects.
    One token per scf op, not one per resource it touches: ops on other
    resources are not ordered with the scf op at all (its effects are
    per resource, like a call's), and inside a branch ops keep per-resource
    precision; what is lost is only that, within a loop that touches two
    resources, iteration i+1's ops on one wait for iteration i's ops on
    the other too (and an op after the loop on one, for the loop as a
    whole). It keeps the token graph (and the IR) small, and per-resource
    order is exact everywhere else.
    Several tokens are joined with `trace.group`. Tokens are only added,
    never removed, and only where no token already orders the op; running
    the pass twice changes nothing. What an op reads and writes comes from
    MemoryEffectOpInterface; a stateful op's `after` tokens are its trailing
    operands. Tokens do not leave a func.call (it yields none; ops after it
    are ordered by its memory effects) nor region ops other than
    scf.if/for/while.
  }];
  let dependentDialects = ["::mlir::trace::TraceDialect"];
}

def TraceLowerState : Pass<"trace-lower-state", "::mlir::ModuleOp"> {
  let summary = "Variables become caller-owned buffers updated in place";
  let description = [{
    A dialect conversion with a type converter that maps each
    `!trace.resource<tensor<S x T>>` to `memref<S x T>` (the caller's
    buffer, which the function reads and writes in place) and drops
    `!trace.control` (1:0): function signatures, calls, returns and the
    results, iter_args and yields of scf.if/for/while follow it through
    upstream's structural patterns, one pattern per stateful op does the
    rest.
    - `trace.var.read` is a snapshot: `memref.copy` of the buffer into a
      fresh `memref.alloc`, seen as a tensor through one
      `bufferization.to_tensor ... restrict writable`. A later write to the
      variable cannot change an earlier read.
    - `trace.var.assign` writes its value into the buffer where it stands
      in the program (`bufferization.materialize_in_destination ... in
      writable`, which bufferizes to a copy); `assign_add`/`assign_sub`
      snapshot the buffer, compute with `trace.add`/`trace.sub` (lowered by
      trace-to-linalg) and write back.
    Why not `to_tensor %buffer restrict` per read and `restrict` on each
    write: `restrict` promises one-shot bufferization that the op is the
    only way tensor IR reaches the buffer, so at most one may name it, and
    a variable is read and written many times; breaking that promise lets
    bufferization reorder or merge accesses. Reads through memref copies and
    writes without `restrict` keep every access at its place in the
    program, and each `restrict` names a buffer no other op sees.
    - `trace.random_uniform`/`random_normal` get a run counter each (a
      private i64 `memref.global`, 0 in a fresh module, advanced by
      `memref.atomic_rmw` on every run) and draw Philox4x32-10 numbers in a
      `linalg.generic` keyed by the op's seed.
    - `trace.print` becomes a call of `tracec_print_tensor`
      (tracec/ABI/tracec_print.h) on a contiguous copy of its tensor.
    - `trace.all_reduce` becomes `mpi.allreduce` from its tensor's buffer
      (the module is marked as calling OpenMPI); `broadcast`, `all_gather`
      and `reduce_scatter` become `mpi.allreduce`s too (the `mpi` dialect
      has no other collective); each is guarded by calls of
      tracec/ABI/tracec_collectives.h (an agreement check and a watchdog:
      an error naming it, not a hang, when the processes disagree on it
      or one never reaches it); with `groups`, on this process's group's
      communicator (`tracec_collective_group`, split once and kept);
      `comm_rank` and `comm_size` are the world communicator's (`comm_rank`
      with `groups`: the position in its group). With `overlap-collectives`, an all-reduce whose
      result, operand (or a value computed from it) the next op does not
      use is started without blocking (`tracec_collective_start`,
      MPI_Iallreduce) and waited for (`tracec_collective_wait`) right
      before the first op that does: the ops between run while it
      communicates.
    - `trace.identity ... after(...)` becomes its value; `trace.group`,
      a join of tokens, becomes nothing.
    Control tokens disappear: the program order, made consistent with the
    tokens by trace-auto-control-deps, carries the order, and what replaces
    the stateful ops has memory effects that keep it. An op that takes or
    yields a token and has no pattern fails the conversion.
  }];
  let dependentDialects = ["::mlir::trace::TraceDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::DLTIDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::mpi::MPIDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"overlapCollectives", "overlap-collectives", "bool",
           /*default=*/"false",
           "start an all-reduce without blocking where its result is used "
           "only later, and wait for it there">
  ];
}

def TraceScheduleCollectives
    : Pass<"trace-schedule-collectives", "::mlir::func::FuncOp"> {
  let summary = "Move all-reduces up to where their operands are computed";
  let description = [{
    A data-parallel step all-reduces its gradients after the whole backward
    pass, in the order the program lists them. This pass moves each
    `trace.all_reduce` of a chain (all-reduces joined only by their
    tokens: each takes the previous one's token and nothing else does) up
    to right after the op that computes its operand, and relinks the
    chain's tokens in the new order: the order the backward pass produces
    the gradients, the last layer's first. Lowered with trace-lower-state's
    `overlap-collectives`, each then starts as soon as its gradient exists
    and the rest of the backward pass runs while it communicates (as DDP's
    buckets and Horovod's tensor queue do).

    Every process compiles the same program, so every process issues the
    all-reduces in the same new order, as MPI requires. Their results do
    not change: all-reduces of different tensors commute. Tokens from
    other stateful ops stay where they were: an all-reduce never moves
    above an op whose token it takes. Only chains within one block move.
  }];
  let dependentDialects = ["::mlir::trace::TraceDialect"];
}

def TraceShardToCollectives
    : Pass<"trace-shard-to-collectives", "::mlir::ModuleOp"> {
  let summary = "Partition a module annotated with the shard dialect onto "
                "trace collectives";
  let description = [{
    Tensor parallelism through upstream's `shard` dialect: in a module with
    a `shard.grid` of processes and `shard.shard` annotations, upstream's
    `sharding-propagation` and `shard-partition` turn each function into
    the program of one process (its operands and results the process's
    shards), and the collectives they insert, on axes of the grid, become
    trace collectives on groups of processes (`groups`), which
    trace-lower-state lowers to MPI with the rest:

    ```mlir
    shard.grid @grid(shape = 2x2)
    %r = shard.all_reduce %x on @grid grid_axes = [0] : tensor<8xf32> -> tensor<8xf32>
    // becomes
    %r, %c = trace.all_reduce %x {groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>} : tensor<8xf32>
    ```

    The grid's processes are MPI's world in row-major order (a process's
    linear index is its rank); a collective on `grid_axes` runs in the
    groups of processes that differ only along those axes, each listed
    row-major over the axes in their order, as the shard dialect orders a
    group. all_reduce, all_gather, reduce_scatter and broadcast become
    their trace collectives (reductions sum, average as `mean`, max, min);
    all_slice and process_multi_index become upstream's arithmetic on
    process_linear_index, which becomes `trace.comm_rank`. Every
    collective names its groups, so a world of another size than the
    grid's is an error at run time that names it. A module without a grid
    is left alone. An op with no lowering (grids of dynamic shape,
    all_to_all, shift, send, recv, scatter, gather, reduce, other
    reductions or accumulation types) is an error at its location.
  }];
  let dependentDialects = ["::mlir::trace::TraceDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // TRACEC_TRANSFORMS_STATE_PASSES
