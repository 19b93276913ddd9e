//===- LowerState.cpp - Variables become caller-owned buffers -------------===//
//
// A `!trace.resource<tensor<S x T>>` argument becomes a `memref<S x T>`
// argument: the caller's buffer, updated in place.
//
//   %v, %c = trace.var.read %r after(...)
//     -> %t = bufferization.to_tensor %m restrict
//        %v = bufferization.alloc_tensor() copy(%t)       (a snapshot)
//   trace.var.assign %r, %x after(...)
//     -> bufferization.materialize_in_destination %x in restrict writable %m
//   trace.var.assign_add %r, %x   (assign_sub: trace.sub)
//     -> snapshot %old; %new = trace.add %old, %x; materialize %new in %m
//   %y = trace.identity %x after(...)  -> %x
//   random_uniform, random_normal, print: StateLowerings.h
//
// Control tokens are erased: trace-auto-control-deps already put the block's
// ops in an order consistent with them, and what replaces the ops has
// memory effects (buffer writes, the random counters' atomic updates, the
// print callback's calls), so program order carries the order from here on.
//
//===----------------------------------------------------------------------===//

#include "tracec/Transforms/State/Passes.h"

#include "StateLowerings.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACELOWERSTATE
#include "tracec/Transforms/State/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;
using namespace mlir::trace;

namespace {

/// The buffer type of a resource's value, or null when it has none.
MemRefType bufferTypeOf(ResourceType resource) {
  auto tensor = dyn_cast<RankedTensorType>(resource.getValueType());
  if (!tensor)
    return {};
  return MemRefType::get(tensor.getShape(), tensor.getElementType());
}

bool isStateOp(Operation *op) {
  return isa<VarReadOp, VarAssignOp, VarAssignAddOp, VarAssignSubOp, PrintOp,
             RandomUniformOp, RandomNormalOp>(op);
}

/// A fresh tensor holding the buffer's contents now: a later write to the
/// buffer cannot change it.
Value snapshot(OpBuilder &b, Location loc, Value buffer, Type tensorType) {
  Value view = bufferization::ToTensorOp::create(b, loc, tensorType, buffer,
                                                 /*restrict=*/true,
                                                 /*writable=*/false);
  return bufferization::AllocTensorOp::create(
      b, loc, cast<RankedTensorType>(tensorType), ValueRange{}, /*copy=*/view);
}

void store(OpBuilder &b, Location loc, Value value, Value buffer) {
  auto op = bufferization::MaterializeInDestinationOp::create(b, loc, value,
                                                               buffer);
  op.setRestrict(true);
  op.setWritable(true);
}

struct LowerStatePass
    : mlir::trace::impl::TraceLowerStateBase<LowerStatePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    bool failedAny = false;
    // Collected first: lowering adds globals and declarations to the module.
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>()))
      if (failed(lowerFunction(func, symbols)))
        failedAny = true;
    if (failedAny)
      signalPassFailure();
  }

  /// An op outside this pass that takes a control token, or null.
  static Operation *unknownTokenUser(func::FuncOp func) {
    Operation *unknown = nullptr;
    func.walk([&](Operation *op) {
      for (Value v : op->getResults())
        if (isa<ControlType>(v.getType()))
          for (Operation *user : v.getUsers())
            if (!isStateOp(user) && !isa<IdentityOp>(user)) {
              unknown = user;
              return WalkResult::interrupt();
            }
      return WalkResult::advance();
    });
    return unknown;
  }

  LogicalResult lowerFunction(func::FuncOp func, SymbolTable &symbols) {
    bool hasResourceArgs = llvm::any_of(func.getArgumentTypes(), [](Type t) {
      return isa<ResourceType>(t);
    });
    if (func.isExternal()) {
      if (hasResourceArgs)
        convertSignature(func);
      return success();
    }
    bool hasState = hasResourceArgs;
    func.walk([&](Operation *op) {
      if (isStateOp(op) ||
          (isa<IdentityOp>(op) && !cast<IdentityOp>(op).getAfter().empty()))
        hasState = true;
    });
    if (!hasState)
      return success();
    stripRegionTokens(func);
    if (Operation *user = unknownTokenUser(func))
      return user->emitOpError("takes a control token, which trace-lower-state "
                               "cannot lower");
    if (llvm::any_of(func.getResultTypes(),
                     [](Type t) { return isa<ResourceType>(t); }))
      return func.emitError("returning a resource is not supported");

    // Arguments: resources become buffers in place (call sites pass the
    // caller's converted arguments, so their types follow).
    Block &entry = func.getBody().front();
    for (BlockArgument arg : entry.getArguments())
      if (auto resource = dyn_cast<ResourceType>(arg.getType())) {
        MemRefType buffer = bufferTypeOf(resource);
        if (!buffer || !buffer.hasStaticShape())
          return emitError(arg.getLoc())
                 << "argument " << arg.getArgNumber() << " of @"
                 << func.getSymName() << ": " << resource
                 << " needs a statically shaped tensor value to become a "
                    "buffer";
        arg.setType(buffer);
      }
    convertSignature(func);

    // Lower the state ops in program order.
    SmallVector<Operation *> ops;
    func.walk([&](Operation *op) {
      if (isStateOp(op) || isa<IdentityOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      if (auto identity = dyn_cast<IdentityOp>(op)) {
        if (identity.getAfter().empty())
          continue;
        identity.getResult().replaceAllUsesWith(identity.getX());
        continue;
      }
      if (auto print = dyn_cast<PrintOp>(op)) {
        if (failed(lowerPrint(print, symbols)))
          return failure();
        continue;
      }
      if (isa<RandomUniformOp, RandomNormalOp>(op)) {
        if (failed(lowerRandom(op, symbols)))
          return failure();
        continue;
      }
      Value buffer = op->getOperand(0);
      if (!isa<MemRefType>(buffer.getType()))
        return op->emitError("the variable must be a function argument to be "
                             "lowered to a buffer");
      if (auto read = dyn_cast<VarReadOp>(op)) {
        read.getValue().replaceAllUsesWith(
            snapshot(b, loc, buffer, read.getValue().getType()));
        continue;
      }
      Value value = op->getOperand(1);
      if (isa<VarAssignAddOp, VarAssignSubOp>(op)) {
        Value old = snapshot(b, loc, buffer, value.getType());
        value = isa<VarAssignAddOp>(op)
                    ? Value(AddOp::create(b, loc, old, value))
                    : Value(SubOp::create(b, loc, old, value));
      }
      store(b, loc, value, buffer);
    }
    // Erase users of tokens before their producers: in reverse program order.
    for (Operation *op : llvm::reverse(ops)) {
      if (auto identity = dyn_cast<IdentityOp>(op))
        if (identity.getAfter().empty())
          continue;
      op->dropAllUses();
      op->erase();
    }
    return success();
  }

  static void convertSignature(func::FuncOp func) {
    SmallVector<Type> inputs;
    for (Type t : func.getArgumentTypes()) {
      auto resource = dyn_cast<ResourceType>(t);
      MemRefType buffer = resource ? bufferTypeOf(resource) : MemRefType();
      inputs.push_back(buffer ? Type(buffer) : t);
    }
    func.setFunctionType(
        FunctionType::get(func.getContext(), inputs, func.getResultTypes()));
  }
};

} // namespace
