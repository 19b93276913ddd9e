//===- Naming.cpp - C and C++ names of an AOT-compiled model --------------===//

#include "tracec/AOT/Naming.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace tracec;

/// The keywords of C and C++ (C++23 and C23), which no generated name may
/// be.
static bool isKeyword(llvm::StringRef name) {
  static const llvm::StringSet<> keywords = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand",
      "bitor", "bool", "break", "case", "catch", "char", "char8_t",
      "char16_t", "char32_t", "class", "compl", "concept", "const",
      "consteval", "constexpr", "constinit", "const_cast", "continue",
      "co_await", "co_return", "co_yield", "decltype", "default", "delete",
      "do", "double", "dynamic_cast", "else", "enum", "explicit", "export",
      "extern", "false", "float", "for", "friend", "goto", "if", "inline",
      "int", "long", "mutable", "namespace", "new", "noexcept", "not",
      "not_eq", "nullptr", "operator", "or", "or_eq", "private",
      "protected", "public", "register", "reinterpret_cast", "requires",
      "restrict", "return", "short", "signed", "sizeof", "static",
      "static_assert", "static_cast", "struct", "switch", "template",
      "this", "thread_local", "throw", "true", "try", "typedef", "typeid",
      "typename", "typeof", "typeof_unqual", "union", "unsigned", "using",
      "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
      "_Alignas", "_Alignof", "_Atomic", "_BitInt", "_Bool", "_Complex",
      "_Generic", "_Imaginary", "_Noreturn", "_Static_assert",
      "_Thread_local"};
  return keywords.contains(name);
}

bool tracec::aot::isCppName(llvm::StringRef name) {
  return !name.empty() && toCIdentifier(name) == name && !isKeyword(name);
}

bool tracec::aot::isCppNamespace(llvm::StringRef name) {
  llvm::SmallVector<llvm::StringRef> parts;
  name.split(parts, "::");
  return llvm::all_of(parts, isCppName);
}

std::string tracec::aot::toCIdentifier(llvm::StringRef name,
                                       llvm::StringRef fallbackPrefix) {
  std::string id;
  for (char c : name)
    id += llvm::isAlnum(c) || c == '_' ? c : '_';
  if (id.empty() || llvm::isDigit(id.front()))
    id = fallbackPrefix.str() + id;
  if (isKeyword(id))
    id += '_';
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
