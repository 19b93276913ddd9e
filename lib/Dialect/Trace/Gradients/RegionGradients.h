//===- RegionGradients.h - Helpers of the rules of region ops -------------===//
//
// What the rules of scf.if, scf.for and scf.while share: the captured
// values a region's adjoint sums cotangents for, the check that a body can
// be run again in the backward pass, and the tape (one row per iteration)
// that a loop's primal records its carried values on.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_DIALECT_TRACE_GRADIENTS_REGIONGRADIENTS_H
#define TRACEC_LIB_DIALECT_TRACE_GRADIENTS_REGIONGRADIENTS_H

#include "tracec/Dialect/Trace/IR/DifferentiableOpInterface.h"

namespace mlir::trace {

/// Active float values defined above `op` and used inside its regions.
SmallVector<Value> activeCaptures(Operation *op, AdjointState &state);

/// The first op in `op`'s regions that touches state — a stateful trace op
/// (one yielding a control token) or a call of a function holding one — or
/// null.
Operation *findStatefulOp(Operation *op);

/// The adjoint of a region op runs its body again; a body that reads or
/// writes state would then do so twice (and read values later writes
/// changed), so it is reported.
LogicalResult checkReplayable(Operation *op);

/// The tape type of one carried value: a leading `?` dim of rows.
RankedTensorType tapeType(Type carried);

/// The size of dim `d` of `value`: an attribute where static, else
/// tensor.dim.
OpFoldResult dimOf(OpBuilder &b, Location loc, Value value, int64_t d);

/// Writes `value` (a tensor, or a scalar) into row `row` of `tape`. A `?`
/// dim of a carried value must keep its size from one iteration to the
/// next (the tape's rows all have one size): checked at run time, and
/// reported as `what` ("scf.for gradient") if it changes.
Value record(OpBuilder &b, Location loc, Value tape, Value row, Value value,
             StringRef what);

/// Reads row `row` of `tape` back as a value of `type`.
Value replay(OpBuilder &b, Location loc, Value tape, Value row, Type type);

/// Whether the contents of the carried value `carried` (an argument of a
/// body of `loop`, an scf.for or scf.while) are never read, only written
/// into and carried on: in each iteration, what derives from it goes only
/// into tensor.insert_slice/insert/cast, tensor.dim (its shape is read, not
/// its contents), nested loops' carries and `loop`'s terminators. That is a
/// tape's own carry, in a loop of a gradient's forward function. The
/// backward pass needs only its shape, so a loop rule tapes its dynamic
/// sizes instead of the value (which would copy the whole tape on every
/// iteration), and the sweep gets an uninitialized tensor of that shape:
/// see tapedValue/untaped. A gradient through a loop is then
/// differentiated again in linear time and memory.
bool isWriteOnly(BlockArgument carried, Operation *loop);

/// What a loop rule records of one carried value: the value itself, or
/// where it is write-only, its dynamic sizes (a tensor<Nxindex>).
Value tapedValue(OpBuilder &b, Location loc, Value carried, bool writeOnly);

/// The type of tapedValue.
Type tapedType(Type carried, bool writeOnly);

/// The carried value of type `type` back from what tapedValue recorded:
/// that value, or an uninitialized tensor of the recorded sizes.
Value untaped(OpBuilder &b, Location loc, Value recorded, Type type,
              bool writeOnly);

/// `sum + cotangent`: `sum` where `cotangent` is zeros. Where `cotangent`
/// is a slice inserted into zeros (the cotangent of a loop body that reads
/// one row of a tape captured from above), only that slice is added, in
/// place: O(row) per iteration rather than O(tape).
Value addCotangent(OpBuilder &b, Location loc, Value sum, Value cotangent);

} // namespace mlir::trace

#endif // TRACEC_LIB_DIALECT_TRACE_GRADIENTS_REGIONGRADIENTS_H
