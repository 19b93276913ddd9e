//===- EngineLifetime.cpp - JIT engines that may outlive main -------------===//

#include "EngineLifetime.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"

#include <atomic>
#include <cstdlib>

using namespace tracec;

/// Set by the first exit handler registered by engineCompiled() to run.
/// Constant-initialized with a trivial destructor: valid during all of exit.
static std::atomic<bool> exiting{false};

static void markExiting() { exiting.store(true); }

std::shared_ptr<mlir::ExecutionEngine>
tracec::shareEngine(std::unique_ptr<mlir::ExecutionEngine> engine) {
  return std::shared_ptr<mlir::ExecutionEngine>(
      engine.release(), [](mlir::ExecutionEngine *engine) {
        // Destroying it now would run LLVM code on destroyed statics.
        if (exiting.load())
          return;
        delete engine;
      });
}

void tracec::engineCompiled() {
  // One handler per compilation: each compilation may have created statics
  // of its own (the first GPU one, after CPU ones). A handler is a few
  // bytes; atexit fails only when out of memory, and then the handlers
  // registered before still cover the statics created before.
  (void)std::atexit(markExiting);
}
