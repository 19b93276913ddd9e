//===- LowerCollectives.cpp - Collectives and rank queries -> mpi ---------===//
//
//   %r, %c = trace.all_reduce %x {reduction = "sum"} : tensor<4xf32>
//     -> call @tracec_collective_begin(where)     (the watchdog's wait)
//        mpi.allreduce({signature, -signature, rank + 1} -> agreed, MPI_MAX)
//        call @tracec_collective_check(where, signature, agreed, ...)
//        %sendbuf = bufferization.to_buffer %x read_only   (identity layout)
//        %recvbuf = memref.alloc() : memref<4xf32>
//        mpi.allreduce(%sendbuf, %recvbuf, MPI_SUM, mpi.comm_world)
//                                                  (as 1-D views)
//        call @tracec_collective_end()
//        %r = bufferization.to_tensor %recvbuf restrict writable
//
// `where` names the op, its attributes, type and location (a constant C
// string); the signature hashes all but the location, so processes that
// disagree on a collective, or wait on it too long, end the job with an
// error that names it, not a hang (tracec/ABI/tracec_collectives.h).
// `mean` divides the sum by the number of processes (a trace.div, lowered
// with the rest), which the check's all-reduce gives. broadcast, all_gather and
// reduce_scatter are all-reduces too (MLIR 22's `mpi` dialect has no other
// collective). With `groups`, each runs on this process's group's
// communicator, where its rank is its position in the group. The module is
// marked as calling OpenMPI (the dlti entry "MPI:Implementation" that
// convert-to-llvm reads for the ABI: the communicator, datatypes and operations
// are OpenMPI's global symbols, which the process that runs the code must have
// loaded, MPI_Init called).
//
//===----------------------------------------------------------------------===//

#include "StateLowerings.h"
#include "tracec/Transforms/State/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tracec/ABI/tracec_collectives.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

constexpr llvm::StringLiteral kMpiImplementation = "MPI:Implementation";

/// This process's rank, as a rank-0 tensor<i32>.
Value worldRank(OpBuilder &b, Location loc) {
  Value comm =
      mpi::CommWorldOp::create(b, loc, mpi::CommType::get(b.getContext()));
  auto rank = mpi::CommRankOp::create(b, loc, TypeRange{b.getI32Type()},
                                      ValueRange{comm});
  return tensor::FromElementsOp::create(
      b, loc, RankedTensorType::get({}, b.getI32Type()),
      ValueRange{rank.getRank()});
}

/// The C function `name` of tracec/ABI/tracec_collectives.h, declared once.
func::CallOp callAbi(OpBuilder &b, Location loc, SymbolTable &symbols,
                     StringRef name, ValueRange arguments,
                     TypeRange results = {}) {
  auto callee = symbols.lookup<func::FuncOp>(name);
  if (!callee) {
    callee = createModuleSymbol<func::FuncOp>(
        b, symbols, loc, name,
        b.getFunctionType(TypeRange(arguments), results));
    callee.setPrivate();
  }
  return func::CallOp::create(b, loc, callee, arguments);
}

/// `op`'s name, attributes and operand type: what processes must agree on.
std::string describe(Operation *op) {
  std::string description;
  llvm::raw_string_ostream os(description);
  os << "'" << op->getName() << "' " << op->getAttrDictionary();
  if (op->getNumOperands())
    os << " of " << op->getOperand(0).getType();
  return description;
}

/// A constant C string that names `op` in errors: its location, if a file
/// one, and its description.
Value whereString(OpBuilder &b, Operation *op, SymbolTable &symbols) {
  std::string where;
  llvm::raw_string_ostream os(where);
  if (auto file = dyn_cast<FileLineColLoc>(op->getLoc()))
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn() << ": ";
  os << describe(op);
  return constantString(b, op->getLoc(), symbols, "__trace_collective_where",
                        where);
}

