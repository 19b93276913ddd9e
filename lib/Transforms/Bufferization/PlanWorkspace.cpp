//===- PlanWorkspace.cpp - Intermediate buffers in one reused workspace ---===//
//
// After bufferization every intermediate is a memref.alloc freed at the end
// of the function: a call mallocs each of them. This pass gives them fixed
// offsets in one workspace per function (buffers that are never live at
// the same time share bytes) and makes the workspace a global that calls
// take and give back, so a warm call allocates nothing.
//
//===----------------------------------------------------------------------===//

#include "tracec/Transforms/Bufferization/Passes.h"

#include "LocalBuffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEPLANWORKSPACE
#include "tracec/Transforms/Bufferization/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {
/// A buffer that moves into the workspace: its bytes and the positions (in
/// the function's block) of its first and last use.
struct Buffer {
  memref::AllocOp alloc;
  memref::DeallocOp dealloc;
  int64_t bytes = 0;
  int64_t alignment = 0;
  unsigned first = 0, last = 0;
  int64_t offset = 0;
};
} // namespace

/// The position in `block` of the op there that holds `op`.
static unsigned positionIn(Block &block, Operation *op,
                           const DenseMap<Operation *, unsigned> &order) {
  return order.lookup(block.findAncestorOpInBlock(*op));
}

/// Fills in `buffer`'s dealloc and lifetime (positions in `block`, which
/// holds the alloc); fails where findLocalDealloc does.
static LogicalResult analyze(Buffer &buffer, Block &block,
                             const DenseMap<Operation *, unsigned> &order) {
  buffer.first = buffer.last = order.lookup(buffer.alloc);
  bool used = false;
  FailureOr<memref::DeallocOp> dealloc =
      trace::findLocalDealloc(buffer.alloc, [&](Operation *user) {
        unsigned at = positionIn(block, user, order);
        buffer.first = used ? std::min(buffer.first, at) : at;
        buffer.last = used ? std::max(buffer.last, at) : at;
        used = true;
      });
  if (failed(dealloc))
    return failure();
  buffer.dealloc = *dealloc;
  return success();
}

/// Greedy by size (as TFLite's arena planner): the largest buffer first,
/// each at the lowest offset where it overlaps no placed buffer that is
/// live at the same time (or, with `equalSizesOnly`, that differs in size).
/// Returns the workspace's size.
static int64_t placeBuffers(MutableArrayRef<Buffer> buffers,
                            bool equalSizesOnly) {
  // Ties in program order, so the plan is deterministic.
  SmallVector<Buffer *> bySize;
  for (Buffer &buffer : buffers)
    bySize.push_back(&buffer);
  llvm::sort(bySize, [](Buffer *a, Buffer *b) {
    return std::make_pair(-a->bytes, a->first) <
           std::make_pair(-b->bytes, b->first);
  });
  int64_t total = 0;
  SmallVector<Buffer *> placed;
  for (Buffer *buffer : bySize) {
    // The placed buffers whose bytes this one may not share, by offset.
    SmallVector<Buffer *> live;
    for (Buffer *other : placed)
      if ((other->first <= buffer->last && buffer->first <= other->last) ||
          (equalSizesOnly && other->bytes != buffer->bytes))
        live.push_back(other);
    llvm::sort(live,
               [](Buffer *a, Buffer *b) { return a->offset < b->offset; });
    int64_t offset = 0;
    for (Buffer *other : live) {
      if (offset + buffer->bytes <= other->offset)
        break;
      offset =
          std::max<int64_t>(offset, llvm::alignTo(other->offset + other->bytes,
                                                  buffer->alignment));
    }
    buffer->offset = offset;
    total = std::max(total, offset + buffer->bytes);
    placed.push_back(buffer);
  }
  return total;
}

