//===- LocalBuffers.cpp - Buffers freed where they are allocated ----------===//

#include "LocalBuffers.h"

#include "tracec/Transforms/Bufferization/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"

using namespace mlir;

/// A call of a function that only borrows its arguments.
static bool borrowsArguments(Operation *op) {
  auto call = dyn_cast<func::CallOp>(op);
  if (!call)
    return false;
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  return callee && callee->hasAttr(trace::kBorrowsArgumentsAttrName);
}

FailureOr<memref::DeallocOp>
trace::findLocalDealloc(memref::AllocOp alloc,
                        function_ref<void(Operation *)> onUse) {
  memref::DeallocOp found;
  SmallVector<Value> worklist{alloc.getResult()};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
        if (value != alloc.getResult() || found ||
            dealloc->getBlock() != alloc->getBlock())
          return failure();
        found = dealloc;
        continue;
      }
      bool mayLeave = isa<CallOpInterface, RegionBranchOpInterface,
                          RegionBranchTerminatorOpInterface>(user) ||
                      user->hasTrait<OpTrait::ReturnLike>() ||
                      user->hasTrait<OpTrait::IsTerminator>();
      if (mayLeave && !borrowsArguments(user))
        return failure();
      // Whatever returns a memref may alias its memref operands (views,
      // casts, reshapes).
      for (Value result : user->getResults())
        if (isa<BaseMemRefType>(result.getType()))
          worklist.push_back(result);
      if (onUse)
        onUse(user);
    }
  }
  if (!found)
    return failure();
  return found;
}
