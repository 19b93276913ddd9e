//===- TraceToBuffers.h - The front half both pipelines share -------------===//

#ifndef TRACEC_LIB_PIPELINES_TRACETOBUFFERS_H
#define TRACEC_LIB_PIPELINES_TRACETOBUFFERS_H

#include "mlir/Pass/PassManager.h"

namespace tracec {

/// Adds trace on tensors -> linalg on buffers to `pm` (anchored on
/// builtin.module): control dependencies, differentiation, state, linalg,
/// elementwise fusion, bufferization with results turned into caller-owned
/// out-parameters and every internal buffer freed. Targets append their
/// back half.
/// `onTensors`, when given, adds the target's passes on linalg on tensors,
/// after fusion and before bufferization.
void buildTraceToBuffersPipeline(
    mlir::OpPassManager &pm,
    llvm::function_ref<void(mlir::OpPassManager &)> onTensors = nullptr);

} // namespace tracec

#endif // TRACEC_LIB_PIPELINES_TRACETOBUFFERS_H
