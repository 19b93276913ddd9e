//===- DifferentiationAttributes.h - Function attributes of trace-autodiff ===//
//
// Three discardable attributes on func.func that change how trace-autodiff
// differentiates the function (verified by the dialect):
//
//   trace.custom_vjp = {fwd = @f_fwd, bwd = @f_bwd}
//     JAX's custom_vjp (TensorFlow's custom_gradient): the user's own
//     forward and backward functions replace the sweep of f's body.
//     @f_fwd(f's arguments) -> (f's results..., residuals...);
//     @f_bwd(residuals..., one cotangent per float result of f)
//       -> one cotangent per float argument of f.
//
//   trace.custom_jvp = @f_jvp
//     JAX's custom_jvp: forward mode calls the user's rule instead of
//     sweeping f's body. @f_jvp(f's arguments..., one tangent per float
//     argument of f) -> (f's results..., one tangent per float result).
//     (Reverse mode needs trace.custom_vjp beside it: the frontends give
//     it the rule's transpose.)
//
//   trace.checkpoint [= "nothing" | "contractions" | "everything"]
//     JAX's checkpoint (remat): which of f's intermediates its forward
//     function saves for the backward one; the others are recomputed in the
//     backward function from what was saved (and f's arguments). Alone it
//     means "nothing".
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_DIALECT_TRACE_IR_DIFFERENTIATIONATTRIBUTES_H
#define TRACEC_DIALECT_TRACE_IR_DIFFERENTIATIONATTRIBUTES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <optional>

namespace mlir::trace {

inline constexpr llvm::StringLiteral kCustomVjpAttrName = "trace.custom_vjp";
inline constexpr llvm::StringLiteral kCustomJvpAttrName = "trace.custom_jvp";
inline constexpr llvm::StringLiteral kCheckpointAttrName = "trace.checkpoint";

/// What the forward function of a differentiated function saves for the
/// backward one (JAX's checkpoint policies).
enum class RematPolicy {
  /// Only the arguments: every intermediate is recomputed.
  nothing,
  /// Only the results of contractions (ops with the Contraction trait);
  /// elementwise and shape ops are recomputed from them.
  contractions,
  /// Every intermediate the backward function reads (no recomputation).
  everything,
};

std::optional<RematPolicy> parseRematPolicy(StringRef name);
StringRef stringifyRematPolicy(RematPolicy policy);

/// f's user-written forward and backward functions (trace.custom_vjp).
struct CustomVjp {
  func::FuncOp forward;
  func::FuncOp backward;
};
/// Marks the call of a custom-VJP function that a generated forward
/// function makes for the function's results (beside the call of its
/// forward rule, which gives the residuals): trace-autodiff replaces it by
/// the forward rule's results once every gradient is built.
inline constexpr llvm::StringLiteral kCustomVjpPrimalAttrName =
    "trace.custom_vjp_primal";

/// The custom forward/backward functions of `f`, if it has them (assumes
/// the attribute verified).
std::optional<CustomVjp> getCustomVjp(func::FuncOp f);

/// f's forward-mode rule (trace.custom_jvp), if it has one (assumes the
/// attribute verified).
func::FuncOp getCustomJvp(func::FuncOp f);

/// f's own rematerialization policy (trace.checkpoint), if it has one.
std::optional<RematPolicy> getCheckpointPolicy(func::FuncOp f);

/// Whether the `policy` saves the results of `op` (otherwise, where they
/// can be, they are recomputed).
bool savesResultsOf(Operation *op, RematPolicy policy);

/// Verifies trace.custom_vjp, trace.custom_jvp and trace.checkpoint on `op` (the dialect's
/// verifyOperationAttribute); other attributes pass.
LogicalResult verifyDifferentiationAttribute(Operation *op,
                                             NamedAttribute attribute);

} // namespace mlir::trace

#endif // TRACEC_DIALECT_TRACE_IR_DIFFERENTIATIONATTRIBUTES_H
