//===- Bindings.h - The parts of the tracec._tracec module ----------------===//

#ifndef TRACEC_PYTHON_BINDINGS_H
#define TRACEC_PYTHON_BINDINGS_H

#include "tracec/Runtime/Executable.h"
#include "tracec/Tensor/Variable.h"

#include <pybind11/pybind11.h>

#include <memory>
#include <mutex>
#include <unordered_map>

namespace tracec::python {

namespace py = pybind11;

/// Executable, Function, compile_module, VariableHandle.
void bindRuntime(py::module_ &m);
/// import_graphdef (TensorFlow GraphDefs).
void bindGraphDef(py::module_ &m);
/// compile_model (ahead of time: an object file and its header).
void bindAot(py::module_ &m);
/// to_dlpack_capsule, from_dlpack_capsule (tracec.dlpack).
void bindDLPack(py::module_ &m);
/// Value, the op functions, trace, ConcreteFunction, grad/vjp, control flow.
void bindTracer(py::module_ &m);

/// Calls `function` with the arrays `args` for its inputs firstInput...,
/// then `extras` (captured inputs, variable buffers); returns the results
/// as arrays. Errors name the argument and the expected type.
py::tuple callWithArrays(const Function &function, const py::args &args,
                         size_t firstInput, llvm::ArrayRef<Tensor> extras);

/// Variables created from Python, so that a concrete function's Variable*
/// finds its owner (which Python keeps alive).
std::mutex &variableRegistryMutex();
std::unordered_map<const Variable *, std::weak_ptr<Variable>> &
variableRegistry();
std::shared_ptr<Variable> lookupVariable(const Variable *variable);

} // namespace tracec::python

#endif // TRACEC_PYTHON_BINDINGS_H
