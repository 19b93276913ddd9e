//===- TraceAdjointOps.h - scatter_add and max_pool2d_select -------------===//
//
// The adjoints of gather and max_pool2d_grad (dialects/Trace/
// TraceAdjointOps.td), ops of the trace dialect like those of TraceOps.h.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_DIALECT_TRACE_IR_TRACEADJOINTOPS_H
#define TRACEC_DIALECT_TRACE_IR_TRACEADJOINTOPS_H

#include "tracec/Dialect/Trace/IR/TraceOps.h"

#define GET_OP_CLASSES
#include "tracec/Dialect/Trace/IR/TraceAdjointOps.h.inc"

#endif // TRACEC_DIALECT_TRACE_IR_TRACEADJOINTOPS_H
