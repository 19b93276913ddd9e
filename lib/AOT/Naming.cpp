//===- Naming.cpp - C and C++ names of an AOT-compiled model --------------===//

#include "tracec/AOT/Naming.h"

#include "llvm/ADT/StringExtras.h"

using namespace tracec;

std::string tracec::aot::toCIdentifier(llvm::StringRef name,
                                       llvm::StringRef fallbackPrefix) {
  std::string id;
  for (char c : name)
    id += llvm::isAlnum(c) || c == '_' ? c : '_';
  if (id.empty() || llvm::isDigit(id.front()))
    id = fallbackPrefix.str() + id;
  return id;
}

std::string tracec::aot::toClassName(llvm::StringRef name,
                                     llvm::StringRef fallback) {
  std::string result;
  bool startWord = true;
  for (char c : name) {
    if (!llvm::isAlnum(c)) {
      startWord = true;
      continue;
    }
    result += startWord ? llvm::toUpper(c) : c;
    startWord = false;
  }
  if (result.empty() || llvm::isDigit(result.front()))
    result = fallback.str() + result;
  return result;
}