/// Wraps the all-reduces a collective lowers to: first a wait the
/// watchdog times and a check that every process reached the same
/// collective (the MPI_MAX of {signature, -signature, rank + 1} gives the
/// largest and smallest signature and the world's size), then, once the
/// collective's own all-reduces are built, the end of the wait.
class GuardedCollective {
public:
  GuardedCollective(OpBuilder &b, Operation *op, SymbolTable &symbols,
                    int64_t worldSize = 0, int64_t root = -1)
      : b(b), loc(op->getLoc()), symbols(symbols) {
    std::string description = describe(op);
    // Not the location: processes may run the same program from
    // different paths.
    int64_t signature =
        static_cast<int64_t>(llvm::xxh3_64bits(description) >> 1);
    where = whereString(b, op, symbols);
    callAbi(b, loc, symbols, TRACEC_COLLECTIVE_BEGIN_SYMBOL, where);

    auto type = MemRefType::get({3}, b.getI64Type());
    Value send = memref::AllocaOp::create(b, loc, type);
    Value comm =
        mpi::CommWorldOp::create(b, loc, mpi::CommType::get(b.getContext()));
    Value rank = mpi::CommRankOp::create(b, loc, TypeRange{b.getI32Type()},
                                         ValueRange{comm})
                     .getRank();
    Value entries[] = {
        arith::ConstantIntOp::create(b, loc, b.getI64Type(), signature),
        arith::ConstantIntOp::create(b, loc, b.getI64Type(), -signature),
        arith::AddIOp::create(
            b, loc, arith::ExtSIOp::create(b, loc, b.getI64Type(), rank),
            arith::ConstantIntOp::create(b, loc, b.getI64Type(), 1))};
    for (auto [index, entry] : llvm::enumerate(entries))
      memref::StoreOp::create(
          b, loc, entry, send,
          ValueRange{arith::ConstantIndexOp::create(b, loc, index)});
    agreed = memref::AllocaOp::create(b, loc, type);
    mpi::AllReduceOp::create(b, loc, TypeRange{}, send, agreed,
                             mpi::MPI_ReductionOpEnum::MPI_MAX, comm);
    callAbi(b, loc, symbols, TRACEC_COLLECTIVE_CHECK_SYMBOL,
            ValueRange{
                where, entries[0], pointerTo(b, loc, agreed),
                arith::ConstantIntOp::create(b, loc, b.getI64Type(), worldSize),
                arith::ConstantIntOp::create(b, loc, b.getI64Type(), root)});
  }
  /// The constant C string that names the collective.
  Value description() const { return where; }

  /// After the collective's own all-reduces.
  void end() {
    callAbi(b, loc, symbols, TRACEC_COLLECTIVE_END_SYMBOL, ValueRange{});
  }

  /// The number of processes, as a rank-0 tensor<i32>: the check's largest
  /// rank + 1 (no all-reduce of its own).
  Value worldSize() {
    Value size = memref::LoadOp::create(
        b, loc, agreed, ValueRange{arith::ConstantIndexOp::create(b, loc, 2)});
    return tensor::FromElementsOp::create(
        b, loc, RankedTensorType::get({}, b.getI32Type()),
        ValueRange{arith::TruncIOp::create(b, loc, b.getI32Type(), size)});
  }

private:
  OpBuilder &b;
  Location loc;
  SymbolTable &symbols;
  Value where, agreed;
};

/// A pattern whose calls of TracecABI declare their functions, and whose
/// strings and tables go, into `symbols`.
template <typename Op> struct AbiCallPattern : OpConversionPattern<Op> {
  AbiCallPattern(const TypeConverter &converter, MLIRContext *context,
                 SymbolTable &symbols)
      : OpConversionPattern<Op>(converter, context), symbols(symbols) {}
  SymbolTable &symbols;
};

/// A pattern of a collective; `overlap`: an all-reduce whose result is
/// needed only later starts without blocking (see LowerAllReduce).
template <typename Op> struct CollectivePattern : AbiCallPattern<Op> {
  CollectivePattern(const TypeConverter &converter, MLIRContext *context,
                    SymbolTable &symbols, bool overlap)
      : AbiCallPattern<Op>(converter, context, symbols), overlap(overlap) {}
  bool overlap;
};

