//===- TraceDialect.h - The trace dialect, its types and attributes -------===//

#ifndef TRACEC_DIALECT_TRACE_IR_TRACEDIALECT_H
#define TRACEC_DIALECT_TRACE_IR_TRACEDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"

#include "tracec/Dialect/Trace/IR/TraceDialect.h.inc"
#include "tracec/Dialect/Trace/IR/TraceEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tracec/Dialect/Trace/IR/TraceTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tracec/Dialect/Trace/IR/TraceAttrs.h.inc"

#endif // TRACEC_DIALECT_TRACE_IR_TRACEDIALECT_H
