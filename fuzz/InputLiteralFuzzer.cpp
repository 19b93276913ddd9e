//===- InputLiteralFuzzer.cpp - libFuzzer target: tracec-run's literals ---===//
//
// `--input` values ("1.5", "[[1, 2], [3, 4]]") parsed for arguments of
// several dtypes and shapes, static and dynamic: a tensor or an error.
// (`@path` loads a file; reading arbitrary paths is not what is fuzzed.)
//
//===----------------------------------------------------------------------===//

#include "../tools/tracec-run/InputParser.h"

#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>

using namespace tracec;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const TensorSpec specs[] = {
      {DType::f32, {2, 3}},
      {DType::f64, {}},
      {DType::i64, {TensorSpec::kDynamic}},
      {DType::i1, {2, TensorSpec::kDynamic}},
      {DType::i32, {TensorSpec::kDynamic, TensorSpec::kDynamic, 1}},
      {DType::f16, {3}},
  };
  llvm::StringRef value(reinterpret_cast<const char *>(data), size);
  if (value.starts_with("@"))
    return 0; // a file path: the .npy reader is NpyFuzzer's
  for (const TensorSpec &spec : specs) {
    auto tensor = parseInputValue(value, spec);
    if (!tensor)
      llvm::consumeError(tensor.takeError());
  }
  return 0;
}
