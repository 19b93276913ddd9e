//===- GpuManagedBuffers.cpp - Buffers a kernel can reach -----------------===//
//
// The design: every buffer a function touches lives in CUDA managed memory
// (`gpu.alloc host_shared`, cuMemAllocManaged), one address valid on the
// host and the device. The caller's buffers may be ordinary host memory,
// which a kernel cannot reach: those (asked at run time) are copied into
// managed buffers on entry where the function may read them, and copied
// back before returning where it writes them; managed ones (the results of
// earlier calls, device_put) are used in place. Launches are
// synchronous, so host code between them (a loop not mapped to the GPU, a
// copy) sees the kernels' writes: the result is right whichever side runs
// an op, at the price of a copy per host argument and call.
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEGPUMANAGEDBUFFERS
#include "tracec/Codegen/GPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

/// Whether anything may have an `Effect` (read, write) on `buffer` or an
/// alias of it (a view, a cast, its base buffer). Ops that declare no
/// memory effects are assumed to, and so are ops that take the buffer into
/// their regions as an operand (an scf.for iter_arg).
template <typename Effect> static bool mayHave(Value buffer) {
  SmallVector<Value> worklist{buffer};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (Operation *user : value.getUsers()) {
      auto effects = dyn_cast<MemoryEffectOpInterface>(user);
      if (!effects && user->getNumRegions() > 0)
        return true;
      bool aliases = false;
      for (Value result : user->getResults())
        if (isa<BaseMemRefType>(result.getType())) {
          worklist.push_back(result);
          aliases = true;
        }
      if (!effects) {
        if (!aliases && !user->hasTrait<OpTrait::ReturnLike>())
          return true;
        continue;
      }
      SmallVector<MemoryEffects::EffectInstance> instances;
      effects.getEffects(instances);
      for (const auto &instance : instances)
        if (isa<Effect>(instance.getEffect()) &&
            (!instance.getValue() || instance.getValue() == value))
          return true;
    }
  }
  return false;
}

/// Whether `op` writes every element of its init `buffer` without reading
/// it (or one of its `aliases`): a fill, or an op of parallel loops only
/// whose payload ignores the init and whose map for it is a permutation
/// (its loops then span the buffer's shape), the buffer not an input too
/// (`x = exp(x)` in place reads it).
static bool writesWhole(linalg::LinalgOp op, Value buffer,
                        const DenseSet<Value> &aliases) {
  for (OpOperand *input : op.getDpsInputOperands())
    if (aliases.contains(input->get()))
      return false;
  if (isa<linalg::FillOp>(op))
    return op.getDpsInits()[0] == buffer;
  if (op.getNumReductionLoops() != 0)
    return false;
  for (OpOperand &init : op.getDpsInitsMutable())
    if (init.get() == buffer)
      return !op.payloadUsesValueFromOperand(&init) &&
             op.getMatchingIndexingMap(&init).isPermutation();
  return false;
}

/// Whether the first op of `block` that touches `buffer` (or a view of it)
/// overwrites it whole: its contents on entry are then never read, and a
/// copy of them would be wasted (an output the function also reads back,
/// as a reduction reads the exp it wrote).
static bool writtenWholeFirst(Value buffer, Block &block) {
  DenseSet<Value> aliases = {buffer};
  for (Operation &op : block) {
    bool touches = llvm::any_of(op.getOperands(), [&](Value operand) {
      return aliases.contains(operand);
    });
    if (!touches) {
      // Inside a region (an scf.for body) a use counts as touching it.
      bool inside = op.walk([&](Operation *nested) {
                        return llvm::any_of(nested->getOperands(),
                                            [&](Value operand) {
                                              return aliases.contains(operand);
                                            })
                                   ? WalkResult::interrupt()
                                   : WalkResult::advance();
                      }).wasInterrupted();
      if (inside)
        return false;
      continue;
    }
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      return writesWhole(linalgOp, buffer, aliases);
    // A view or cast: no access yet, but what it makes aliases the buffer.
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (effects && effects.hasNoEffect() && op.getNumRegions() == 0) {
      for (Value result : op.getResults())
        if (isa<BaseMemRefType>(result.getType()))
          aliases.insert(result);
      continue;
    }
    return false;
  }
  return false;
}

/// Whether a linalg op (which may become a kernel) uses `buffer` or an
/// alias of it.
static bool usedByLinalg(Value buffer) {
  SmallVector<Value> worklist{buffer};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (isa<linalg::LinalgOp>(user))
        return true;
      for (Value result : user->getResults())
        if (isa<BaseMemRefType>(result.getType()))
          worklist.push_back(result);
    }
  }
  return false;
}

