//===- Importer.h - The GraphDef importer's classes (private) -------------===//
//
// A graph (or a FunctionDef's body) is a set of nodes that name their
// inputs; the importer orders them (inputs first, a cycle is an error),
// then builds each node through its op mapping, in one func.func. Control
// inputs (^node) become control tokens: stateful ops take them as `after`
// operands and yield their own; other nodes make their outputs wait on
// them through trace.identity, and pass them on to the nodes that wait on
// them in turn.
//
// BodyImporter.cpp builds one body; GraphImporter.cpp the graph's function
// and the entry points; FunctionLibrary.cpp the library's functions,
// instantiated per argument types.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_TARGET_GRAPHDEF_IMPORTER_H
#define TRACEC_LIB_TARGET_GRAPHDEF_IMPORTER_H

#include "NodeBuilder.h"
#include "ReadProto.h"

#include "tracec/Target/GraphDef.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringSet.h"

#include <map>

namespace tracec::graphdef {

/// A tensor named by a node input: "node", "node:2", or in a FunctionDef
/// "node:out_arg:2"; `control` for "^node".
struct TensorRef {
  std::string node;
  std::string outputArg; // FunctionDef only
  int64_t index = 0;
  bool control = false;
};

mlir::FailureOr<TensorRef> parseRef(llvm::StringRef text);

/// Whether a node of op type `op` is a graph's or function's argument.
bool isArgumentNode(llvm::StringRef op);

class ModuleImporter;

/// One func.func being built from a list of nodes.
class BodyImporter : public FunctionScope {
public:
  BodyImporter(ModuleImporter &module, llvm::StringRef name, bool isFunctionDef,
               llvm::ArrayRef<const tf::NodeDef *> nodes)
      : module(module), name(name.str()), isFunctionDef(isFunctionDef),
        nodeList(nodes) {}

  /// Indexes the nodes; duplicate names are an error.
  mlir::LogicalResult index();
  /// Creates the func.func with `argTypes` (named `argNames` for the
  /// FunctionDef references).
  mlir::func::FuncOp create(mlir::Location loc, mlir::TypeRange argTypes);
  /// Node `name`'s output `index` is `value` (a fed input).
  void feed(llvm::StringRef node, int64_t index, mlir::Value value) {
    fed[node.str()][index] = value;
  }
  void nameArgument(llvm::StringRef argName, unsigned arg) {
    argsByName[argName] = func.getArgument(arg);
  }
  /// Orders the nodes that `roots` (node names) depend on, or all nodes if
  /// `roots` is null; errors for missing inputs and cycles.
  mlir::LogicalResult order(const std::vector<std::string> *roots);
  /// The nodes order() selected, in order.
  llvm::ArrayRef<const tf::NodeDef *> ordered() const { return orderedNodes; }
  /// Builds the ordered nodes.
  mlir::LogicalResult build();
  /// The value of a tensor reference (after build()); errors at `loc`.
  mlir::FailureOr<mlir::Value> resolve(llvm::StringRef text,
                                       mlir::Location loc);
  /// resolve(), a TF1 reference read at the end of the body (results).
  mlir::FailureOr<mlir::Value> resolveResult(llvm::StringRef text,
                                             mlir::Location loc);
  /// The control token of node `node` (null if it has none).
  mlir::FailureOr<mlir::Value> controlToken(llvm::StringRef node,
                                            mlir::Location loc);
  /// Returns `results`, made to wait for `controlNodes`, and sets the
  /// function type.
  mlir::LogicalResult finish(llvm::ArrayRef<mlir::Value> results,
                             llvm::ArrayRef<std::string> controlNodes,
                             mlir::Location loc);

  mlir::Location nodeLoc(const tf::NodeDef &node) {
    std::string text = node.name();
    if (isFunctionDef)
      text += "@" + name;
    return mlir::NameLoc::get(mlir::StringAttr::get(context(), text));
  }
  mlir::MLIRContext *context();

  // FunctionScope.
  mlir::FailureOr<mlir::func::FuncOp> instantiate(llvm::StringRef callee,
                                                  mlir::TypeRange argTypes,
                                                  mlir::Location loc) override;
  mlir::FailureOr<mlir::Value> variableArgument(llvm::StringRef varName,
                                                llvm::StringRef node,
                                                mlir::Type type,
                                                mlir::Location loc) override;

  ModuleImporter &module;
  std::string name;
  bool isFunctionDef;
  mlir::func::FuncOp func;

private:
  mlir::FailureOr<mlir::Value> output(const tf::NodeDef &node,
                                      const TensorRef &ref, mlir::Location loc);

  llvm::ArrayRef<const tf::NodeDef *> nodeList;
  llvm::StringMap<const tf::NodeDef *> nodes;
  std::vector<const tf::NodeDef *> orderedNodes;
  std::map<std::string, std::map<int64_t, mlir::Value>> fed;
  llvm::StringMap<mlir::Value> argsByName;
  llvm::StringMap<llvm::SmallVector<mlir::Value>> outputs;
  llvm::StringMap<mlir::Value> tokens;
  llvm::StringMap<mlir::Value> variables;
  /// Nodes whose output is a TF1 reference, and the token a read of it
  /// waits for (the update's; null for the variable itself).
  llvm::StringMap<mlir::Value> refs;

  /// trace.var.read of `resource` after `token` (if any).
  mlir::FailureOr<mlir::Value> readRef(mlir::OpBuilder &builder,
                                       mlir::Location loc, mlir::Value resource,
                                       mlir::Value token);
};

/// The module: the graph function and the library's functions.
class ModuleImporter {
public:
  ModuleImporter(mlir::MLIRContext *context, const tf::GraphDef &graph,
                 llvm::StringRef sourceName)
      : context(context), graph(graph), sourceName(sourceName.str()),
        builder(context) {
    module = mlir::ModuleOp::create(fileLoc());
    for (const tf::FunctionDef &f : graph.library().function())
      library[f.signature().name()] = &f;
  }

  mlir::Location fileLoc() {
    return mlir::FileLineColLoc::get(context, sourceName, 0, 0);
  }

  /// Every unsupported op of the graph's `nodes` and of the library, each
  /// an error; failure if any.
  mlir::LogicalResult checkOps(llvm::ArrayRef<const tf::NodeDef *> nodes,
                               llvm::StringRef function);
  mlir::LogicalResult importGraph(const GraphImportOptions &options);
  /// Imports library functions not yet instantiated whose argument shapes
  /// are known.
  mlir::LogicalResult importLibrary();
  mlir::FailureOr<mlir::func::FuncOp> instantiate(llvm::StringRef name,
                                                  mlir::TypeRange argTypes,
                                                  mlir::Location loc);

  mlir::MLIRContext *context;
  const tf::GraphDef &graph;
  std::string sourceName;
  mlir::OpBuilder builder;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  llvm::StringMap<const tf::FunctionDef *> library;
  /// The instances of each library function, one per argument types.
  llvm::StringMap<llvm::SmallVector<mlir::func::FuncOp>> instantiated;
  llvm::StringSet<> inProgress;
  const GraphImportOptions *options = nullptr;

private:
  mlir::FailureOr<llvm::SmallVector<mlir::Type>>
  declaredArgTypes(const tf::FunctionDef &f, mlir::Location loc);
  int unsupported = 0;
};

} // namespace tracec::graphdef

#endif // TRACEC_LIB_TARGET_GRAPHDEF_IMPORTER_H
