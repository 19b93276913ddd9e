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

/// The tracer casts the operands to their common dtype (NumPy/JAX
/// promotion) before it builds the op (Trace_PromotesOperands in ODS) ...
template <typename ConcreteType>
class PromotesOperands : public TraitBase<ConcreteType, PromotesOperands> {};
/// ... or all operands but the first (select's condition).
template <typename ConcreteType>
class PromotesOperandsAfterFirst
    : public TraitBase<ConcreteType, PromotesOperandsAfterFirst> {};

/// The tracer casts integer and bool operands to f32 before it builds the
/// op, which is defined on floats (Trace_PromotesIntegersToFloat in ODS).
template <typename ConcreteType>
class PromotesIntegersToFloat
    : public TraitBase<ConcreteType, PromotesIntegersToFloat> {};

/// The dims of operand 0 that `op` reduces: its `axes` (DenseI64ArrayAttr)
/// or its `axis`, normalized; those out of range are left out (the op's own
/// verifier reports them).
llvm::SmallVector<int64_t> reducedDims(Operation *op);

/// A reduction without an identity (maximum, minimum, argmax): no dim it
/// reduces may be empty. Static dims are checked here; `?` ones at run time
/// (trace-to-linalg asserts before it lowers).
LogicalResult verifyReducesNonEmpty(Operation *op);
template <typename ConcreteType>
class ReducesNonEmpty : public TraitBase<ConcreteType, ReducesNonEmpty> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyReducesNonEmpty(op);
  }
};

/// Every ranked tensor the op reads or makes fits in memory: with its
/// static dims it takes at most tracec::kMaxTensorBytes (a size that wraps
/// would make the buffer far too small). Every op of the dialect has it.
LogicalResult verifyAddressableTensors(Operation *op);
template <typename ConcreteType>
class AddressableTensors : public TraitBase<ConcreteType, AddressableTensors> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyAddressableTensors(op);
  }
};

} // namespace mlir::OpTrait::trace

#endif // TRACEC_DIALECT_TRACE_IR_TRACETRAITS_H