/// Where this process's slice of `size` elements along an axis begins:
/// rank * size, its rank in `comm` (its position in its group: the group's
/// communicator orders by it).
OpFoldResult rankOffset(OpBuilder &b, Location loc, Value comm, int64_t size) {
  Value rank = mpi::CommRankOp::create(b, loc, TypeRange{b.getI32Type()},
                                       ValueRange{comm})
                   .getRank();
  rank = arith::IndexCastOp::create(b, loc, b.getIndexType(), rank);
  return arith::MulIOp::create(b, loc, rank,
                               arith::ConstantIndexOp::create(b, loc, size))
      .getResult();
}

/// Offsets, sizes and strides of this process's slice of a tensor tiled
/// along `axis` into slices of type `part` over the processes of `comm`.
struct RankSlice {
  SmallVector<OpFoldResult> offsets, sizes, strides;
  RankSlice(OpBuilder &b, Location loc, RankedTensorType part, int64_t axis,
            Value comm) {
    for (int64_t d = 0; d < part.getRank(); ++d) {
      offsets.push_back(d == axis ? rankOffset(b, loc, comm, part.getDimSize(d))
                                  : b.getIndexAttr(0));
      sizes.push_back(b.getIndexAttr(part.getDimSize(d)));
      strides.push_back(b.getIndexAttr(1));
    }
  }
};

/// comm_size asks MPI through TracecABI (tracec_collective_world_size):
/// MLIR 22's mpi-to-llvm has no lowering of mpi.comm_size
/// (docs/upstream-bugs.md).
struct LowerCommSize : AbiCallPattern<CommSizeOp> {
  using AbiCallPattern::AbiCallPattern;

  LogicalResult
  matchAndRewrite(CommSizeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value size = callAbi(rewriter, op.getLoc(), symbols,
                         TRACEC_COLLECTIVE_WORLD_SIZE_SYMBOL, ValueRange{},
                         TypeRange{rewriter.getI32Type()})
                     .getResult(0);
    rewriter.replaceOpWithNewOp<tensor::FromElementsOp>(
        op, RankedTensorType::get({}, rewriter.getI32Type()), ValueRange{size});
    return success();
  }
};

/// `buffer` (contiguous) as a 1-D memref of all its elements: MLIR 22's
/// mpi-to-llvm passes the size of dim 0 as the element count of a buffer
/// of higher rank (docs/upstream-bugs.md).
Value asVector(OpBuilder &b, Location loc, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  if (type.getRank() == 1)
    return buffer;
  auto vector = MemRefType::get({type.getNumElements()}, type.getElementType());
  if (type.getRank() == 0)
    return memref::ExpandShapeOp::create(
        b, loc, vector, buffer, ArrayRef<ReassociationIndices>{},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  ReassociationIndices all =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  return memref::CollapseShapeOp::create(b, loc, vector, buffer,
                                         ArrayRef<ReassociationIndices>{all});
}

mpi::MPI_ReductionOpEnum reductionOf(StringRef reduction) {
  if (reduction == "max")
    return mpi::MPI_ReductionOpEnum::MPI_MAX;
  if (reduction == "min")
    return mpi::MPI_ReductionOpEnum::MPI_MIN;
  return mpi::MPI_ReductionOpEnum::MPI_SUM; // sum, and mean's sum
}

/// The communicator a collective runs on: the world's, or with `groups`
/// this process's group's, which tracec_collective_group makes once per
/// process and keeps (the `mpi` dialect's comm_split has no comm_free; a
/// split per call would leak). `handle` is its integer (0 for the world),
/// what the non-blocking start takes and what the `mpi` dialect's
/// communicators lower to.
struct Communicator {
  Value comm;   // !mpi.comm
  Value handle; // i64
};

/// A call of tracec_collective_group or _group_rank: (where, the groups'
/// table, their number, their size).
Value callWithGroups(OpBuilder &b, Location loc, SymbolTable &symbols,
                     StringRef function, Value where,
                     DenseIntElementsAttr groups, Type result) {
  auto shape = cast<ShapedType>(groups.getType()).getShape();
  Value table =
      constantGlobal(b, loc, symbols, "__trace_collective_groups", groups);
  return callAbi(b, loc, symbols, function,
                 ValueRange{where, table,
                            arith::ConstantIntOp::create(b, loc, b.getI64Type(),
                                                         shape[0]),
                            arith::ConstantIntOp::create(b, loc, b.getI64Type(),
                                                         shape[1])},
                 TypeRange{result})
      .getResult(0);
}

Communicator communicatorOf(OpBuilder &b, Location loc, SymbolTable &symbols,
                            Value where, DenseIntElementsAttr groups) {
  MLIRContext *context = b.getContext();
  if (!groups)
    return {mpi::CommWorldOp::create(b, loc, mpi::CommType::get(context)),
            arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0)};
  Value handle = callWithGroups(b, loc, symbols, TRACEC_COLLECTIVE_GROUP_SYMBOL,
                                where, groups, b.getI64Type());
  // The handle as the dialect's communicator: convert-to-llvm maps
  // !mpi.comm to this i64 again, and the casts cancel.
  Value comm = UnrealizedConversionCastOp::create(
                   b, loc, TypeRange{mpi::CommType::get(context)}, handle)
                   .getResult(0);
  return {comm, handle};
}

