//===- InferResultTypes.cpp - Ops built from operands alone ---------------===//

#include "tracec/Dialect/Trace/IR/InferResultTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

using namespace mlir;

Operation *mlir::trace::createWithInferredTypes(OperationState &state,
                                                unsigned numResults) {
  MLIRContext *context = state.getContext();
  // Inference reads the attributes as their ODS kinds: one of another kind
  // would be read as null.
  if (std::optional<RegisteredOperationName> registered =
          state.name.getRegisteredInfo())
    if (failed(registered->verifyInherentAttrs(state.attributes, [&] {
          return emitError(state.location) << "'" << state.name << "' op ";
        })))
      return nullptr;
  state.types.assign(numResults, NoneType::get(context));
  Operation *op = Operation::create(state);
  auto infer = dyn_cast<InferTypeOpInterface>(op);
  if (!infer) {
    emitError(state.location) << "'" << state.name
                              << "' does not infer its result types";
    op->destroy();
    return nullptr;
  }
  SmallVector<Type> types;
  if (failed(infer.inferReturnTypes(context, state.location, op->getOperands(),
                                    op->getRawDictionaryAttrs(),
                                    op->getPropertiesStorage(),
                                    op->getRegions(), types))) {
    op->destroy();
    return nullptr;
  }
  if (types.size() != numResults) {
    emitError(state.location) << "'" << state.name << "' inferred "
                              << types.size() << " results, expected "
                              << numResults;
    op->destroy();
    return nullptr;
  }
  for (auto [result, type] : llvm::zip(op->getResults(), types))
    result.setType(type);
  return op;
}
