//===- ToolVersion.h - --version prints tracec's version, then LLVM's -----===//
//
// Every tool links libLLVM, whose --version would name LLVM alone. Set
// before the command line is parsed.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_TOOLS_COMMON_TOOLVERSION_H
#define TRACEC_TOOLS_COMMON_TOOLVERSION_H

#include "tracec/Version.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

namespace tracec {

/// --version: "tracec <version>" ("tracec-opt (tracec) <version>" for the
/// other tools), then what LLVM's own printer says (its version, default
/// target and host CPU).
inline void setToolVersionPrinter(llvm::StringRef tool) {
  llvm::cl::SetVersionPrinter([tool](llvm::raw_ostream &os) {
    os << tool << (tool == "tracec" ? " " : " (tracec) ") << TRACEC_VERSION
       << "\n"
       << "LLVM (http://llvm.org/):\n"
       << "  LLVM version " << LLVM_VERSION_STRING << "\n"
       << "  Default target: " << llvm::sys::getDefaultTargetTriple() << "\n"
       << "  Host CPU: " << llvm::sys::getHostCPUName() << "\n";
  });
}

} // namespace tracec

#endif // TRACEC_TOOLS_COMMON_TOOLVERSION_H
