//===- AotBindings.cpp - compile_model: a module to an object and header --===//
//
// Python's ConcreteFunction.export compiles ahead of time through this
// (lib/AOT/ModelCompiler), as the `tracec` tool does.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"
#include "Errors.h"

#include "tracec/AOT/ModelCompiler.h"

#include <pybind11/stl.h>

using namespace tracec;
using namespace tracec::python;

void tracec::python::bindAot(py::module_ &m) {
  m.def(
      "compile_model",
      [](const std::string &source, const std::vector<std::string> &entries,
         const std::string &modelName, const std::string &entryName,
         const std::string &targetCpu, unsigned threads) {
        aot::ModelOptions options;
        options.modelName = modelName;
        options.entryName = entryName;
        options.targetCpu = targetCpu;
        options.threads = threads;
        aot::CompiledModel model = unwrap([&] {
          // A compile takes seconds and its own MLIR context.
          py::gil_scoped_release release;
          return aot::compileModel(source, entries, options);
        }());
        return py::make_tuple(py::bytes(model.object), model.header,
                              model.prefix, model.argNames);
      },
      py::arg("source"), py::arg("entries"), py::arg("model_name"),
      py::arg("entry_name"), py::arg("target_cpu"), py::arg("threads"),
      "(object file bytes, header text, C prefix, the first entry's C "
      "argument names) of the module's entries, "
      "as the tracec tool compiles them; CompileError with the "
      "diagnostics.");
}
