//===- TraceTraits.h - Op traits of the trace dialect ---------------------===//

#ifndef TRACEC_DIALECT_TRACE_IR_TRACETRAITS_H
#define TRACEC_DIALECT_TRACE_IR_TRACETRAITS_H

#include "mlir/IR/OpDefinition.h"

// In mlir::OpTrait::trace, as upstream dialects name theirs (tosa), so that
// `OpTrait::` keeps naming upstream's traits where mlir::trace is used.
namespace mlir::OpTrait::trace {

/// Marks an op whose result costs a contraction (matmul, convolution):
/// the `contractions` rematerialization policy saves such results and
/// recomputes the cheap ops around them (Trace_Contraction in ODS).
template <typename ConcreteType>
class Contraction
    : public TraitBase<ConcreteType, Contraction> {};

} // namespace mlir::OpTrait::trace

#endif // TRACEC_DIALECT_TRACE_IR_TRACETRAITS_H
