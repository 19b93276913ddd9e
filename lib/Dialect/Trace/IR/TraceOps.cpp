//===- TraceOps.cpp - ODS-generated op definitions ------------------------===//
//
// The hand-written parts of each op family live in their own file
// (ElementwiseOps.cpp, ShapeOps.cpp, ...); this file only instantiates what
// ODS generates.
//
//===----------------------------------------------------------------------===//

#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::trace;

#define GET_OP_CLASSES
#include "tracec/Dialect/Trace/IR/TraceOps.cpp.inc"
