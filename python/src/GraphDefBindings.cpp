//===- GraphDefBindings.cpp - TensorFlow GraphDef import ------------------===//
//
// _tracec.import_graphdef: a GraphDef file as the text of a `trace` module
// (tracec.import_graphdef compiles it). Import errors raise ValueError with
// every diagnostic, each naming its node.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "tracec/Target/GraphDef.h"

#include "tracec/Dialect/Trace/IR/TraceDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <pybind11/stl.h>

using namespace tracec;
namespace py = pybind11;

/// (dtype name, shape) of a tensor type: "f32", as MLIR prints it.
static py::tuple spec(mlir::RankedTensorType type) {
  std::string dtype;
  llvm::raw_string_ostream os(dtype);
  os << type.getElementType();
  return py::make_tuple(dtype, std::vector<int64_t>(type.getShape()));
}

/// (module text, inputs, variables): the arguments of @main, each (name,
/// dtype, shape), tensors first, then the variables (resources).
static py::tuple importGraphDefText(
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
  auto main = module->lookupSymbol<mlir::func::FuncOp>("main");
  py::list arguments, variables;
  for (auto [i, type] : llvm::enumerate(main.getArgumentTypes())) {
    if (auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type)) {
      auto name = main.getArgAttrOfType<mlir::StringAttr>(i, "tf.name");
      arguments.append(py::make_tuple(name ? name.str() : "", spec(tensor)));
    } else if (auto resource = llvm::dyn_cast<mlir::trace::ResourceType>(type)) {
      auto name = main.getArgAttrOfType<mlir::StringAttr>(i, "tf.variable");
      variables.append(py::make_tuple(name ? name.str() : "",
                                      spec(resource.getValueType())));
    }
  }
  return py::make_tuple(text, arguments, variables);
}

void tracec::python::bindGraphDef(py::module_ &m) {
  m.def("import_graphdef", &importGraphDefText, py::arg("path"),
        py::arg("inputs"), py::arg("input_dtypes"), py::arg("input_shapes"),
        py::arg("outputs"), py::arg("control_outputs"),
        py::arg("graph_as_function"), py::arg("prune_unused_nodes"),
        "A TensorFlow GraphDef (.pb, .pbtxt) as a trace module (MLIR text), "
        "with the arguments of its @main: (text, inputs, variables).");
}
