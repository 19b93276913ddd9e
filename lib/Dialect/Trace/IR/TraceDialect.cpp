//===- TraceDialect.cpp - Dialect registration and constants --------------===//

#include "tracec/Dialect/Trace/IR/TraceDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "tracec/Dialect/Trace/IR/DifferentiationAttributes.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "tracec/Dialect/Trace/IR/TraceTypeConstraints.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::trace;

#include "tracec/Dialect/Trace/IR/TraceDialect.cpp.inc"
#include "tracec/Dialect/Trace/IR/TraceEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tracec/Dialect/Trace/IR/TraceTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tracec/Dialect/Trace/IR/TraceAttrs.cpp.inc"

namespace mlir::trace {
#include "tracec/Dialect/Trace/IR/TraceTypeConstraints.cpp.inc"
} // namespace mlir::trace

namespace {
/// Trace ops may be inlined (none refers to its enclosing function), except
/// the random sources: each op owns one run counter, which every call of its
/// function advances; an inlined copy would start a counter of its own and
/// repeat the numbers of another call.
struct TraceInlinerInterface : DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *op, Region *, bool,
                       IRMapping &) const final {
    return !isa<RandomUniformOp, RandomNormalOp>(op);
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void TraceDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tracec/Dialect/Trace/IR/TraceOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tracec/Dialect/Trace/IR/TraceTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tracec/Dialect/Trace/IR/TraceAttrs.cpp.inc"
      >();
  addInterfaces<TraceInlinerInterface>();
}

Operation *TraceDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}

LogicalResult TraceDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attribute) {
  return verifyDifferentiationAttribute(op, attribute);
}

LogicalResult
ResourceType::verify(function_ref<InFlightDiagnostic()> emitError,
                     RankedTensorType valueType) {
  if (!isTraceElementType(valueType.getElementType()))
    return emitError() << "resource value type must be a tensor of f16, "
                          "bf16, f32, f64, i1, i32 or i64, got "
                       << valueType;
  return success();
}

Type ControlType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalLess())) {
    parser.emitError(loc, "!trace.control takes no parameters");
    return {};
  }
  return ControlType::get(parser.getContext());
}

void ControlType::print(AsmPrinter &) const {}
