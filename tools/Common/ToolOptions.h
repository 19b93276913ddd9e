//===- ToolOptions.h - --help shows a tool's own options ------------------===//
//
// libLLVM and libMLIR register hundreds of command-line options in every
// program that links them. As clang does, a tool puts its options in its
// own llvm::cl::OptionCategory and hides the others from --help; unlike
// llvm::cl::HideUnrelatedOptions, which makes them "really hidden", they
// stay listed by --help-hidden.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_TOOLS_COMMON_TOOLOPTIONS_H
#define TRACEC_TOOLS_COMMON_TOOLOPTIONS_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"

namespace tracec {

/// Hides from --help every option outside `category` and LLVM's generic
/// ones (--help, --help-hidden, --version, ...).
inline void hideUnrelatedOptions(llvm::cl::OptionCategory &category) {
  for (auto &entry : llvm::cl::getRegisteredOptions()) {
    llvm::cl::Option *option = entry.second;
    bool shown = llvm::any_of(option->Categories,
                              [&](llvm::cl::OptionCategory *c) {
                                return c == &category ||
                                       c->getName() == "Generic Options";
                              });
    if (!shown && option->getOptionHiddenFlag() == llvm::cl::NotHidden)
      option->setHiddenFlag(llvm::cl::Hidden);
  }
}

} // namespace tracec

#endif // TRACEC_TOOLS_COMMON_TOOLOPTIONS_H
