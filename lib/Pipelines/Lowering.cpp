//===- Lowering.cpp - What the JIT and the AOT compiler both run ----------===//

#include "tracec/Pipelines/Lowering.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "tracec/Transforms/State/Passes.h"

using namespace mlir;

void tracec::buildLoweringPipeline(OpPassManager &pm,
                                   const LoweringOptions &options) {
  if (options.gpu)
    buildGpuPipeline(pm, *options.gpu);
  else
    buildCpuPipeline(pm, options.cpu);
}

void tracec::keepOnlyEntriesPublic(ModuleOp module,
                                   function_ref<bool(func::FuncOp)> isEntry,
                                   function_ref<void(func::FuncOp)> onHidden) {
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func.isPublic() || func.isExternal() || isEntry(func))
      continue;
    func.setPrivate();
    if (onHidden)
      onHidden(func);
  }
}

LogicalResult tracec::partitionShards(ModuleOp module) {
  if (module.getOps<shard::GridOp>().empty())
    return success();
  PassManager pm(module.getContext());
  pm.addPass(trace::createTraceShardToCollectives());
  return pm.run(module);
}
