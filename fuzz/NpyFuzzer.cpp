//===- NpyFuzzer.cpp - libFuzzer target: the .npy reader ------------------===//
//
// tracec-run's `@file.npy` inputs and Tensor::loadNpy: any bytes must give
// a tensor or an error, and never allocate more than the file holds.
//
//===----------------------------------------------------------------------===//

#include "tracec/Tensor/Tensor.h"

#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  auto tensor = tracec::Tensor::parseNpy(bytes, "fuzz.npy");
  if (tensor)
    (void)tensor->toString().size(); // reads every element
  else
    llvm::consumeError(tensor.takeError());
  return 0;
}
