//===- HeaderEmitter.h - The C/C++ header of an AOT-compiled model --------===//

#ifndef TRACEC_AOT_HEADEREMITTER_H
#define TRACEC_AOT_HEADEREMITTER_H

#include "tracec/AOT/EntryPoints.h"

#include "llvm/Support/raw_ostream.h"

namespace tracec::aot {

struct HeaderOptions {
  /// The model's source, named in the header's comment.
  std::string modelName;
  /// The prefix of the C symbols, also of the macros (upper-cased).
  std::string prefix;
  /// The C++ class, and the namespace it goes into ("" for none; "a::b").
  std::string className;
  std::string namespaceName;
};

/// Writes the header declaring `entries`: a C function per entry with
/// shape and size macros, and a C++ class on top that owns the variables
/// (persistent, 64-byte aligned) and, per entry, the argument and result
/// buffers with tfcompile's accessors (arg_data(i), set_arg_<name>_data,
/// result_data(i), result_<name>_data, ArgSize(i), Run()).
void emitHeader(llvm::raw_ostream &os, llvm::ArrayRef<EntryPoint> entries,
                const HeaderOptions &options);

} // namespace tracec::aot

#endif // TRACEC_AOT_HEADEREMITTER_H
