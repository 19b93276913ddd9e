//===- SanitizerOptions.cpp - AddressSanitizer's defaults for fuzz targets -===//
//
// A fuzz target links the prebuilt libLLVM/libMLIR, which are not
// instrumented: LLVM's headers poison BumpPtrAllocator slabs in the code
// compiled here and the libraries never unpoison them, so manual poisoning
// is off (as scripts/sanitize does). Leaks are not what the targets check:
// MLIR's and Python's process-wide caches would read as leaks of an input.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0:detect_leaks=0";
}
