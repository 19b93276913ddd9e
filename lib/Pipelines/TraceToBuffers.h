//===- TraceToBuffers.h - The front half both pipelines share -------------===//

#ifndef TRACEC_LIB_PIPELINES_TRACETOBUFFERS_H
#define TRACEC_LIB_PIPELINES_TRACETOBUFFERS_H

#include "mlir/Pass/PassManager.h"

namespace tracec {

/// trace on tensors -> linalg on buffers (the body of a builtin.module
/// pipeline): control dependencies, differentiation, state, linalg,
/// elementwise fusion, bufferization with results turned into caller-owned
/// out-parameters and every internal buffer freed. Targets append their
/// back half.
llvm::StringRef traceToBuffersPipelineText();

/// Registers every pass a pipeline text may name, also in programs (the
/// JIT) that did not register them.
void registerPipelinePasses();

/// Parses "builtin.module(...)" into `pm`, which is anchored on the module.
llvm::LogicalResult parseModulePipeline(llvm::StringRef text,
                                        mlir::OpPassManager &pm);

} // namespace tracec

#endif // TRACEC_LIB_PIPELINES_TRACETOBUFFERS_H
