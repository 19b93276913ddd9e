//===- DifferentiableOpInterface.h - Reverse- and forward-mode rules ------===//

#ifndef TRACEC_DIALECT_TRACE_IR_DIFFERENTIABLEOPINTERFACE_H
#define TRACEC_DIALECT_TRACE_IR_DIFFERENTIABLEOPINTERFACE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"
#include "tracec/Dialect/Trace/IR/BatchState.h"

namespace mlir::trace {

/// True for ranked tensors of a floating-point type, and for variables
/// (`!trace.resource`) holding one: the values that carry gradients
/// (integers and booleans never do).
bool carriesGradient(Type type);

/// True for ranked tensors of a floating-point type: the values that carry
/// tangents in forward mode (a variable's does not: forward mode treats
/// reads as leaves, as reverse mode does).
bool carriesTangent(Type type);

/// The type of a value's cotangent: the type itself for a tensor; for a
/// variable, the type of the value it holds (its gradient is the gradient
/// of the values read from it).
Type cotangentType(Type type);

/// The functions generated for a differentiated function `f`.
struct GradientFunctions {
  /// f's arguments -> f's results, then the residuals.
  func::FuncOp forward;
  /// The residuals, then one cotangent per result of f -> one cotangent per
  /// differentiated argument.
  func::FuncOp backward;
  /// The arguments `backward` returns cotangents for, in order.
  SmallVector<int64_t> wrt;
};

/// What a gradient rule sees of the differentiation in progress. Values
/// passed in are the ORIGINAL function's; the state maps them to the code
/// being built.
class AdjointState {
public:
  virtual ~AdjointState() = default;

  /// The value computed by the primal sweep for an original value.
  virtual Value primal(Value original) = 0;
  /// Records the primal value of an original result (for emitPrimal).
  virtual void setPrimal(Value original, Value primal) = 0;
  /// Clones `op` into the primal sweep, operands mapped (the default
  /// emitPrimal).
  virtual LogicalResult clonePrimal(Operation *op, OpBuilder &builder) = 0;

  /// Values an op's emitPrimal keeps for its emitAdjoint.
  virtual void save(Operation *original, ValueRange values) = 0;
  virtual ValueRange saved(Operation *original) = 0;

  /// The cotangent of an original result; null when none flows into it.
  virtual Value cotangent(Value originalResult) = 0;
  /// Adds `cotangent` (of the operand's type) to the cotangent of an
  /// original operand; fan-in is summed.
  virtual LogicalResult accumulate(Value originalOperand, Value cotangent) = 0;

  /// The forward/backward functions of `callee` with respect to all of its
  /// floating-point arguments, generated once per callee.
  virtual FailureOr<GradientFunctions> differentiate(func::FuncOp callee) = 0;

  /// For rules of region ops: emits, at `builder`, the primal of the
  /// original `block` (its arguments bound to `primalArgs`) followed by its
  /// adjoint, seeded with `terminatorCotangents` (one per terminator
  /// operand; null for none). Returns the cotangents of the block's
  /// arguments, then of `captured` (original values defined outside the
  /// block), zeros where nothing flowed. `knownPrimals` pairs original
  /// results of the block's ops with primal values the rule already has
  /// (read back from a tape): an op whose results are all known is not
  /// emitted again.
  virtual FailureOr<SmallVector<Value>>
  differentiateBlock(Block &block, ValueRange primalArgs,
                     ArrayRef<Value> terminatorCotangents,
                     ArrayRef<Value> captured, OpBuilder &builder,
                     ArrayRef<std::pair<Value, Value>> knownPrimals = {}) = 0;

  /// Whether the rematerialization policy of the function being
  /// differentiated saves the results of the original `op` (a region rule
  /// then tapes them instead of recomputing them in its adjoint).
  virtual bool savesResultsOf(Operation *op) = 0;

  /// Whether an original value depends on a differentiated argument (only
  /// such values receive cotangents).
  virtual bool isActive(Value original) = 0;
};

/// The primal and tangent values of a block's terminator operands, as a
/// region rule of the forward sweep gets them back (a null tangent is zero).
struct BlockTangents {
  SmallVector<Value> primals;
  SmallVector<Value> tangents;
};

/// What a tangent rule sees of the forward-mode differentiation in progress
/// (trace.jvp). Values passed in are the ORIGINAL function's; the state maps
/// them to the code being built. The sweep has cloned the op before its rule
/// runs, so `primal(result)` is available.
class TangentState {
public:
  virtual ~TangentState() = default;

  /// The value computed by the forward sweep for an original value.
  virtual Value primal(Value original) = 0;
  /// The tangent of an original value; null when it is zero (no tangent
  /// flows into it, or it is not a floating-point tensor).
  virtual Value tangent(Value original) = 0;
  /// Sets the tangent of an original result (of the result's type, or one
  /// that differs only in what is known statically about its shape).
  virtual LogicalResult setTangent(Value originalResult, Value tangent) = 0;

  /// For rules that compute an op's results themselves (a call of the
  /// callee's __jvp function, a loop that carries primal and tangent values
  /// together): `primals` replace the results of the op's clone, which is
  /// erased (so it does not run twice).
  virtual void replacePrimal(Operation *original, ValueRange primals) = 0;

  /// The __jvp function of `callee` with respect to the arguments `wrt`:
  /// (arguments..., tangents of the `wrt` arguments...) -> (results...,
  /// tangents of the floating-point results...), generated once per
  /// (callee, wrt).
  virtual FailureOr<func::FuncOp> jvp(func::FuncOp callee,
                                      ArrayRef<int64_t> wrt) = 0;

  /// For rules of region ops: emits, at `builder`, the primal and tangent
  /// code of the original `block`, its arguments bound to `primalArgs` with
  /// tangents `argTangents` (null for zero). Returns the primal and tangent
  /// values of the block terminator's operands.
  virtual FailureOr<BlockTangents>
  differentiateBlock(Block &block, ValueRange primalArgs,
                     ArrayRef<Value> argTangents, OpBuilder &builder) = 0;
};

/// A zero cotangent for a value of `type` (a ranked tensor with a static
/// shape, or a variable holding one).
FailureOr<Value> zerosLike(OpBuilder &builder, Location loc, Type type);

/// A zero cotangent for the primal value `like`: a constant where its shape
/// is static, else a scalar zero broadcast to `like`'s run-time shape.
/// Fails (with an error at `loc`) only for a variable of dynamic shape.
FailureOr<Value> zerosLike(OpBuilder &builder, Location loc, Value like);

/// `cotangent` as a value of `type` where the two differ only in what is
/// known statically (tensor.cast, e.g. tensor<3x4xf32> for a tensor<?x4xf32>
/// operand); the value itself where they are equal; null where they are
/// not cast-compatible.
Value castCotangent(OpBuilder &builder, Value cotangent, Type type);

/// True where `op`, or an op in its regions, has an operand for which `in`
/// holds: activity (reverse mode) and tangents (forward mode) spread to an
/// op through the values its regions read from above as through operands.
bool readsAnyOf(Operation *op, function_ref<bool(Value)> in);

} // namespace mlir::trace

#include "tracec/Dialect/Trace/IR/TraceInterfaces.h.inc"

#endif // TRACEC_DIALECT_TRACE_IR_DIFFERENTIABLEOPINTERFACE_H
