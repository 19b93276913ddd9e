//===- GraphDefFuzzer.cpp - libFuzzer target: GraphDef import -------------===//
//
// A GraphDef in text format (input starting with a letter, '#' or space)
// or binary, imported as `tracec --graphdef` does (placeholders become
// arguments, every node is checked against its op's definition): a
// verified module or an error.
//
//===----------------------------------------------------------------------===//

#include "tracec/Target/GraphDef.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"

#include <cstddef>
#include <cstdint>
#include <memory>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static std::unique_ptr<mlir::MLIRContext> context;
  static unsigned runs = 0;
  if (!context || ++runs % 1000 == 0) {
    context = std::make_unique<mlir::MLIRContext>();
    context->disableMultithreading();
    tracec::registerGraphDefImportDialects(*context);
    // Errors are expected; printing them would only slow the run.
    context->getDiagEngine().registerHandler([](mlir::Diagnostic &) {});
  }
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  bool isText = !bytes.empty() && (llvm::isAlpha(bytes[0]) || bytes[0] == '#' ||
                                   llvm::isSpace(bytes[0]));
  tracec::GraphImportOptions options;
  options.pruneUnusedNodes = false;
  (void)tracec::importGraphDef(bytes, isText, "fuzz.pb", options,
                               context.get());
  return 0;
}
