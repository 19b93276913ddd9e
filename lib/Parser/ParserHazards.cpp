//===- ParserHazards.cpp - inputs MLIR's parser crashes on ----------------===//
//
// A lexical scan: brackets are counted as the parser would nest them; the
// `>` of `->` and `>=` closes nothing. Unbalanced input is the parser's to
// report, so the count never goes below zero.
//
//===----------------------------------------------------------------------===//

#include "tracec/Parser/ParserHazards.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringExtras.h"

using namespace tracec;

static bool isIdentifierChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$';
}

/// Whether `array<` followed by the element type `index` starts at `i`.
static bool isIndexDenseArray(llvm::StringRef buffer, size_t i) {
  if (!buffer.substr(i).starts_with("array<") ||
      (i > 0 && isIdentifierChar(buffer[i - 1])))
    return false;
  llvm::StringRef rest = buffer.substr(i + 6).ltrim();
  return rest.starts_with("index") &&
         (rest.size() == 5 || !isIdentifierChar(rest[5]));
}

std::optional<ParserHazard> tracec::findParserHazard(llvm::StringRef buffer) {
  unsigned depth = 0;
  for (size_t i = 0, e = buffer.size(); i < e; ++i) {
    char c = buffer[i];
    auto at = [&](llvm::StringRef message) {
      return ParserHazard{llvm::SMLoc::getFromPointer(buffer.data() + i),
                          message.str()};
    };
    switch (c) {
    case '"': // a string literal, with backslash escapes
      for (++i; i < e && buffer[i] != '"'; ++i)
        if (buffer[i] == '\\')
          ++i;
      break;
    case '/':
      if (i + 1 < e && buffer[i + 1] == '/')
        while (i < e && buffer[i] != '\n')
          ++i;
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (++depth > kMaxParseNesting)
        return at("input nested more than " + std::to_string(kMaxParseNesting) +
                  " levels deep (brackets, braces, parentheses or angle "
                  "brackets): refused, as MLIR's parser would overflow the "
                  "stack");
      break;
    case '>':
      if ((i > 0 && buffer[i - 1] == '-') ||
          (i + 1 < e && buffer[i + 1] == '='))
        break;
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      depth -= depth > 0;
      break;
    case 'a':
      if (isIndexDenseArray(buffer, i))
        return at("a dense array of 'index' elements (array<index: ...>) is "
                  "not supported: MLIR's parser crashes on it; use i64");
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}

mlir::LogicalResult tracec::checkParserHazards(const llvm::SourceMgr &sourceMgr,
                                               mlir::MLIRContext *context) {
  unsigned id = sourceMgr.getMainFileID();
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(id);
  std::optional<ParserHazard> hazard = findParserHazard(buffer->getBuffer());
  if (!hazard)
    return mlir::success();
  auto [line, column] = sourceMgr.getLineAndColumn(hazard->loc, id);
  mlir::emitError(mlir::FileLineColLoc::get(
      context, buffer->getBufferIdentifier(), line, column))
      << hazard->message;
  return mlir::failure();
}
