//===- GraphDef.h - TensorFlow GraphDef/FunctionDef -> trace dialect ------===//
//
// Imports a TensorFlow GraphDef (binary .pb or text .pbtxt) into a module of
// the `trace` dialect: one func.func for the graph (@main) and one per
// function of its library. The options mean what tf-mlir-translate's
// --tf-* flags mean. Node names become the ops' locations (loc("node")), so
// every later diagnostic names the TensorFlow node.
//
// Errors (unreadable or corrupt protobuf, unsupported ops or dtypes,
// missing names, cycles) are emitted as MLIR diagnostics on the context and
// the import returns null.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_TARGET_GRAPHDEF_H
#define TRACEC_TARGET_GRAPHDEF_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tracec {

struct GraphImportOptions {
  /// The graph's inputs, "node" or "node:index": each becomes an argument of
  /// @main (in this order), replacing that node's output. Placeholders not
  /// listed become arguments after them, in node order.
  std::vector<std::string> inputArrays;
  /// One per input ("DT_FLOAT", ...), or empty: the node's `dtype` attr.
  std::vector<std::string> inputDataTypes;
  /// One per input, or empty: the node's `shape` attr.
  std::vector<std::vector<int64_t>> inputShapes;
  /// The results of @main, "node" or "node:index".
  std::vector<std::string> outputArrays;
  /// Nodes that must run (their effects), though no output depends on them.
  std::vector<std::string> controlOutputArrays;
  /// The graph uses _Arg/_Retval nodes (a function's body) for its
  /// arguments and results instead of the arrays above.
  bool graphAsFunction = false;
  /// Import only the nodes the outputs and control outputs depend on.
  bool pruneUnusedNodes = false;
  /// The graph function's name.
  std::string entryName = "main";
  /// Names of the arguments and results in generated code (`trace.name`
  /// attributes): one per input/output array, or empty.
  std::vector<std::string> inputNames, outputNames;
  /// The argument name of a variable, by its VarHandleOp's node name.
  std::map<std::string, std::string> variableNames;
};

/// Sets the inputs (with dtypes and shapes), outputs and their names from
/// tfcompile's config (a tf2xla.Config in text format) at `path`, and
/// prunes the graph to the fetches, as tfcompile does. Errors are emitted
/// on `context`.
mlir::LogicalResult readTf2XlaConfig(llvm::StringRef path,
                                     GraphImportOptions &options,
                                     mlir::MLIRContext *context);

/// Parses "2,3:4:" (one shape per input, ':'-separated; "" is a scalar)
/// into `shapes`. A message on failure.
std::optional<std::string>
parseInputShapes(llvm::StringRef text, std::vector<std::vector<int64_t>> &shapes);

/// Imports the GraphDef in `bytes`, text format if `isText`. `sourceName`
/// (the file) locates errors that have no node.
mlir::OwningOpRef<mlir::ModuleOp>
importGraphDef(llvm::StringRef bytes, bool isText, llvm::StringRef sourceName,
               const GraphImportOptions &options, mlir::MLIRContext *context);

/// Reads `path` (text if it ends in .pbtxt or .txt, else binary; "-":
/// stdin, binary unless `forceText`) and imports it.
mlir::OwningOpRef<mlir::ModuleOp>
importGraphDefFile(llvm::StringRef path, const GraphImportOptions &options,
                   mlir::MLIRContext *context,
                   std::optional<bool> forceText = std::nullopt);

/// The dialects an imported module uses (trace, func), to load into a
/// context before importing.
void registerGraphDefImportDialects(mlir::MLIRContext &context);

} // namespace tracec

#endif // TRACEC_TARGET_GRAPHDEF_H
