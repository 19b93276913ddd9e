//===- TraceTypeConstraints.h - C++ predicates of the ODS constraints -----===//
//
// Generated from dialects/Trace/TraceBase.td: `isTraceElementType` is true
// for the dialect's dtypes (Trace_Element), the one list C++ asks instead of
// writing the dtypes again.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_DIALECT_TRACE_IR_TRACETYPECONSTRAINTS_H
#define TRACEC_DIALECT_TRACE_IR_TRACETYPECONSTRAINTS_H

#include "mlir/IR/Types.h"

namespace mlir::trace {
#include "tracec/Dialect/Trace/IR/TraceTypeConstraints.h.inc"
} // namespace mlir::trace

#endif // TRACEC_DIALECT_TRACE_IR_TRACETYPECONSTRAINTS_H
