//===- RuntimeSource.cpp - Runtime code an AOT object carries as source ---===//

#include "RuntimeSource.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;

LogicalResult
tracec::aot::mergeRuntimeSource(ModuleOp module, StringRef source,
                                StringRef what,
                                function_ref<LogicalResult()> beforeMerge) {
  OwningOpRef<ModuleOp> parsed =
      parseSourceString<ModuleOp>(source, module.getContext());
  if (!parsed)
    return emitError(module.getLoc())
           << "internal error: the AOT object's " << what << " does not parse";
  SmallVector<Operation *> added;
  for (Operation &op : parsed->getBody()->getOperations()) {
    auto symbol = dyn_cast<SymbolOpInterface>(op);
    Operation *existing =
        symbol ? module.lookupSymbol(symbol.getName()) : nullptr;
    if (!existing) {
      added.push_back(&op);
      continue;
    }
    auto func = dyn_cast<LLVM::LLVMFuncOp>(existing);
    if (!func || !func.isExternal() || !cast<LLVM::LLVMFuncOp>(op).isExternal())
      return existing->emitError()
             << "@" << symbol.getName() << " is a name that the AOT object's "
             << what << " defines";
  }
  if (beforeMerge && failed(beforeMerge()))
    return failure();
  Block *body = module.getBody();
  for (Operation *op : added)
    op->moveBefore(body, body->end());
  return success();
}
