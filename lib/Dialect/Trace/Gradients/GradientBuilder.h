//===- GradientBuilder.h - Small helpers the gradient rules share ---------===//

#ifndef TRACEC_LIB_DIALECT_TRACE_GRADIENTS_GRADIENTBUILDER_H
#define TRACEC_LIB_DIALECT_TRACE_GRADIENTS_GRADIENTBUILDER_H

#include "tracec/Dialect/Trace/IR/DifferentiableOpInterface.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

namespace mlir::trace {

/// Builds trace ops at one location, with the arithmetic the rules need
/// spelled as calls: `g.mul(dy, g.sub(g.constant(1, y), g.mul(y, y)))`.
class GradientBuilder {
public:
  GradientBuilder(OpBuilder &builder, Location loc)
      : builder(builder), loc(loc) {}

  Value add(Value a, Value b) { return AddOp::create(builder, loc, a, b); }
  Value sub(Value a, Value b) { return SubOp::create(builder, loc, a, b); }
  Value mul(Value a, Value b) { return MulOp::create(builder, loc, a, b); }
  Value div(Value a, Value b) { return DivOp::create(builder, loc, a, b); }
  Value neg(Value a) { return NegOp::create(builder, loc, a); }
  Value exp(Value a) { return ExpOp::create(builder, loc, a); }
  Value log(Value a) { return LogOp::create(builder, loc, a); }

  /// A scalar (rank-0) constant of `like`'s element type; broadcasting
  /// makes it usable against any tensor of that type.
  Value constant(double value, Value like);

  /// Sums `cotangent` down to `type`'s shape: undoes NumPy broadcasting
  /// (leading dims summed away, size-1 dims summed with keepdims).
  Value unbroadcast(Value cotangent, Type type);

  /// `value` broadcast to the shape of the primal value `like` (through
  /// `broadcast_to ... like` where a `?` size comes only from `like`).
  Value broadcastLike(Value value, Value like);

  /// `value` reshaped to the shape of the primal value `like` (through
  /// `reshape ... like` where the sizes do not follow from `value`).
  Value reshapeLike(Value value, Value like);

  /// A tangent computed at a shape that broadcasts to the primal value
  /// `like`'s (an operand's shape, or the broadcast of several), as a value
  /// of `like`'s type: broadcast where a dim may stretch, else cast.
  Value fitTo(Value tangent, Value like);

  /// The number of elements of `x` along `axes` as a rank-0 float tensor of
  /// `element`: a constant where those dims are static, else `trace.size`.
  Value size(Value x, ArrayRef<int64_t> axes, Type element);

  OpBuilder &builder;
  Location loc;
};

} // namespace mlir::trace

#endif // TRACEC_LIB_DIALECT_TRACE_GRADIENTS_GRADIENTBUILDER_H
