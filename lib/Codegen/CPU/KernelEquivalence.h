//===- KernelEquivalence.h - Kernels equal in all but their name ----------===//
//
// trace-cpu-dedup-kernels (on tensors) and trace-cpu-outline-kernels (on
// loops) both outline code into functions and call one function for
// every copy of the same code, as a graph unrolled over steps has.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_CODEGEN_CPU_KERNELEQUIVALENCE_H
#define TRACEC_LIB_CODEGEN_CPU_KERNELEQUIVALENCE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::trace {

/// Functions equal in all but their name: the same type, attributes and
/// body (locations aside).
struct KernelEquivalence : llvm::DenseMapInfo<func::FuncOp> {
  static unsigned getHashValue(func::FuncOp kernel) {
    llvm::hash_code hash = hash_value(kernel.getFunctionType());
    kernel.getBody().walk([&](Operation *op) {
      hash = llvm::hash_combine(hash,
                                OperationEquivalence::computeHash(
                                    op, OperationEquivalence::ignoreHashValue,
                                    OperationEquivalence::ignoreHashValue,
                                    OperationEquivalence::IgnoreLocations));
    });
    return hash;
  }
  static bool isEqual(func::FuncOp lhs, func::FuncOp rhs) {
    if (lhs == rhs)
      return true;
    if (lhs == getEmptyKey() || lhs == getTombstoneKey() ||
        rhs == getEmptyKey() || rhs == getTombstoneKey())
      return false;
    auto withoutName = [](func::FuncOp kernel) {
      NamedAttrList attributes(kernel->getAttrDictionary());
      attributes.erase(kernel.getSymNameAttrName());
      return attributes.getDictionary(kernel.getContext());
    };
    return withoutName(lhs) == withoutName(rhs) &&
           OperationEquivalence::isRegionEquivalentTo(
               &lhs.getBody(), &rhs.getBody(),
               OperationEquivalence::IgnoreLocations);
  }
};

using KernelSet = llvm::DenseSet<func::FuncOp, KernelEquivalence>;

} // namespace mlir::trace

#endif // TRACEC_LIB_CODEGEN_CPU_KERNELEQUIVALENCE_H
