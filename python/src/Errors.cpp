//===- Errors.cpp - llvm::Error and TraceError as Python exceptions -------===//

#include "Errors.h"

#include "llvm/ADT/StringRef.h"

using namespace tracec::python;

py::object &tracec::python::compileErrorType() {
  static py::object type;
  return type;
}

py::object &tracec::python::traceErrorType() {
  static py::object type;
  return type;
}

namespace {
// Tags naming the Python exception types; C++ never throws them.
struct CompileErrorTag {};
struct TraceErrorTag {};
} // namespace

void tracec::python::registerErrors(py::module_ &m) {
  compileErrorType() =
      py::exception<CompileErrorTag>(m, "CompileError", PyExc_RuntimeError);
  traceErrorType() =
      py::exception<TraceErrorTag>(m, "TraceError", PyExc_ValueError);
}

void tracec::python::throwError(llvm::Error error) {
  std::string text = llvm::toString(std::move(error));
  llvm::StringRef ref(text);
  bool compile = ref.starts_with("compilation failed") ||
                 ref.starts_with("JIT compilation failed") ||
                 ref.contains(" was not compiled") ||
                 ref.contains("cannot be called from the host");
  PyErr_SetString((compile ? compileErrorType() : py::object(py::handle(
                                                      PyExc_ValueError), true))
                      .ptr(),
                  text.c_str());
  throw py::error_already_set();
}
