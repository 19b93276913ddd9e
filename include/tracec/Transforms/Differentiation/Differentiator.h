//===- Differentiator.h - Forward/backward functions of a function -------===//
//
// Reverse mode by building one "combined" function — the primal sweep, then
// the adjoint sweep in reverse op order — and splitting it: the forward
// function returns the function's results plus exactly the values the
// adjoint code reads (the residuals); the backward function takes the
// residuals and the results' cotangents and returns the arguments'
// cotangents. The rules come from DifferentiableOpInterface.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_TRANSFORMS_DIFFERENTIATOR_H
#define TRACEC_TRANSFORMS_DIFFERENTIATOR_H

#include "tracec/Dialect/Trace/IR/DifferentiableOpInterface.h"
#include "tracec/Dialect/Trace/IR/DifferentiationAttributes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include <map>
#include <set>

namespace mlir::trace {

/// Generated functions plus what the caller needs to know to use them.
struct Differentiated {
  GradientFunctions functions;
  /// Indices of f's results whose cotangents `backward` takes (the
  /// floating-point ones), in order.
  SmallVector<unsigned> cotangentResults;
  /// `wrt` arguments the results do not depend on (their cotangent is 0).
  SmallVector<int64_t> unconnected;
};

class Differentiator {
public:
  /// `remat`: what forward functions save, for functions without a
  /// trace.checkpoint policy of their own.
  explicit Differentiator(ModuleOp module,
                          RematPolicy remat = RematPolicy::everything)
      : module_(module), symbols_(module), remat_(remat) {}

  /// The forward/backward functions of `f` with respect to `wrt`, generated
  /// on first request. Errors are reported at the offending op.
  FailureOr<Differentiated> differentiate(func::FuncOp f,
                                          ArrayRef<int64_t> wrt);

  /// `wrt` = every floating-point tensor argument of `f`.
  static SmallVector<int64_t> differentiableArguments(func::FuncOp f);

  /// A new function symbol name based on `base`, unique in the module.
  std::string uniqueName(StringRef base);

  /// The module's symbol table, which the forward-mode TangentGenerator
  /// shares.
  SymbolTable &symbolTable() { return symbols_; }

private:
  FailureOr<Differentiated> generate(func::FuncOp f, ArrayRef<int64_t> wrt);
  /// The user's trace.custom_vjp functions of `f`, the backward one wrapped
  /// to return only the cotangents of `wrt` where that is a subset.
  FailureOr<Differentiated> useCustomVjp(func::FuncOp f, CustomVjp custom,
                                         ArrayRef<int64_t> wrt);

  ModuleOp module_;
  SymbolTable symbols_;
  RematPolicy remat_;
  std::map<std::pair<std::string, std::vector<int64_t>>, Differentiated> cache_;
  /// Functions being differentiated (recursion is an error).
  std::set<std::string> inProgress_;
};

} // namespace mlir::trace

#endif // TRACEC_TRANSFORMS_DIFFERENTIATOR_H
