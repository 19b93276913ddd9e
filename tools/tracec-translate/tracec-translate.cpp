//===- tracec-translate.cpp - Translations into the trace dialect ---------===//
//
//   tracec-translate --import-graphdef model.pb \
//       --tf-input-arrays=x --tf-input-data-types=DT_FLOAT \
//       --tf-input-shapes=4,3 --tf-output-arrays=y -o model.mlir
//
// The --tf-* flags mean what tf-mlir-translate's do. The input is text
// format if its name ends in .pbtxt or .txt (or with --tf-input-text), else
// binary. Errors are printed with the node they concern and exit with 1.
//
//===----------------------------------------------------------------------===//

#include "tracec/Target/GraphDef.h"

#include "../Common/ToolOptions.h"
#include "../Common/ToolVersion.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace tracec;
namespace cl = llvm::cl;

static cl::OptionCategory toolCategory("tracec-translate options");

static cl::opt<bool>
    importGraphDefFlag("import-graphdef",
                   cl::desc("Translate a TensorFlow GraphDef (.pb, .pbtxt) "
                            "into the trace dialect"),
                   cl::cat(toolCategory));
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input>"),
                                      cl::init("-"), cl::cat(toolCategory));
static cl::opt<std::string> outputFile("o", cl::desc("Output file"),
                                       cl::value_desc("file"), cl::init("-"),
                                       cl::cat(toolCategory));
static cl::opt<bool> inputText(
    "tf-input-text",
    cl::desc("The input is in text format whatever its name"),
    cl::cat(toolCategory));
static cl::list<std::string> inputArrays(
    "tf-input-arrays", cl::CommaSeparated,
    cl::desc("The graph's inputs, node or node:index (comma-separated)"),
    cl::cat(toolCategory));
static cl::list<std::string> inputDataTypes(
    "tf-input-data-types", cl::CommaSeparated,
    cl::desc("Their dtypes: DT_FLOAT, DT_INT32, ... (comma-separated)"),
    cl::cat(toolCategory));
static cl::opt<std::string> inputShapes(
    "tf-input-shapes",
    cl::desc("Their shapes: dims comma-separated, shapes colon-separated "
             "(\"2,3:4:\" is [2,3], [4], a scalar)"),
    cl::cat(toolCategory));
static cl::list<std::string> outputArrays(
    "tf-output-arrays", cl::CommaSeparated,
    cl::desc("The graph's outputs, node or node:index (comma-separated)"),
    cl::cat(toolCategory));
static cl::list<std::string> controlOutputArrays(
    "tf-control-output-arrays", cl::CommaSeparated,
    cl::desc("Nodes that must run though no output needs them"),
    cl::cat(toolCategory));
static cl::opt<bool> graphAsFunction(
    "tf-graph-as-function",
    cl::desc("The graph's _Arg/_Retval nodes are its arguments and results"),
    cl::cat(toolCategory));
static cl::opt<bool> pruneUnusedNodes(
    "tf-prune-unused-nodes",
    cl::desc("Import only what the outputs and control outputs need"),
    cl::cat(toolCategory));
static cl::opt<std::string> entryName("tf-entry-function",
                                      cl::desc("The graph function's name"),
                                      cl::init("main"), cl::cat(toolCategory));

/// "file: loc("node"): error: message" (the file alone when the error is
/// about the file).
static void printDiagnostic(mlir::Diagnostic &diag) {
  llvm::raw_ostream &os = llvm::errs();
  os << inputFile << ": ";
  if (!llvm::isa<mlir::FileLineColLoc, mlir::UnknownLoc>(diag.getLocation()))
    os << diag.getLocation() << ": ";
  switch (diag.getSeverity()) {
  case mlir::DiagnosticSeverity::Error:
    os << "error: ";
    break;
  case mlir::DiagnosticSeverity::Warning:
    os << "warning: ";
    break;
  default:
    os << "note: ";
    break;
  }
  os << diag << "\n";
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  tracec::setToolVersionPrinter("tracec-translate");
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  hideUnrelatedOptions(toolCategory);
  cl::ParseCommandLineOptions(
      argc, argv, "tracec-translate: translate models into the trace dialect\n");
  if (!importGraphDefFlag) {
    llvm::errs() << "tracec-translate: error: no translation given (use "
                    "--import-graphdef)\n";
    return 1;
  }

  GraphImportOptions options;
  options.inputArrays.assign(inputArrays.begin(), inputArrays.end());
  options.inputDataTypes.assign(inputDataTypes.begin(), inputDataTypes.end());
  if (auto error = parseInputShapes(inputShapes, options.inputShapes)) {
    llvm::errs() << "tracec-translate: error: " << *error << "\n";
    return 1;
  }
  options.outputArrays.assign(outputArrays.begin(), outputArrays.end());
  options.controlOutputArrays.assign(controlOutputArrays.begin(),
                                     controlOutputArrays.end());
  options.graphAsFunction = graphAsFunction;
  options.pruneUnusedNodes = pruneUnusedNodes;
  options.entryName = entryName;

  mlir::MLIRContext context;
  bool failed = false;
  context.getDiagEngine().registerHandler([&](mlir::Diagnostic &diag) {
    failed |= diag.getSeverity() == mlir::DiagnosticSeverity::Error;
    printDiagnostic(diag);
  });
  std::optional<bool> forceText;
  if (inputText)
    forceText = true;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      importGraphDefFile(inputFile, options, &context, forceText);
  if (!module || failed)
    return 1;

  std::string error;
  auto output = mlir::openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << "tracec-translate: error: " << error << "\n";
    return 1;
  }
  module->print(output->os(), mlir::OpPrintingFlags());
  output->os() << "\n";
  output->keep();
  return 0;
}