/// `gpu.alloc host_shared` of `type`, with the dynamic sizes of `like`
/// (read by the ops added to `reads`).
static Value allocManaged(OpBuilder &builder, Location loc, MemRefType type,
                          Value like, SmallPtrSetImpl<Operation *> &reads) {
  SmallVector<Value> sizes;
  for (auto [i, size] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(size)) {
      auto dim = memref::DimOp::create(builder, loc, like, i);
      reads.insert(dim);
      sizes.push_back(dim);
    }
  return gpu::AllocOp::create(builder, loc, type, /*asyncToken=*/Type(),
                              ValueRange(), sizes, ValueRange(),
                              /*hostShared=*/true)
      .getMemref();
}

/// gpu.dealloc lowers to a runtime call only in its async form.
static void deallocManaged(OpBuilder &builder, Location loc, Value buffer) {
  auto tokenType = gpu::AsyncTokenType::get(builder.getContext());
  Value start = gpu::WaitOp::create(builder, loc, tokenType, ValueRange())
                    .getAsyncToken();
  Value done = gpu::DeallocOp::create(builder, loc, tokenType, start, buffer)
                   .getAsyncToken();
  gpu::WaitOp::create(builder, loc, Type(), done);
}

namespace {
struct GpuManagedBuffersPass
    : mlir::trace::impl::TraceGpuManagedBuffersBase<GpuManagedBuffersPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal() && mayLaunch(func) && failed(runOnFunction(func)))
        return signalPassFailure();
  }

  /// Whether `func` may run a kernel: a linalg op (or a copy, which
  /// trace-expand-copies made one) becomes one, a call may run one. A
  /// function with neither, such as a shape function (trace-shape-functions,
  /// called before its entry to size the outputs), stays host code on host
  /// memory and calls no CUDA.
  static bool mayLaunch(func::FuncOp func) {
    return func
        .walk([](Operation *op) {
          return isa<linalg::LinalgOp, CallOpInterface>(op)
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        })
        .wasInterrupted();
  }

  LogicalResult runOnFunction(func::FuncOp func) {
    // Allocations of the function itself: managed from the start.
    WalkResult result = func.walk([&](Operation *op) {
      if (!isa<memref::AllocOp, memref::AllocaOp>(op))
        return WalkResult::advance();
      auto type = cast<MemRefType>(op->getResult(0).getType());
      if (!type.getLayout().isIdentity()) {
        op->emitOpError("cannot be placed in GPU managed memory: its layout "
                        "is not the identity");
        return WalkResult::interrupt();
      }
      OpBuilder builder(op);
      SmallVector<Value> sizes(op->getOperands());
      Value managed = gpu::AllocOp::create(builder, op->getLoc(), type,
                                           Type(), ValueRange(), sizes,
                                           ValueRange(), /*hostShared=*/true)
                          .getMemref();
      op->getResult(0).replaceAllUsesWith(managed);
      // An alloca dies with its scope: free it at the end of its block.
      if (isa<memref::AllocaOp>(op)) {
        builder.setInsertionPoint(op->getBlock()->getTerminator());
        deallocManaged(builder, op->getLoc(), managed);
      }
      op->erase();
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return failure();
    // Every deallocation left frees one of those allocations: the callee
    // never frees the caller's buffers.
    func.walk([&](memref::DeallocOp dealloc) {
      OpBuilder builder(dealloc);
      deallocManaged(builder, dealloc.getLoc(), dealloc.getMemref());
      dealloc.erase();
    });

    // Host memory entering the function: the arguments of an entry point
    // (a private function's come from its callers here, already managed)
    // and constants.
    SmallVector<Operation *> returns;
    func.walk([&](func::ReturnOp op) { returns.push_back(op); });
    // In reverse, as each goes to the top: staging in argument order. A
    // buffer is copied in if the function may read it, or write only part
    // of it (the copy back must return the rest as it was, a variable's
    // other elements), unless it first overwrites it whole.
    for (BlockArgument arg : llvm::reverse(func.getArguments())) {
      auto type = dyn_cast<MemRefType>(arg.getType());
      if (!type || !func.isPublic())
        continue;
      bool reads = mayHave<MemoryEffects::Read>(arg),
           writes = mayHave<MemoryEffects::Write>(arg);
      bool copyIn =
          (reads || writes) && !writtenWholeFirst(arg, func.getBody().front());
      if (failed(stageUnlessManaged(arg, type, returns, copyIn,
                                    /*copyBack=*/writes)))
        return failure();
    }
    // A mutable global that no linalg op uses (a random op's run counter,
    // advanced atomically on the host) stays where it is: a copy would
    // lose concurrent updates. One that a kernel may write is written back.
    SmallVector<memref::GetGlobalOp> globals;
    func.walk([&](memref::GetGlobalOp op) { globals.push_back(op); });
    for (memref::GetGlobalOp get : globals) {
      auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          get, get.getNameAttr());
      bool constant = global && global.getConstant();
      if (!constant && !usedByLinalg(get.getResult()))
        continue;
      Operation *end = get->getBlock()->getTerminator();
      if (failed(stage(get.getResult(), get.getType(), *get->getBlock(),
                       std::next(get->getIterator()), end, /*copyIn=*/true,
                       /*copyBack=*/!constant &&
                           mayHave<MemoryEffects::Write>(get.getResult()))))
        return failure();
    }
    return success();
  }

  /// As `stage` at the start of the function, for a caller's buffer,
  /// unless it is managed memory already (tracec_cuda_alloc_managed, a GPU
  /// function's result): the function then uses it in place, with no
  /// copy either way, so data that stays on the device across calls is
  /// not copied through the host on each.
  LogicalResult stageUnlessManaged(BlockArgument arg, MemRefType type,
                                   ArrayRef<Operation *> ends, bool copyIn,
                                   bool copyBack) {
    Location loc = arg.getLoc();
    if (!type.getLayout().isIdentity())
      return emitError(loc) << "a buffer of type " << type
                            << " cannot be copied to GPU managed memory: its "
                               "layout is not the identity";
    Block &entry = *arg.getOwner();
    OpBuilder builder(&entry, entry.begin());
    Value pointer =
        memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, arg);
    Value address =
        arith::IndexCastOp::create(builder, loc, builder.getI64Type(), pointer);
    Value flag = func::CallOp::create(builder, loc, isManagedFunction(),
                                      ValueRange{address})
                     .getResult(0);
    Value managed = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::ne, flag,
        arith::ConstantIntOp::create(builder, loc, builder.getI32Type(), 0));
    auto choose = scf::IfOp::create(builder, loc, TypeRange{type}, managed,
                                    /*withElseRegion=*/true);
    builder.setInsertionPointToStart(choose.thenBlock());
    scf::YieldOp::create(builder, loc, ValueRange{arg});
    builder.setInsertionPointToStart(choose.elseBlock());
    SmallPtrSet<Operation *, 4> unused;
    Value twin = allocManaged(builder, loc, type, arg, unused);
    if (copyIn)
      memref::CopyOp::create(builder, loc, arg, twin);
    scf::YieldOp::create(builder, loc, ValueRange{twin});
    Value buffer = choose.getResult(0);
    // What comes after the choice uses the buffer chosen.
    arg.replaceUsesWithIf(buffer, [&](OpOperand &use) {
      Operation *owner = use.getOwner();
      return owner != pointer.getDefiningOp() && !choose->isAncestor(owner);
    });
    for (Operation *end : ends) {
      builder.setInsertionPoint(end);
      Value staged = arith::XOrIOp::create(
          builder, loc, managed,
          arith::ConstantIntOp::create(builder, loc, builder.getI1Type(), 1));
      auto back = scf::IfOp::create(builder, loc, staged);
      builder.setInsertionPointToStart(back.thenBlock());
      if (copyBack)
        memref::CopyOp::create(builder, loc, buffer, arg);
      deallocManaged(builder, loc, buffer);
    }
    return success();
  }

  /// `tracec_cuda_is_managed` of TracecCudaRuntime, declared once.
  func::FuncOp isManagedFunction() {
    ModuleOp module = getOperation();
    constexpr llvm::StringLiteral kName = "tracec_cuda_is_managed";
    if (auto existing = module.lookupSymbol<func::FuncOp>(kName))
      return existing;
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    auto callee =
        func::FuncOp::create(builder, module.getLoc(), kName,
                             builder.getFunctionType({builder.getI64Type()},
                                                     {builder.getI32Type()}));
    callee.setPrivate();
    return callee;
  }

  /// Replaces `hostBuffer` by a managed buffer made at `start` in `block`
  /// (a copy if `copyIn`: an output the function only writes needs none),
  /// freed (and, if `copyBack`, copied back) before each of `ends`.
  LogicalResult stage(Value hostBuffer, MemRefType type, Block &block,
                      Block::iterator start, ArrayRef<Operation *> ends,
                      bool copyIn, bool copyBack) {
    Location loc = hostBuffer.getLoc();
    if (!type.getLayout().isIdentity())
      return emitError(loc) << "a buffer of type " << type
                            << " cannot be copied to GPU managed memory: its "
                               "layout is not the identity";
    OpBuilder builder(&block, start);
    SmallPtrSet<Operation *, 4> staging;
    Value managed = allocManaged(builder, loc, type, hostBuffer, staging);
    if (copyIn)
      staging.insert(memref::CopyOp::create(builder, loc, hostBuffer, managed));
    // Everything but the staging itself (the copy, the sizes) uses the copy.
    hostBuffer.replaceUsesWithIf(managed, [&](OpOperand &use) {
      return !staging.contains(use.getOwner());
    });
    for (Operation *end : ends) {
      builder.setInsertionPoint(end);
      if (copyBack)
        memref::CopyOp::create(builder, loc, managed, hostBuffer);
      deallocManaged(builder, loc, managed);
    }
    return success();
  }
};
} // namespace
