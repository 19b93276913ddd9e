//===- EntryPoints.h - The functions an AOT-compiled model exports --------===//

#ifndef TRACEC_AOT_ENTRYPOINTS_H
#define TRACEC_AOT_ENTRYPOINTS_H

#include "tracec/AOT/ModelParser.h"
#include "tracec/AOT/Naming.h"
#include "tracec/Runtime/Signature.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace tracec::aot {

/// One function of the model, exported as the C function `symbol`:
///   int symbol(const T *arg..., T *variable..., T *result...);
/// with the arguments in the function's order (a variable is an in/out
/// buffer) and the results after them; a buffer with dynamic dims is
/// followed by them (int64_t each), and `symbol`_shape computes the
/// results' (see CEntryPoints.cpp). It returns nonzero if a buffer is
/// null or the dims disagree.
struct EntryPoint {
  Signature signature;
  std::string symbol;
  /// C identifiers naming each argument and result (unique per entry).
  std::vector<std::string> argNames;
  std::vector<std::string> resultNames;
};

/// A variable of the model: the arguments of the entry points that carry a
/// `!trace.resource` of the same name are the same variable.
struct ModelVariable {
  std::string name;
  TensorSpec spec;
};

/// The entry points `names` of `module`, exported as "<prefix>_<name>".
/// Arguments and results are named as their `trace.name` attribute says;
/// else an argument as in the source, a result "result<i>". Emits an error at the
/// function (or the module) for an unknown or repeated entry, one the host
/// cannot call (unsupported types, a variable with dynamic dims), and a
/// variable whose type differs between entries.
mlir::FailureOr<std::vector<EntryPoint>>
collectEntryPoints(mlir::ModuleOp module, llvm::ArrayRef<std::string> names,
                   llvm::StringRef prefix, const ArgumentNames &argNames);

/// The variables of `entries`, in order of first appearance.
std::vector<ModelVariable> variablesOf(llvm::ArrayRef<EntryPoint> entries);

} // namespace tracec::aot

#endif // TRACEC_AOT_ENTRYPOINTS_H
