//===- DistinctResults.cpp - One tensor per function result ---------------===//

#include "tracec/Transforms/Bufferization/Passes.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEDISTINCTRESULTS
#include "tracec/Transforms/Bufferization/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {
struct DistinctResultsPass
    : mlir::trace::impl::TraceDistinctResultsBase<DistinctResultsPass> {
  void runOnOperation() override {
    getOperation().walk([](func::ReturnOp ret) {
      llvm::SmallPtrSet<Value, 8> seen;
      OpBuilder builder(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        Value value = operand.get();
        auto tensor = dyn_cast<RankedTensorType>(value.getType());
        if (!tensor || seen.insert(value).second)
          continue;
        operand.set(bufferization::AllocTensorOp::create(
            builder, ret.getLoc(), tensor, ValueRange{}, /*copy=*/value));
      }
    });
  }
};
} // namespace
