//===- BufferizableOpInterfaceImpl.cpp - How trace ops bufferize ----------===//

#include "tracec/Transforms/Bufferization/BufferizableOpInterfaceImpl.h"

#include "tracec/Dialect/Trace/IR/TraceDialect.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;

namespace {

/// trace.optimization_barrier: each result is its operand's buffer. The op
/// reads and writes nothing, so one-shot analysis never copies for it (a
/// later in-place write into a result is a write into the operand's buffer,
/// and the analysis sees the alias); bufferization erases it. The barrier
/// has done its work by then: no tensor-level CSE runs after.
struct OptimizationBarrierOpInterface
    : BufferizableOpInterface::ExternalModel<OptimizationBarrierOpInterface,
                                             trace::OptimizationBarrierOp> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return false;
  }

  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return false;
  }

  AliasingValueList getAliasingValues(Operation *op, OpOperand &operand,
                                      const AnalysisState &) const {
    return {{op->getResult(operand.getOperandNumber()),
             BufferRelation::Equivalent, /*isDefinite=*/true}};
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    SmallVector<Value> buffers;
    for (Value input : op->getOperands()) {
      FailureOr<Value> buffer = getBuffer(rewriter, input, options, state);
      if (failed(buffer))
        return failure();
      buffers.push_back(*buffer);
    }
    replaceOpWithBufferizedValues(rewriter, op, buffers);
    return success();
  }
};

} // namespace

void mlir::trace::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, trace::TraceDialect *) {
    trace::OptimizationBarrierOp::attachInterface<
        OptimizationBarrierOpInterface>(*context);
  });
}
