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
  std::string str() const { return formatTensorType(dtype, shape); }
  bool matches(const Tensor &tensor) const {
    return tensor.dtype() == dtype && tensor.shape() == llvm::ArrayRef(shape);
  }
};

/// What a function of the module takes and returns.
struct Signature {
  std::string name;
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> results;
  /// "@f(tensor<2xf32>, tensor<f32>) -> (tensor<2xf32>)"; a variable input
  /// shows as "!trace.resource<tensor<2xf32>>".
  std::string str() const;
};

/// The signature of `func` as the host calls it, or why the host cannot
/// (a dynamic dim, an unsupported type), naming the argument or result.
llvm::Expected<Signature> signatureOf(mlir::func::FuncOp func);

} // namespace tracec

#endif // TRACEC_RUNTIME_SIGNATURE_H
