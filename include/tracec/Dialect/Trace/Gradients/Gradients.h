//===- Gradients.h - Attaching the reverse-mode rules ---------------------===//

#ifndef TRACEC_DIALECT_TRACE_GRADIENTS_GRADIENTS_H
#define TRACEC_DIALECT_TRACE_GRADIENTS_GRADIENTS_H

#include "mlir/IR/DialectRegistry.h"

namespace mlir::trace {

/// Attaches DifferentiableOpInterface to the trace ops and to the upstream
/// ops traced code uses (func.call), one file per op family.
void registerGradientRules(DialectRegistry &registry);

} // namespace mlir::trace

#endif // TRACEC_DIALECT_TRACE_GRADIENTS_GRADIENTS_H
