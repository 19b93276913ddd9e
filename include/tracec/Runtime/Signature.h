//===- Signature.h - What a host-callable function takes and returns ------===//
//
// Shared by the JIT (tracec::Executable) and the ahead-of-time compiler:
// both call a function of the module from the host with one buffer per
// argument (variables included) and one per result.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_RUNTIME_SIGNATURE_H
#define TRACEC_RUNTIME_SIGNATURE_H

#include "tracec/Tensor/Tensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <limits>
#include <string>
#include <vector>

namespace tracec {

/// The dtype and static shape of one argument or result.
struct TensorSpec {
  DType dtype;
  llvm::SmallVector<int64_t, 4> shape;
  /// A `!trace.resource<tensor<...>>` argument (a variable): the tensor
  /// passed for it is the variable's buffer, which the call reads and
  /// updates in place (see tracec::Variable). dtype and shape are those of
  /// the variable's value.
  bool isVariable = false;
  /// "tensor<?x4xf32>": a dynamic dim (kDynamic) shows as `?`.
  std::string str() const;
  /// The dtype and rank agree, and every static dim.
  bool matches(const Tensor &tensor) const;
  static constexpr int64_t kDynamic = std::numeric_limits<int64_t>::min();
  bool hasDynamicDims() const { return llvm::is_contained(shape, kDynamic); }
};

/// What a function of the module takes and returns.
struct Signature {
  std::string name;
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> results;
  /// Whether a dim is dynamic (`?`) in an argument or result: the function
  /// then has a shape function (see trace-shape-functions) that checks the
  /// arguments' dims agree and computes the results' dims.
  bool hasDynamicDims() const;
  /// "@f(tensor<2xf32>, tensor<f32>) -> (tensor<2xf32>)"; a variable input
  /// shows as "!trace.resource<tensor<2xf32>>".
  std::string str() const;
};

/// The signature of `func` as the host calls it, or why the host cannot
/// (a dynamic dim, an unsupported type), naming the argument or result.
llvm::Expected<Signature> signatureOf(mlir::func::FuncOp func);

} // namespace tracec

#endif // TRACEC_RUNTIME_SIGNATURE_H
