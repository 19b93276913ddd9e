//===- GraphDefBindings.cpp - TensorFlow GraphDef import ------------------===//
//
// _tracec.import_graphdef: a GraphDef file as the text of a `trace` module
// (tracec.import_graphdef compiles it). Import errors raise ValueError with
// every diagnostic, each naming its node.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "tracec/Target/GraphDef.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <pybind11/stl.h>

using namespace tracec;
namespace py = pybind11;

static std::string importGraphDefText(
    const std::string &path, const std::vector<std::string> &inputs,
    const std::vector<std::string> &inputDataTypes,
    const std::vector<std::vector<int64_t>> &inputShapes,
    const std::vector<std::string> &outputs,
    const std::vector<std::string> &controlOutputs, bool graphAsFunction,
    bool pruneUnusedNodes) {
  GraphImportOptions options;
  options.inputArrays = inputs;
  options.inputDataTypes = inputDataTypes;
  options.inputShapes = inputShapes;
  options.outputArrays = outputs;
  options.controlOutputArrays = controlOutputs;
  options.graphAsFunction = graphAsFunction;
  options.pruneUnusedNodes = pruneUnusedNodes;

  mlir::MLIRContext context;
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    if (d.getSeverity() != mlir::DiagnosticSeverity::Error)
      return mlir::success();
    if (!llvm::isa<mlir::FileLineColLoc, mlir::UnknownLoc>(d.getLocation()))
      os << d.getLocation() << ": ";
    os << d << "\n";
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module;
  {
    py::gil_scoped_release release;
    module = importGraphDefFile(path, options, &context);
  }
  if (!module)
    throw py::value_error(path + ": cannot import the GraphDef:\n" +
                          diagnostics);
  std::string text;
  llvm::raw_string_ostream out(text);
  module->print(out);
  return text;
}

void tracec::python::bindGraphDef(py::module_ &m) {
  m.def("import_graphdef", &importGraphDefText, py::arg("path"),
        py::arg("inputs"), py::arg("input_dtypes"), py::arg("input_shapes"),
        py::arg("outputs"), py::arg("control_outputs"),
        py::arg("graph_as_function"), py::arg("prune_unused_nodes"),
        "A TensorFlow GraphDef (.pb, .pbtxt) as a trace module (MLIR text).");
}