/// comm_rank is MPI's rank in the world; with groups, the position in its
/// group, which TracecABI finds in the groups' table
/// (tracec_collective_group_rank: no communicator, no collective).
struct LowerCommRank : AbiCallPattern<CommRankOp> {
  using AbiCallPattern::AbiCallPattern;

  LogicalResult
  matchAndRewrite(CommRankOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    DenseIntElementsAttr groups = op.getGroupsAttr();
    if (!groups) {
      rewriter.replaceOp(op, worldRank(rewriter, loc));
      return success();
    }
    Value position = callWithGroups(
        rewriter, loc, symbols, TRACEC_COLLECTIVE_GROUP_RANK_SYMBOL,
        whereString(rewriter, op, symbols), groups, rewriter.getI32Type());
    rewriter.replaceOpWithNewOp<tensor::FromElementsOp>(
        op, RankedTensorType::get({}, rewriter.getI32Type()),
        ValueRange{position});
    return success();
  }
};

/// The buffer type of a collective's tensor: the identity layout MPI reads
/// and writes.
MemRefType bufferTypeOf(RankedTensorType type) {
  return MemRefType::get(type.getShape(), type.getElementType());
}

/// MPI_Allreduce of tensor `x` into a new tensor on `comm`.
Value allReduceTensor(OpBuilder &b, Location loc, Value x,
                      mpi::MPI_ReductionOpEnum reduction, Value comm) {
  auto type = cast<RankedTensorType>(x.getType());
  MemRefType memrefType = bufferTypeOf(type);
  // The operand's own buffer, read in place (bufferization copies it only
  // if its layout is not the identity this type asks for).
  Value sendBuffer = bufferization::ToBufferOp::create(b, loc, memrefType, x,
                                                       /*read_only=*/true);
  Value recvBuffer = memref::AllocOp::create(b, loc, memrefType);
  mpi::AllReduceOp::create(b, loc, TypeRange{}, asVector(b, loc, sendBuffer),
                           asVector(b, loc, recvBuffer), reduction, comm);
  return bufferization::ToTensorOp::create(b, loc, type, recvBuffer,
                                           /*restrict=*/true,
                                           /*writable=*/true);
}

/// Where a non-blocking all-reduce must be waited for: before the first
/// op after it in its block that uses its result, its operand, or a value
/// computed from the operand before it (a view or an in-place update of
/// the buffer MPI reads), else before the block's terminator. Null where
/// such a use lies outside the block (the all-reduce then blocks).
Operation *waitPoint(AllReduceOp reduce) {
  Block *block = reduce->getBlock();
  Operation *first = block->getTerminator();
  SmallVector<Value> derived = {reduce.getX(), reduce.getResult()};
  DenseSet<Value> seen(derived.begin(), derived.end());
  while (!derived.empty()) {
    Value value = derived.pop_back_val();
    for (Operation *user : value.getUsers()) {
      Operation *inBlock = block->findAncestorOpInBlock(*user);
      if (!inBlock)
        return nullptr;
      if (inBlock == reduce)
        continue;
      if (reduce->isBeforeInBlock(inBlock)) {
        if (inBlock->isBeforeInBlock(first))
          first = inBlock;
        continue;
      }
      for (Value result : inBlock->getResults())
        if (seen.insert(result).second)
          derived.push_back(result);
    }
  }
  return first;
}

