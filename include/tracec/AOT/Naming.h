//===- Naming.h - C and C++ names of an AOT-compiled model ----------------===//
//
// The one place that turns the model's names (its file name, function,
// argument and result names) into the names the header declares: the
// tracec tool's default class name and the header's entry classes use the
// same function.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_AOT_NAMING_H
#define TRACEC_AOT_NAMING_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tracec::aot {

/// `name` as a C identifier: other characters become '_', a leading digit
/// gets `fallbackPrefix` in front, and a C or C++ keyword gets '_' after.
std::string toCIdentifier(llvm::StringRef name,
                          llvm::StringRef fallbackPrefix = "_");

/// `name` as a C++ class name in CamelCase: "TrainStep" for "train_step",
/// "train.step" or "train-step" (every character that is not a letter or
/// digit separates words, and a word's first letter is upper-cased).
/// `fallback` is the name where nothing is left ("_"), and it goes in front
/// of a leading digit ("Model2d" for "2d").
std::string toClassName(llvm::StringRef name, llvm::StringRef fallback);

/// Whether `name` can name a class or namespace in the generated header: a
/// C identifier that is no C or C++ keyword.
bool isCppName(llvm::StringRef name);

/// Whether `name` is a namespace the header can open: C++ names separated
/// by "::" (a::b).
bool isCppNamespace(llvm::StringRef name);

} // namespace tracec::aot

#endif // TRACEC_AOT_NAMING_H
