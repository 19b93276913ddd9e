//===- EngineLifetime.h - JIT engines that may outlive main ---------------===//
//
// Why an Executable kept in a static object used to crash at exit: MLIR's
// ExecutionEngine destructor runs the JIT dylib's deinitializers, and
// looking them up makes ORC compile what was never compiled (LLJIT's
// `__lljit_run_atexits`, or a whole module no function of which was ever
// looked up). That code generation uses function-local statics of libLLVM
// that the first compilation created, and so registered for destruction
// after the static holding the Executable: by the time that static is
// destroyed they are gone ("scalar-to-vector conversion failed", "Cannot
// select", or a segfault).
//
// The fix has two halves. An Executable compiles everything when it is
// created (entry points looked up, initializers run), so destroying it
// later compiles only LLJIT's small deinitialization stub. And every
// compilation registers, once it is done, an exit handler: exit handlers
// run in the reverse order of registration, so this one runs before any
// static LLVM created during the compilation is destroyed, and after it
// runs an engine is no longer destroyed but left to the operating system
// (its only deinitializers unload GPU kernels, which process exit does).
// Objects destroyed before the handler runs are destroyed normally, while
// LLVM's statics still live.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_RUNTIME_ENGINELIFETIME_H
#define TRACEC_LIB_RUNTIME_ENGINELIFETIME_H

#include <memory>

namespace tracec {

/// Whether the process has begun to exit since the last call of
/// engineCompiled().
bool processExiting();

/// Shares `engine` (an mlir::ExecutionEngine, or the LLJIT of a cached
/// object); the last owner destroys it, unless the process has begun to
/// exit since the last call of engineCompiled().
template <typename Engine>
std::shared_ptr<Engine> shareEngine(std::unique_ptr<Engine> engine) {
  return std::shared_ptr<Engine>(engine.release(), [](Engine *engine) {
    // Destroying it now would run LLVM code on destroyed statics.
    if (processExiting())
      return;
    delete engine;
  });
}

/// To call once a compilation is complete: from the next exit handler on,
/// engines are released without being destroyed.
void engineCompiled();

} // namespace tracec

#endif // TRACEC_LIB_RUNTIME_ENGINELIFETIME_H