int32_t reductionCode(StringRef reduction) {
  if (reduction == "max")
    return TRACEC_COLLECTIVE_MAX;
  if (reduction == "min")
    return TRACEC_COLLECTIVE_MIN;
  return TRACEC_COLLECTIVE_SUM; // sum, and mean's sum
}

/// An all-reduce of `x` started here (MPI_Iallreduce, after the guard's
/// check) and waited for before `wait`: the computation between overlaps
/// the communication. Both buffers are given to the wait again, which
/// keeps them live there: no later buffer takes their bytes while MPI
/// reads or writes them (trace-plan-workspace shares the bytes of buffers
/// that are not live together). The start's pointers are taken in a
/// region of their own (`no_inline`), which CSE cannot merge the wait's
/// into. Returns the result, as a tensor defined before `wait`.
Value startAllReduce(ConversionPatternRewriter &b, Location loc,
                     SymbolTable &symbols, GuardedCollective &guard, Value x,
                     StringRef reduction, Value communicator, Operation *wait) {
  auto type = cast<RankedTensorType>(x.getType());
  Value send = bufferization::ToBufferOp::create(b, loc, bufferTypeOf(type), x,
                                                 /*read_only=*/true);
  Value recv = memref::AllocOp::create(b, loc, bufferTypeOf(type));
  auto pointer = LLVM::LLVMPointerType::get(b.getContext());
  auto start = scf::ExecuteRegionOp::create(b, loc, TypeRange{pointer});
  start.setNoInline(true);
  {
    OpBuilder::InsertionGuard inRegion(b);
    b.createBlock(&start.getRegion());
    Value request =
        callAbi(
            b, loc, symbols, TRACEC_COLLECTIVE_START_SYMBOL,
            ValueRange{guard.description(), pointerTo(b, loc, send),
                       pointerTo(b, loc, recv),
                       arith::ConstantIntOp::create(b, loc, b.getI64Type(),
                                                    type.getNumElements()),
                       // (The verifier allows only elements that have a code.)
                       arith::ConstantIntOp::create(
                           b, loc, b.getI32Type(),
                           *abiDTypeCode(type.getElementType())),
                       arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                                    reductionCode(reduction)),
                       communicator},
            TypeRange{pointer})
            .getResult(0);
    scf::YieldOp::create(b, loc, request);
  }
  Value request = start.getResult(0);
  guard.end();
  OpBuilder::InsertionGuard here(b);
  b.setInsertionPoint(wait);
  callAbi(b, loc, symbols, TRACEC_COLLECTIVE_WAIT_SYMBOL,
          ValueRange{guard.description(), request, pointerTo(b, loc, send),
                     pointerTo(b, loc, recv)});
  return bufferization::ToTensorOp::create(b, loc, type, recv,
                                           /*restrict=*/true,
                                           /*writable=*/true);
}

/// With `overlap`, an all-reduce whose result (and operand) the next op
/// does not use starts without blocking and is waited for where they are
/// first used (waitPoint): computation in between, such as the rest of a
/// backward pass after trace-schedule-collectives, overlaps it, as in
/// DDP's and Horovod's bucketed all-reduces.
struct LowerAllReduce : CollectivePattern<AllReduceOp> {
  using CollectivePattern::CollectivePattern;

