//===- Errors.h - llvm::Error and TraceError as Python exceptions ---------===//

#ifndef TRACEC_PYTHON_ERRORS_H
#define TRACEC_PYTHON_ERRORS_H

#include "llvm/Support/Error.h"

#include <pybind11/pybind11.h>

namespace tracec::python {

namespace py = pybind11;

/// tracec.CompileError (RuntimeError): the pipelines or the JIT failed; the
/// message holds MLIR's diagnostics with their locations.
py::object &compileErrorType();
/// tracec.TraceError (ValueError): the tracer rejected an op or an argument.
py::object &traceErrorType();

/// Registers the exception types and translators on the module.
void registerErrors(py::module_ &m);

/// Raises the error as a Python exception: CompileError for compilation
/// failures, ValueError for the rest (bad arguments), with the error's text.
[[noreturn]] void throwError(llvm::Error error);

template <typename T> T unwrap(llvm::Expected<T> value) {
  if (!value)
    throwError(value.takeError());
  return std::move(*value);
}
inline void unwrap(llvm::Error error) {
  if (error)
    throwError(std::move(error));
}

} // namespace tracec::python

#endif // TRACEC_PYTHON_ERRORS_H
