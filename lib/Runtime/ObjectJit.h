//===- ObjectJit.h - Running object code from the compile cache -----------===//
//
// The object files of a CPU module (compileCpuObjects' partitions, fresh
// or from the compile cache) with `_mlir_<name>` packed entry points,
// linked into a fresh ORC LLJIT the way MLIR's ExecutionEngine links a
// module: RuntimeDyld, the process's symbols, and the symbols the runtime
// defines. Modules with static initializers are not compiled this way
// (nothing would run them).
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_RUNTIME_OBJECTJIT_H
#define TRACEC_LIB_RUNTIME_OBJECTJIT_H

#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>

namespace llvm::orc {
class LLJIT;
} // namespace llvm::orc

namespace tracec {

class JitArena;

class ObjectJit {
public:
  using SymbolsFn =
      llvm::function_ref<llvm::orc::SymbolMap(llvm::orc::MangleAndInterner)>;

  /// Links `objects`; `symbols` are defined for them to call, and they may
  /// call the process's symbols and those of `sharedLibraries` (paths).
  /// Sections are mapped by `mapper` if given (it must outlive the
  /// ObjectJit), else within one JitArena of this ObjectJit's own.
  static llvm::Expected<std::unique_ptr<ObjectJit>>
  load(llvm::MutableArrayRef<std::unique_ptr<llvm::MemoryBuffer>> objects,
       SymbolsFn symbols, llvm::ArrayRef<llvm::StringRef> sharedLibraries = {},
       llvm::SectionMemoryManager::MemoryMapper *mapper = nullptr);
  ~ObjectJit();

  /// The packed entry point of function `name` (as
  /// mlir::ExecutionEngine::lookupPacked).
  llvm::Expected<void (*)(void **)> lookupPacked(llvm::StringRef name);

  /// The address of symbol `name` (as mlir::ExecutionEngine::lookup).
  llvm::Expected<void *> lookup(llvm::StringRef name);

private:
  ObjectJit() = default;
  // The arena outlives the JIT, whose memory managers release into it.
  std::unique_ptr<JitArena> arena_;
  std::unique_ptr<llvm::orc::LLJIT> jit_;
};

/// Adds to `module`, for each function it defines and exports,
/// `void _mlir_<name>(void **args)`: it loads each argument from the
/// pointer in `args[i]` and stores the result, if any, through the pointer
/// after them (mlir::ExecutionEngine's packed calling convention, which
/// lookupPacked finds).
void addPackedEntryPoints(llvm::Module &module);

} // namespace tracec

#endif // TRACEC_LIB_RUNTIME_OBJECTJIT_H
