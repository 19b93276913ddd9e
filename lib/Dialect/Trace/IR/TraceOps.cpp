//===- TraceOps.cpp - ODS-generated op definitions ------------------------===//
//
// The hand-written parts of each op family live in their own file
// (ElementwiseOps.cpp, ShapeOps.cpp, ...); this file only instantiates what
// ODS generates.
//
//===----------------------------------------------------------------------===//

#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::trace;

/// `type(like) -> type(result)` where a source op has `like`, else
/// `type(result)` (the declarative format cannot start an optional group
/// with a type).
static ParseResult parseLikeType(OpAsmParser &parser, Type &like,
                                 Type &result) {
  Type first;
  if (parser.parseType(first))
    return failure();
  if (failed(parser.parseOptionalArrow())) {
    result = first;
    return success();
  }
  like = first;
  return parser.parseType(result);
}

static void printLikeType(OpAsmPrinter &printer, Operation *, Type like,
                          Type result) {
  if (like)
    printer << like << " -> ";
  printer << result;
}

#define GET_OP_CLASSES
#include "tracec/Dialect/Trace/IR/TraceOps.cpp.inc"
