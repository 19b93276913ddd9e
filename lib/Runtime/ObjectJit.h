//===- ObjectJit.h - Running object code from the compile cache -----------===//
//
// An object file that MLIR's ExecutionEngine produced for a module (with
// its `_mlir_<name>` packed entry points), linked into a fresh ORC LLJIT
// the way the engine links it: RuntimeDyld, the process's symbols, and the
// symbols the runtime defines. Objects with static initializers are never
// cached, so there are none to run.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_RUNTIME_OBJECTJIT_H
#define TRACEC_LIB_RUNTIME_OBJECTJIT_H

#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>

namespace llvm::orc {
class LLJIT;
} // namespace llvm::orc

namespace tracec {

class ObjectJit {
public:
  using SymbolsFn =
      llvm::function_ref<llvm::orc::SymbolMap(llvm::orc::MangleAndInterner)>;

  /// Links `object`; `symbols` are defined for it to call, and it may call
  /// the process's symbols and those of `sharedLibraries` (paths).
  static llvm::Expected<std::unique_ptr<ObjectJit>>
  load(std::unique_ptr<llvm::MemoryBuffer> object, SymbolsFn symbols,
       llvm::ArrayRef<llvm::StringRef> sharedLibraries = {});
  ~ObjectJit();

  /// The packed entry point of function `name` (as
  /// mlir::ExecutionEngine::lookupPacked).
  llvm::Expected<void (*)(void **)> lookupPacked(llvm::StringRef name);

  /// The address of symbol `name` (as mlir::ExecutionEngine::lookup).
  llvm::Expected<void *> lookup(llvm::StringRef name);

private:
  ObjectJit() = default;
  std::unique_ptr<llvm::orc::LLJIT> jit_;
};

} // namespace tracec

#endif // TRACEC_LIB_RUNTIME_OBJECTJIT_H