  // 1:N adaptor: the `after` tokens have become nothing.
  LogicalResult
  matchAndRewrite(AllReduceOp reduce, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = reduce.getLoc();
    RankedTensorType type = reduce.getX().getType();
    Operation *wait = overlap ? waitPoint(reduce) : nullptr;
    if (wait == reduce->getNextNode())
      wait = nullptr; // nothing to overlap
    // With groups, the world must have the size they partition.
    GuardedCollective guard(rewriter, reduce, symbols,
                            reduce.getGroupsWorldSize());
    Communicator communicator = communicatorOf(
        rewriter, loc, symbols, guard.description(), reduce.getGroupsAttr());
    Value result;
    if (wait) {
      result =
          startAllReduce(rewriter, loc, symbols, guard, adaptor.getX().front(),
                         reduce.getReduction(), communicator.handle, wait);
      rewriter.setInsertionPoint(wait);
    } else {
      result = allReduceTensor(rewriter, loc, adaptor.getX().front(),
                               reductionOf(reduce.getReduction()),
                               communicator.comm);
      guard.end();
    }
    if (reduce.getReduction() == "mean") {
      Value size = guard.worldSize();
      if (int64_t groupSize = reduce.getGroupSize())
        size = tensor::FromElementsOp::create(
            rewriter, loc, RankedTensorType::get({}, rewriter.getI32Type()),
            ValueRange{arith::ConstantIntOp::create(
                rewriter, loc, rewriter.getI32Type(), groupSize)});
      Value count = CastOp::create(rewriter, loc, size, type.getElementType());
      result = DivOp::create(rewriter, loc, result, count);
    }
    // The reduced tensor, and no token.
    rewriter.replaceOpWithMultiple(
        reduce, SmallVector<SmallVector<Value>>{{result}, {}});
    return success();
  }
};

/// A broadcast is the all-reduce sum of the root's operand and -0.0s (or
/// 0s) from every other process (exact, bit for bit; MLIR 22's `mpi`
/// dialect has no bcast). A root that is not a rank of the world fails
/// the guard's check (with groups, the verifier checks it is a position).
struct LowerBroadcast : CollectivePattern<BroadcastOp> {
  using CollectivePattern::CollectivePattern;

  LogicalResult
  matchAndRewrite(BroadcastOp broadcast, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = broadcast.getLoc();
    int64_t root = broadcast.getRootAttr().getInt();
    DenseIntElementsAttr groups = broadcast.getGroupsAttr();
    GuardedCollective guard(rewriter, broadcast, symbols,
                            broadcast.getGroupsWorldSize(), groups ? -1 : root);
    Communicator communicator =
        communicatorOf(rewriter, loc, symbols, guard.description(), groups);
    Value sent = BroadcastOp::onRootOnly(rewriter, loc, adaptor.getX().front(),
                                         root, groups);
    Value result =
        allReduceTensor(rewriter, loc, sent, mpi::MPI_ReductionOpEnum::MPI_SUM,
                        communicator.comm);
    guard.end();
    rewriter.replaceOpWithMultiple(
        broadcast, SmallVector<SmallVector<Value>>{{result}, {}});
    return success();
  }
};

/// The world's size a tiling collective asks for: with groups, the number
/// of ranks they partition; else its world_size.
template <typename Op> int64_t tiledWorldSize(Op op) {
  if (int64_t groupsWorld = op.getGroupsWorldSize())
    return groupsWorld;
  return op.getWorldSizeAttr().getInt();
}

/// An all_gather is the all-reduce sum of a tensor that holds this
/// process's operand in its slice and -0.0 (or 0) elsewhere: exact, bit for
/// bit (MLIR 22's `mpi` dialect has no allgather; this moves world_size
/// times the data MPI_Allgather would).
struct LowerAllGather : CollectivePattern<AllGatherOp> {
  using CollectivePattern::CollectivePattern;

  LogicalResult
  matchAndRewrite(AllGatherOp gather, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = gather.getLoc();
    GuardedCollective guard(rewriter, gather, symbols, tiledWorldSize(gather));
    Communicator communicator = communicatorOf(
        rewriter, loc, symbols, guard.description(), gather.getGroupsAttr());
    RankSlice slice(rewriter, loc, gather.getX().getType(),
                    gather.getAxisAttr().getInt(), communicator.comm);
    Value placed = tensor::InsertSliceOp::create(
        rewriter, loc, adaptor.getX().front(),
        AllReduceOp::sumIdentity(rewriter, loc, gather.getResult().getType()),
        slice.offsets, slice.sizes, slice.strides);
    Value result =
        allReduceTensor(rewriter, loc, placed,
                        mpi::MPI_ReductionOpEnum::MPI_SUM, communicator.comm);
    guard.end();
    rewriter.replaceOpWithMultiple(
        gather, SmallVector<SmallVector<Value>>{{result}, {}});
    return success();
  }
};

