//===- TraceCollectiveOps.td - Collectives across processes -*- tablegen -*-===//
//
// The processes of MPI's world communicator: their rank and number,
// all_reduce, broadcast, all_gather and reduce_scatter, on the world or in
// groups of processes, lowered to the `mpi` dialect (MPI_Allreduce).
//
//===----------------------------------------------------------------------===//

#ifndef TRACE_COLLECTIVE_OPS_TD
#define TRACE_COLLECTIVE_OPS_TD

include "Trace/TraceBase.td"
include "Trace/TraceTypes.td"
include "Trace/ProcessGroupsOpInterface.td"

def Trace_AllReduceOp : Trace_Op<"all_reduce",
    [MemoryEffects<[MemRead, MemWrite]>,
     ProcessGroupsOpInterface,
     TypesMatchWith<"result has the operand's type", "x", "result",
                    "$_self">]> {
  let summary = "elementwise reduction of a tensor over every process";
  let description = [{
    MPI's `MPI_Allreduce` on the world communicator: every process passes
    a tensor of the same type and gets the elementwise `sum`, `mean`, `max`
    or `min` of all of them. A collective is stateful: it takes `after(...)`
    tokens and yields one, so `trace-auto-control-deps` keeps the program
    order, which every process must share (each calls the collectives in
    the same order). f32, f64, i32 and i64 elements, static shapes; `mean`
    floats only.
    ```mlir
    %g, %c = trace.all_reduce %grad after(%c0) {reduction = "mean"} : tensor<784x512xf32>
    ```
    With `groups`, a 2-d array of ranks whose rows partition a world of
    N processes (its N entries are 0 ... N-1, each once; XLA's
    replica_groups), each process reduces with the processes of its row
    only, on a communicator made once per process (MPI_Comm_split) and
    kept; `mean` divides by the row's length. Running in a world of
    another size is an error at run time. The other collectives take
    `groups` too.
    ```mlir
    %g, %c = trace.all_reduce %x {groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : tensor<4xf32>
    ```
    Gradient: of `sum`, the all_reduce `sum` of the cotangent (each
    process's operand reaches every process's result of its group); of
    `mean`, the `mean`; in the same groups. `max` and `min` have none.
  }];
  let arguments = (ins Trace_NumericTensor:$x, Variadic<Trace_ControlType>:$after,
                       DefaultValuedStrAttr<StrAttr, "sum">:$reduction,
                       OptionalAttr<I64ElementsAttr>:$groups);
  let results = (outs Trace_NumericTensor:$result, Trace_ControlType:$control);
  let assemblyFormat = "$x (`after` `(` $after^ `)`)? attr-dict `:` type($x)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// A constant of `type` that a sum leaves alone bit for bit: -0.0
    /// (x + -0.0 is x, +0.0 and -0.0 included), or 0 for integers. What
    /// a process contributes where a sum over processes must give another
    /// process's value (broadcast, all_gather).
    static ::mlir::Value sumIdentity(::mlir::OpBuilder &builder,
                                     ::mlir::Location loc,
                                     ::mlir::RankedTensorType type);
  }];
}

def Trace_BroadcastOp : Trace_Op<"broadcast",
    [MemoryEffects<[MemRead, MemWrite]>,
     ProcessGroupsOpInterface,
     TypesMatchWith<"result has the operand's type", "x", "result",
                    "$_self">]> {
  let summary = "a tensor from one process to every process";
  let description = [{
    MPI's `MPI_Bcast` on the world communicator (not NumPy's broadcasting:
    that is `trace.broadcast_to`): every process passes a tensor of the
    same type and gets process `root`'s. Stateful and ordered as
    `trace.all_reduce` is; f32, f64, i32 and i64 elements, static shapes.
    ```mlir
    %w, %c = trace.broadcast %w0 after(%c0) {root = 0} : tensor<784x512xf32>
    ```
    With `groups` (as `trace.all_reduce`'s), each process gets the operand
    of the process at position `root` of its row.
    Gradient: every process's result came from the root's operand, so the
    root's cotangent is the all_reduce `sum` of the results' cotangents,
    and the other processes' is zero (their operand reaches nothing);
    tangent: the root's tangent, broadcast; in the same groups.
  }];
  let arguments = (ins Trace_NumericTensor:$x, Variadic<Trace_ControlType>:$after,
                       DefaultValuedAttr<I64Attr, "0">:$root,
                       OptionalAttr<I64ElementsAttr>:$groups);
  let results = (outs Trace_NumericTensor:$result, Trace_ControlType:$control);
  let assemblyFormat = "$x (`after` `(` $after^ `)`)? attr-dict `:` type($x)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `value` on process `root` (of its group, with `groups`), zeros on
    /// the others: what a broadcast sums over processes, and where its
    /// gradient goes.
    static ::mlir::Value onRootOnly(::mlir::OpBuilder &builder,
                                    ::mlir::Location loc, ::mlir::Value value,
                                    int64_t root,
                                    ::mlir::DenseIntElementsAttr groups);
  }];
}

