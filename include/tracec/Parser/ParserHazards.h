//===- ParserHazards.h - inputs MLIR's parser crashes on ------------------===//
//
// MLIR 22's parser crashes on a few malformed inputs instead of reporting
// them (docs/upstream-bugs.md): nesting deep enough to overflow the stack
// (it recurses per level), and a dense array of `index` elements. The tools
// promise that malformed input is an error with a location, so every entry
// that parses user text (tracec-opt, tracec, tracec-run, the runtime's
// Compiler) scans it for these first.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_PARSER_PARSERHAZARDS_H
#define TRACEC_PARSER_PARSERHAZARDS_H

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"

#include <optional>
#include <string>

namespace tracec {

/// The deepest nesting of (), [], {} and <> accepted. MLIR's parser uses
/// several hundred bytes of stack per level (20,000 levels overflowed the
/// 8 MiB main thread's stack); real IR nests a few dozen levels.
constexpr unsigned kMaxParseNesting = 1000;

struct ParserHazard {
  llvm::SMLoc loc;
  std::string message;
};

/// The first construct in `buffer` that MLIR's parser would crash on, found
/// lexically (string literals and comments are skipped): nesting deeper
/// than kMaxParseNesting, or `array<index...>`.
std::optional<ParserHazard> findParserHazard(llvm::StringRef buffer);

/// findParserHazard on the main buffer of `sourceMgr`, emitted as an error
/// at its location through `context`'s diagnostic handlers: failure if
/// there was one.
mlir::LogicalResult checkParserHazards(const llvm::SourceMgr &sourceMgr,
                                       mlir::MLIRContext *context);

} // namespace tracec

#endif // TRACEC_PARSER_PARSERHAZARDS_H