/// A reduce_scatter is an all-reduce of which this process keeps its slice
/// (MLIR 22's `mpi` dialect has no reduce_scatter).
struct LowerReduceScatter : CollectivePattern<ReduceScatterOp> {
  using CollectivePattern::CollectivePattern;

  LogicalResult
  matchAndRewrite(ReduceScatterOp scatter, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = scatter.getLoc();
    GuardedCollective guard(rewriter, scatter, symbols,
                            tiledWorldSize(scatter));
    Communicator communicator = communicatorOf(
        rewriter, loc, symbols, guard.description(), scatter.getGroupsAttr());
    Value reduced =
        allReduceTensor(rewriter, loc, adaptor.getX().front(),
                        reductionOf(scatter.getReduction()), communicator.comm);
    guard.end();
    RankedTensorType type = scatter.getResult().getType();
    RankSlice slice(rewriter, loc, type, scatter.getAxisAttr().getInt(),
                    communicator.comm);
    Value result = tensor::ExtractSliceOp::create(rewriter, loc, type, reduced,
                                                  slice.offsets, slice.sizes,
                                                  slice.strides);
    if (scatter.getReduction() == "mean") {
      // The slices' number: world_size, a group's size with groups.
      int64_t worldSize = scatter.getWorldSizeAttr().getInt();
      auto scalar = RankedTensorType::get({}, type.getElementType());
      Value count = ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(
              scalar, rewriter.getFloatAttr(type.getElementType(), worldSize)));
      result = DivOp::create(rewriter, loc, result, count);
    }
    rewriter.replaceOpWithMultiple(
        scatter, SmallVector<SmallVector<Value>>{{result}, {}});
    return success();
  }
};

/// mpi.allreduce declares no memory effects, which buffer deallocation
/// refuses: it reads its send buffer and writes its receive buffer (and,
/// as a call into MPI, the default resource, which keeps it in order).
struct AllReduceEffects
    : MemoryEffectOpInterface::ExternalModel<AllReduceEffects,
                                             mpi::AllReduceOp> {
  void
  getEffects(Operation *op,
             SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
                 &effects) const {
    auto reduce = cast<mpi::AllReduceOp>(op);
    effects.emplace_back(MemoryEffects::Read::get(),
                         &reduce.getSendbufMutable());
    effects.emplace_back(MemoryEffects::Write::get(),
                         &reduce.getRecvbufMutable());
    effects.emplace_back(MemoryEffects::Write::get());
  }
};

} // namespace

void mlir::trace::registerMpiMemoryEffects(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, mpi::MPIDialect *) {
    mpi::AllReduceOp::attachInterface<AllReduceEffects>(*context);
  });
}

void mlir::trace::populateCollectiveLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    SymbolTable &symbols, bool overlap) {
  patterns
      .add<LowerAllReduce, LowerBroadcast, LowerAllGather, LowerReduceScatter>(
          converter, patterns.getContext(), symbols, overlap);
  patterns.add<LowerCommRank, LowerCommSize>(converter, patterns.getContext(),
                                             symbols);
}

void mlir::trace::markMpiImplementation(ModuleOp module) {
  bool usesMpi = false;
  module.walk([&](Operation *op) {
    if (isa<AllReduceOp, BroadcastOp, AllGatherOp, ReduceScatterOp, CommRankOp,
            CommSizeOp>(op))
      usesMpi = true;
  });
  if (!usesMpi || module->hasAttr(DLTIDialect::kMapAttrName))
    return;
  MLIRContext *context = module.getContext();
  module->setAttr(
      DLTIDialect::kMapAttrName,
      MapAttr::get(context, {DataLayoutEntryAttr::get(
                                StringAttr::get(context, kMpiImplementation),
                                StringAttr::get(context, "OpenMPI"))}));
}
