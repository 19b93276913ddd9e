//===- EngineLifetime.cpp - JIT engines that may outlive main -------------===//

#include "EngineLifetime.h"

#include <atomic>
#include <cstdlib>

using namespace tracec;

/// Set by the first exit handler registered by engineCompiled() to run.
/// Constant-initialized with a trivial destructor: valid during all of exit.
static std::atomic<bool> exiting{false};

static void markExiting() { exiting.store(true); }

bool tracec::processExiting() { return exiting.load(); }

void tracec::engineCompiled() {
  // One handler per compilation: each compilation may have created statics
  // of its own (the first GPU one, after CPU ones). A handler is a few
  // bytes; atexit fails only when out of memory, and then the handlers
  // registered before still cover the statics created before.
  (void)std::atexit(markExiting);
}
