//===- BufferizableOpInterfaceImpl.h - How trace ops bufferize ------------===//
//
// The trace ops that survive trace-to-linalg (so far only
// trace.optimization_barrier) bufferize through upstream's
// BufferizableOpInterface, attached as external models like upstream's
// tensor and linalg models.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_TRANSFORMS_BUFFERIZATION_BUFFERIZABLEOPINTERFACEIMPL_H
#define TRACEC_TRANSFORMS_BUFFERIZATION_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
namespace trace {
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);
} // namespace trace
} // namespace mlir

#endif // TRACEC_TRANSFORMS_BUFFERIZATION_BUFFERIZABLEOPINTERFACEIMPL_H
