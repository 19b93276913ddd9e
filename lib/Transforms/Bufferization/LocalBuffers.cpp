//===- LocalBuffers.cpp - Buffers freed where they are allocated ----------===//

#include "LocalBuffers.h"

#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"

using namespace mlir;

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
      if (isa<CallOpInterface, RegionBranchOpInterface,
              RegionBranchTerminatorOpInterface>(user) ||
          user->hasTrait<OpTrait::ReturnLike>() ||
          user->hasTrait<OpTrait::IsTerminator>())
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
