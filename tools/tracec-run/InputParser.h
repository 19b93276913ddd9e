//===- InputParser.h - tracec-run's --input values ------------------------===//

#ifndef TRACEC_TOOLS_TRACEC_RUN_INPUTPARSER_H
#define TRACEC_TOOLS_TRACEC_RUN_INPUTPARSER_H

#include "tracec/Runtime/Executable.h"

namespace tracec {

/// Makes the tensor for one `--input` value meant for an argument of type
/// `spec`: `@path.npy` loads a file; anything else is a literal, a number
/// ("1.5", "-3", "true") or nested lists ("[[1, 2], [3, 4]]") converted to
/// the argument's dtype. Errors describe what is wrong with the value only;
/// the caller says which input it was.
llvm::Expected<Tensor> parseInputValue(llvm::StringRef value,
                                       const TensorSpec &spec);

} // namespace tracec

#endif // TRACEC_TOOLS_TRACEC_RUN_INPUTPARSER_H
