//===- TraceOps.h - The ops of the trace dialect --------------------------===//

#ifndef TRACEC_DIALECT_TRACE_IR_TRACEOPS_H
#define TRACEC_DIALECT_TRACE_IR_TRACEOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tracec/Dialect/Trace/IR/TraceDialect.h"
#include "tracec/Dialect/Trace/IR/TraceShapes.h"
#include "tracec/Dialect/Trace/IR/TraceTraits.h"

#include "tracec/Dialect/Trace/IR/GradientRequestOpInterface.h.inc"
#include "tracec/Dialect/Trace/IR/ProcessGroupsOpInterface.h.inc"

#define GET_OP_CLASSES
#include "tracec/Dialect/Trace/IR/TraceOps.h.inc"

#endif // TRACEC_DIALECT_TRACE_IR_TRACEOPS_H
