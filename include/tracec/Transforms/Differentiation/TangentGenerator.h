//===- TangentGenerator.h - __jvp functions (forward mode) ----------------===//
//
// Forward mode: for a function f and the arguments `wrt` it is
// differentiated with respect to, generates
//   __jvp_f(arguments..., tangents of the wrt arguments...)
//       -> (results..., tangents of the floating-point results...)
// in one sweep over f's body: each op is cloned, then (where some operand
// has a tangent) its tangent rule from DifferentiableOpInterface runs right
// after it. Tangent code no result needs is erased. A function with its own
// rule (trace.custom_jvp) uses the rule instead.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_TRANSFORMS_DIFFERENTIATION_TANGENTGENERATOR_H
#define TRACEC_TRANSFORMS_DIFFERENTIATION_TANGENTGENERATOR_H

#include "tracec/Dialect/Trace/IR/DifferentiableOpInterface.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace mlir::trace {

class TangentGenerator {
public:
  /// `symbols` is the module's symbol table, shared with the reverse-mode
  /// Differentiator so generated names stay unique.
  explicit TangentGenerator(SymbolTable &symbols) : symbols_(symbols) {}

  /// The __jvp function of `f` with respect to `wrt` (indices of
  /// floating-point tensor arguments), generated on first request. Errors
  /// are reported at the offending op.
  FailureOr<func::FuncOp> jvp(func::FuncOp f, ArrayRef<int64_t> wrt);

private:
  FailureOr<func::FuncOp> generate(func::FuncOp f, ArrayRef<int64_t> wrt);
  /// `rule` (f's trace.custom_jvp) as the __jvp function: itself, or with
  /// fewer `wrt` than f's float arguments a function calling it with zero
  /// tangents for the others.
  FailureOr<func::FuncOp> customRule(func::FuncOp f, func::FuncOp rule,
                                     ArrayRef<int64_t> wrt);

  SymbolTable &symbols_;
  std::map<std::pair<std::string, std::vector<int64_t>>, func::FuncOp> cache_;
  /// Functions being generated (recursion is an error).
  std::set<std::string> inProgress_;
};

} // namespace mlir::trace

#endif // TRACEC_TRANSFORMS_DIFFERENTIATION_TANGENTGENERATOR_H
