//===- TraceToBuffers.h - The front half both pipelines share -------------===//

#ifndef TRACEC_LIB_PIPELINES_TRACETOBUFFERS_H
#define TRACEC_LIB_PIPELINES_TRACETOBUFFERS_H

#include "mlir/Pass/PassManager.h"

namespace tracec {

/// Adds trace on tensors -> linalg on buffers to `pm` (anchored on
/// builtin.module): control dependencies, differentiation, state, linalg,
/// elementwise fusion, bufferization with results turned into caller-owned
/// out-parameters and every internal buffer freed. Targets append their
/// back half. A target may add its own passes on linalg on tensors (after
/// fusion) with `onTensors`, right after bufferization, before results
/// become out-parameters, with `onBuffers`, and on trace ops of the
/// differentiated, stateless program, before trace-to-linalg, with
/// `onTrace` (ops a target lowers its own way). `overlapCollectives`:
/// all-reduces start as early as their operands exist and without
/// blocking (trace-schedule-collectives, trace-lower-state's option).
void buildTraceToBuffersPipeline(
    mlir::OpPassManager &pm,
    llvm::function_ref<void(mlir::OpPassManager &)> onTensors = nullptr,
    llvm::function_ref<void(mlir::OpPassManager &)> onBuffers = nullptr,
    llvm::function_ref<void(mlir::OpPassManager &)> onTrace = nullptr,
    bool overlapCollectives = false);

} // namespace tracec

#endif // TRACEC_LIB_PIPELINES_TRACETOBUFFERS_H
