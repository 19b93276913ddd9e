//===- LowerCollectives.cpp - Collectives and rank queries -> mpi ---------===//
//
//   %r, %c = trace.all_reduce %x {reduction = "sum"} : tensor<4xf32>
//     -> %sendbuf = bufferization.to_buffer %x read_only   (identity layout)
//        %recvbuf = memref.alloc() : memref<4xf32>
//        %comm = mpi.comm_world
//        mpi.allreduce(%sendbuf, %recvbuf, MPI_SUM, %comm)  (as 1-D views)
//        %r = bufferization.to_tensor %recvbuf restrict writable
//
// `mean` divides the sum by the number of processes (a trace.div, lowered
// with the rest); that number is the all-reduce sum of a 1 from each (see
// worldSize). The module is marked as calling OpenMPI (the dlti entry
// "MPI:Implementation" that convert-to-llvm reads for the ABI: the
// communicator, datatypes and operations are OpenMPI's global symbols,
// which the process that runs the code must have loaded, MPI_Init called).
//
//===----------------------------------------------------------------------===//

#include "StateLowerings.h"
#include "tracec/Transforms/State/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

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

/// The number of processes, as a rank-0 tensor<i32>: the all-reduce sum of
/// a 1 from each (MLIR 22's mpi-to-llvm has no lowering of mpi.comm_size;
/// docs/upstream-bugs.md).
Value worldSize(OpBuilder &b, Location loc) {
  auto type = MemRefType::get({1}, b.getI32Type());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value send = memref::AllocaOp::create(b, loc, type);
  memref::StoreOp::create(
      b, loc, arith::ConstantIntOp::create(b, loc, b.getI32Type(), 1), send,
      ValueRange{zero});
  Value recv = memref::AllocaOp::create(b, loc, type);
  Value comm =
      mpi::CommWorldOp::create(b, loc, mpi::CommType::get(b.getContext()));
  mpi::AllReduceOp::create(b, loc, TypeRange{}, send, recv,
                           mpi::MPI_ReductionOpEnum::MPI_SUM, comm);
  Value size = memref::LoadOp::create(b, loc, recv, ValueRange{zero});
  return tensor::FromElementsOp::create(
      b, loc, RankedTensorType::get({}, b.getI32Type()), ValueRange{size});
}

template <typename TraceOp, Value (*query)(OpBuilder &, Location)>
struct LowerCommQuery : OpConversionPattern<TraceOp> {
  using OpConversionPattern<TraceOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TraceOp op, typename TraceOp::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, query(rewriter, op.getLoc()));
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

/// MPI_Allreduce of tensor `x` into a new tensor.
Value allReduceTensor(OpBuilder &b, Location loc, Value x,
                      mpi::MPI_ReductionOpEnum reduction) {
  auto type = cast<RankedTensorType>(x.getType());
  auto memrefType = MemRefType::get(type.getShape(), type.getElementType());
  // The operand's own buffer, read in place (bufferization copies it only
  // if its layout is not the identity this type asks for).
  Value sendBuffer = bufferization::ToBufferOp::create(b, loc, memrefType, x,
                                                       /*read_only=*/true);
  Value recvBuffer = memref::AllocOp::create(b, loc, memrefType);
  Value comm =
      mpi::CommWorldOp::create(b, loc, mpi::CommType::get(b.getContext()));
  mpi::AllReduceOp::create(b, loc, TypeRange{}, asVector(b, loc, sendBuffer),
                           asVector(b, loc, recvBuffer), reduction, comm);
  return bufferization::ToTensorOp::create(b, loc, type, recvBuffer,
                                           /*restrict=*/true,
                                           /*writable=*/true);
}

struct LowerAllReduce : OpConversionPattern<AllReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  // 1:N adaptor: the `after` tokens have become nothing.
  LogicalResult
  matchAndRewrite(AllReduceOp reduce, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = reduce.getLoc();
    RankedTensorType type = reduce.getX().getType();
    Value result = allReduceTensor(rewriter, loc, adaptor.getX().front(),
                                   reductionOf(reduce.getReduction()));
    if (reduce.getReduction() == "mean") {
      Value size = worldSize(rewriter, loc);
      Value count = CastOp::create(rewriter, loc, size, type.getElementType());
      result = DivOp::create(rewriter, loc, result, count);
    }
    // The reduced tensor, and no token.
    rewriter.replaceOpWithMultiple(
        reduce, SmallVector<SmallVector<Value>>{{result}, {}});
    return success();
  }
};

/// A broadcast is the all-reduce sum of the root's operand and zeros from
/// every other process (exact: each other term is a zero; MLIR 22's `mpi`
/// dialect has no bcast). A root that is not a rank of the world gives
/// zeros; tracec.distributed.broadcast checks it first.
struct LowerBroadcast : OpConversionPattern<BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BroadcastOp broadcast, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = broadcast.getLoc();
    Value sent = BroadcastOp::onRootOnly(rewriter, loc, adaptor.getX().front(),
                                         broadcast.getRoot());
    Value result =
        allReduceTensor(rewriter, loc, sent, mpi::MPI_ReductionOpEnum::MPI_SUM);
    rewriter.replaceOpWithMultiple(
        broadcast, SmallVector<SmallVector<Value>>{{result}, {}});
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
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<LowerAllReduce, LowerBroadcast,
               LowerCommQuery<CommRankOp, worldRank>,
               LowerCommQuery<CommSizeOp, worldSize>>(converter,
                                                      patterns.getContext());
}

void mlir::trace::markMpiImplementation(ModuleOp module) {
  bool usesMpi = false;
  module.walk([&](Operation *op) {
    if (isa<AllReduceOp, BroadcastOp, CommRankOp, CommSizeOp>(op))
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
