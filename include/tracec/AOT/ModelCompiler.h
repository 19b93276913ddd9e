//===- ModelCompiler.h - A model's text to an object file and its header --===//
//
// What the `tracec` tool does for a model in MLIR text and --emit=obj, as a
// library call (Python's ConcreteFunction.export uses it).
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_AOT_MODELCOMPILER_H
#define TRACEC_AOT_MODELCOMPILER_H

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tracec::aot {

struct ModelOptions {
  /// The model's name: the header names it, and the C symbols' prefix
  /// (lower case) and the C++ class (CamelCase) come from it, as the tool
  /// takes them from the file name.
  std::string modelName = "model";
  /// With one entry: the name its C function gets (<prefix>_<entryName>),
  /// instead of the function's own.
  std::string entryName;
  /// As the tool's --target-cpu (parseTargetCpus).
  std::string targetCpu = "portable";
  unsigned threads = 1;
};

struct CompiledModel {
  std::string object; // an ELF object file
  std::string header; // its C/C++ header
  std::string prefix; // of the C symbols
  /// The C names of the (first) entry's arguments, as the header has them.
  std::vector<std::string> argNames;
};

/// Compiles the public functions `entries` of the module `source` (MLIR
/// text) into an object file exporting <prefix>_<entry> and its header; an
/// error carries the diagnostics, with locations.
llvm::Expected<CompiledModel>
compileModel(llvm::StringRef source, llvm::ArrayRef<std::string> entries,
             const ModelOptions &options);

} // namespace tracec::aot

#endif // TRACEC_AOT_MODELCOMPILER_H