def Trace_AllGatherOp : Trace_Op<"all_gather",
    [MemoryEffects<[MemRead, MemWrite]>,
     ProcessGroupsOpInterface]> {
  let summary = "every process's tensor, concatenated along an axis";
  let description = [{
    MPI's `MPI_Allgather` on the world communicator, tiled as
    `torch.distributed.all_gather_into_tensor` and JAX's
    `all_gather(..., tiled=True)`: every process passes a tensor of the same
    type and gets all of them concatenated along `axis` in rank order.
    The op is traced for a world of `world_size` processes (the result's
    shape depends on it); running in another world is an error at run
    time. Stateful and ordered as `trace.all_reduce` is; f32, f64, i32 and
    i64 elements, static shapes.
    ```mlir
    %all, %c = trace.all_gather %x {axis = 0, world_size = 2} : tensor<3x4xf32> -> tensor<6x4xf32>
    ```
    With `groups` (as `trace.all_reduce`'s), each process gathers its
    row's operands in the row's order, and `world_size` is the length of
    a row.
    Gradient: process r's operand is slice r of every process's result,
    so its cotangent is slice r of the sum of the results' cotangents, a
    `trace.reduce_scatter` sum; tangent: the tangents, gathered; in the
    same groups.
  }];
  let arguments = (ins Trace_NumericTensor:$x, Variadic<Trace_ControlType>:$after,
                       I64Attr:$axis, I64Attr:$world_size,
                       OptionalAttr<I64ElementsAttr>:$groups);
  let results = (outs Trace_NumericTensor:$result, Trace_ControlType:$control);
  let assemblyFormat = [{
    $x (`after` `(` $after^ `)`)? attr-dict `:` type($x) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Trace_ReduceScatterOp : Trace_Op<"reduce_scatter",
    [MemoryEffects<[MemRead, MemWrite]>,
     ProcessGroupsOpInterface]> {
  let summary = "an all_reduce of which each process keeps one slice";
  let description = [{
    MPI's `MPI_Reduce_scatter_block` on the world communicator: every
    process passes a tensor of the same type, whose `axis` splits into
    `world_size` equal slices; process r gets slice r of the elementwise
    `sum`, `mean`, `max` or `min` over processes (as
    `torch.distributed.reduce_scatter_tensor` and JAX's
    `psum_scatter(..., tiled=True)`). Traced for `world_size` processes,
    as `trace.all_gather` is; stateful, ordered; f32, f64, i32 and i64
    elements, static shapes; `mean` floats only.
    ```mlir
    %part, %c = trace.reduce_scatter %g {axis = 0, world_size = 2} : tensor<6x4xf32> -> tensor<3x4xf32>
    ```
    With `groups` (as `trace.all_reduce`'s), each process reduces with
    its row's processes and keeps the slice of its position in the row;
    `world_size` is the length of a row.
    Gradient: slice r of every process's operand reaches process r's
    result, so the operand's cotangent is the results' cotangents
    gathered (`trace.all_gather`; of `mean`, divided by `world_size`), in
    the same groups. `max` and `min` have none.
  }];
  let arguments = (ins Trace_NumericTensor:$x, Variadic<Trace_ControlType>:$after,
                       DefaultValuedStrAttr<StrAttr, "sum">:$reduction,
                       I64Attr:$axis, I64Attr:$world_size,
                       OptionalAttr<I64ElementsAttr>:$groups);
  let results = (outs Trace_NumericTensor:$result, Trace_ControlType:$control);
  let assemblyFormat = [{
    $x (`after` `(` $after^ `)`)? attr-dict `:` type($x) `->` type($result)
  }];
  let hasVerifier = 1;
}

class Trace_CommQueryOp<string mnemonic, string what, list<Trait> traits = []>
    : Trace_Op<mnemonic, !listconcat(traits, [Pure,
               DeclareOpInterfaceMethods<InferTypeOpInterface>])> {
  let summary = what # " in MPI's world communicator, a tensor<i32>";
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(::mlir::MLIRContext *context,
        std::optional<::mlir::Location>, ::mlir::ValueRange,
        ::mlir::DictionaryAttr, ::mlir::OpaqueProperties, ::mlir::RegionRange,
        ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      types.push_back(::mlir::RankedTensorType::get(
          {}, ::mlir::IntegerType::get(context, 32)));
      return ::mlir::success();
    }
  }];
}

def Trace_CommRankOp : Trace_CommQueryOp<"comm_rank", "this process's rank",
                                         [ProcessGroupsOpInterface]> {
  let description = [{
    This process's rank in MPI's world communicator; with `groups` (as
    `trace.all_reduce`'s), its position in its row (JAX's `axis_index`
    in groups), which is an error at run time in a world of another size.
    ```mlir
    %r = trace.comm_rank {groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : tensor<i32>
    ```
  }];
  let arguments = (ins OptionalAttr<I64ElementsAttr>:$groups);
}
def Trace_CommSizeOp : Trace_CommQueryOp<"comm_size", "the number of processes">;

#endif // TRACE_COLLECTIVE_OPS_TD