/// The workspace of `func`: one global per type of `slots` and a busy
/// flag. On entry a call takes the globals if the flag was clear, else it
/// mallocs its own; before returning it clears the flag or frees its own.
/// All slots come out of one scf.if, so LLVM sees each pair of them as
/// two distinct globals or two distinct mallocs: they do not alias.
static SmallVector<Value> acquireWorkspace(func::FuncOp func,
                                           SymbolTable &symbols,
                                           ArrayRef<MemRefType> slots,
                                           int64_t alignment, Value &isGlobal,
                                           Value &busy) {
  MLIRContext *context = func.getContext();
  Location loc = func.getLoc();
  auto flagType = MemRefType::get({}, IntegerType::get(context, 32));

  OpBuilder builder(func);
  auto visibility = builder.getStringAttr("private");
  SmallVector<memref::GlobalOp> globals;
  for (MemRefType type : slots) {
    auto global = memref::GlobalOp::create(
        builder, loc, ("__trace_workspace_" + func.getSymName()).str(),
        visibility, type, builder.getUnitAttr(), /*constant=*/false,
        builder.getI64IntegerAttr(alignment));
    symbols.insert(global); // renamed _0, _1, ... if taken
    globals.push_back(global);
  }
  auto flag = memref::GlobalOp::create(
      builder, loc, ("__trace_workspace_busy_" + func.getSymName()).str(),
      visibility, flagType,
      DenseElementsAttr::get(RankedTensorType::get({}, builder.getI32Type()),
                             builder.getI32IntegerAttr(0).getValue()),
      /*constant=*/false, /*alignment=*/nullptr);
  symbols.insert(flag);

  builder.setInsertionPointToStart(&func.front());
  busy = memref::GetGlobalOp::create(builder, loc, flagType, flag.getSymName());
  Value one = arith::ConstantIntOp::create(builder, loc, 1, 32);
  Value zero = arith::ConstantIntOp::create(builder, loc, 0, 32);
  Value was = memref::AtomicRMWOp::create(
      builder, loc, arith::AtomicRMWKind::assign, one, busy, ValueRange{});
  isGlobal =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, was, zero);
  SmallVector<Type> types(slots.begin(), slots.end());
  auto select = scf::IfOp::create(builder, loc, types, isGlobal,
                                  /*withElseRegion=*/true);
  builder.setInsertionPointToStart(select.thenBlock());
  SmallVector<Value> values;
  for (auto [global, type] : llvm::zip(globals, slots))
    values.push_back(
        memref::GetGlobalOp::create(builder, loc, type, global.getSymName()));
  scf::YieldOp::create(builder, loc, values);
  builder.setInsertionPointToStart(select.elseBlock());
  values.clear();
  for (MemRefType type : slots)
    values.push_back(memref::AllocOp::create(
        builder, loc, type, builder.getI64IntegerAttr(alignment)));
  scf::YieldOp::create(builder, loc, values);
  return SmallVector<Value>(select.getResults());
}

static void releaseWorkspace(Operation *ret, ValueRange workspace,
                             Value isGlobal, Value busy) {
  OpBuilder builder(ret);
  Location loc = ret->getLoc();
  scf::IfOp::create(
      builder, loc, isGlobal,
      [&](OpBuilder &b, Location l) {
        Value zero = arith::ConstantIntOp::create(b, l, 0, 32);
        memref::AtomicRMWOp::create(b, l, arith::AtomicRMWKind::assign, zero,
                                    busy, ValueRange{});
        scf::YieldOp::create(b, l);
      },
      [&](OpBuilder &b, Location l) {
        for (Value slot : workspace)
          memref::DeallocOp::create(b, l, slot);
        scf::YieldOp::create(b, l);
      });
}

static void planWorkspace(func::FuncOp func, SymbolTable &symbols,
                          bool shareBytes, bool equalSizesOnly) {
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return;
  Block &block = func.front();
  DenseMap<Operation *, unsigned> order;
  for (Operation &op : block)
    order[&op] = order.size();
  DataLayout layout = DataLayout::closest(func);

  SmallVector<Buffer> buffers;
  for (auto alloc : block.getOps<memref::AllocOp>()) {
    MemRefType type = alloc.getType();
    if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
        type.getMemorySpace() || !alloc.getSymbolOperands().empty())
      continue;
    Buffer buffer;
    buffer.alloc = alloc;
    buffer.bytes = type.getNumElements() *
                   layout.getTypeSize(type.getElementType()).getFixedValue();
    buffer.alignment = std::max<int64_t>(64, alloc.getAlignment().value_or(0));
    if (succeeded(analyze(buffer, block, order)))
      buffers.push_back(buffer);
  }
  if (buffers.empty())
    return;

  int64_t alignment = 64;
  for (const Buffer &buffer : buffers)
    alignment = std::max(alignment, buffer.alignment);

  // Each buffer its own slot, or one slot of bytes that they share.
  SmallVector<MemRefType> slots;
  if (shareBytes) {
    int64_t bytes = std::max<int64_t>(placeBuffers(buffers, equalSizesOnly), 1);
    slots.push_back(
        MemRefType::get({bytes}, IntegerType::get(func.getContext(), 8)));
  } else {
    for (Buffer &buffer : buffers)
      slots.push_back(buffer.alloc.getType());
  }
  Value isGlobal, busy;
  SmallVector<Value> workspace =
      acquireWorkspace(func, symbols, slots, alignment, isGlobal, busy);
  for (auto [i, buffer] : llvm::enumerate(buffers)) {
    Value replacement;
    if (shareBytes) {
      OpBuilder builder(buffer.alloc);
      Location loc = buffer.alloc.getLoc();
      Value offset =
          arith::ConstantIndexOp::create(builder, loc, buffer.offset);
      replacement = memref::ViewOp::create(builder, loc, buffer.alloc.getType(),
                                           workspace[0], offset, ValueRange{});
    } else {
      replacement = workspace[i];
    }
    buffer.alloc.replaceAllUsesWith(replacement);
    buffer.dealloc.erase();
    buffer.alloc.erase();
  }
  releaseWorkspace(block.getTerminator(), workspace, isGlobal, busy);
}

namespace {
struct PlanWorkspacePass
    : mlir::trace::impl::TracePlanWorkspaceBase<PlanWorkspacePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>()))
      planWorkspace(func, symbols, shareBytes, shareEqualSizesOnly);
  }
};
} // namespace
