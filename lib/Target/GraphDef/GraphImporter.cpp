//===- GraphImporter.cpp - A GraphDef into a module -----------------------===//
//
// The graph's function (fed inputs, fetched outputs, TF1 variables) and the
// entry points. Before anything is built, every node's op type is checked,
// in the graph and in every library function, so that one run lists every
// unsupported op.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "tracec/Dialect/Trace/IR/TraceDialect.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace tracec;
using namespace tracec::graphdef;
namespace trace = mlir::trace;

LogicalResult ModuleImporter::checkOps(ArrayRef<const tf::NodeDef *> nodes,
                                       StringRef function) {
  auto check = [&](const tf::NodeDef &node, StringRef fn, Location loc) {
    StringRef op = node.op();
    if (lookupOpMapping(op) || library.count(op) || isArgumentNode(op) ||
        op == "_Retval" || op == "PlaceholderWithDefault")
      return;
    ++unsupported;
    emitError(loc) << "unsupported op '" << op << "' (node '" << node.name()
                   << "' in function '" << fn << "')";
  };
  for (const tf::NodeDef *node : nodes)
    check(*node, function, NameLoc::get(StringAttr::get(context, node->name())));
  for (const tf::FunctionDef &f : graph.library().function())
    for (const tf::NodeDef &node : f.node_def())
      check(node, f.signature().name(),
            NameLoc::get(StringAttr::get(
                context, node.name() + "@" + f.signature().name())));
  if (!unsupported)
    return success();
  return emitError(fileLoc())
         << unsupported << " unsupported op" << (unsupported > 1 ? "s" : "")
         << "; nothing imported";
}

/// The shape of output `index` of `node` from its attributes: `shape`
/// (Placeholder, _Arg) or `_output_shapes`.
static const tf::TensorShapeProto *declaredShape(const tf::NodeDef &node,
                                                 int64_t index) {
  const auto &attrs = node.attr();
  auto shape = attrs.find("shape");
  if (shape != attrs.end() && shape->second.has_shape())
    return &shape->second.shape();
  auto shapes = attrs.find("_output_shapes");
  if (shapes != attrs.end() &&
      shapes->second.list().shape_size() > index)
    return &shapes->second.list().shape(index);
  return nullptr;
}

/// The dtype of output `index` of `node`: `dtype`, or `T`.
static std::optional<tf::DataType> declaredType(const tf::NodeDef &node) {
  for (const char *name : {"dtype", "T"}) {
    auto it = node.attr().find(name);
    if (it != node.attr().end() && it->second.value_case() ==
                                       tf::AttrValue::kType)
      return it->second.type();
  }
  return std::nullopt;
}

LogicalResult ModuleImporter::importGraph(const GraphImportOptions &options) {
  this->options = &options;
  std::vector<const tf::NodeDef *> nodes;
  for (const tf::NodeDef &node : graph.node())
    nodes.push_back(&node);
  BodyImporter body(*this, options.entryName, /*isFunctionDef=*/false, nodes);
  if (failed(body.index()))
    return failure();
  llvm::StringMap<const tf::NodeDef *> byName;
  for (const tf::NodeDef *node : nodes)
    byName[node->name()] = node;
  Location loc = fileLoc();

  // The arguments: (node, output index, type), and the results.
  struct Input {
    const tf::NodeDef *node;
    int64_t index;
    Type type;
  };
  std::vector<Input> inputs;
  std::vector<std::string> outputNames(options.outputArrays);
  std::vector<std::string> controlNames(options.controlOutputArrays);

  auto typeOf = [&](const tf::NodeDef &node, int64_t index,
                    std::optional<tf::DataType> dtype,
                    const std::vector<int64_t> *shape) -> FailureOr<Type> {
    Location at = NameLoc::get(StringAttr::get(context, node.name()));
    if (!dtype)
      dtype = declaredType(node);
    if (!dtype)
      return emitError(at) << "input '" << node.name()
                           << "' has no dtype: give it with "
                              "--tf-input-data-types";
    FailureOr<Type> element = convertDataType(*dtype, context, at);
    if (failed(element))
      return failure();
    if (shape)
      return Type(RankedTensorType::get(*shape, *element));
    const tf::TensorShapeProto *declared = declaredShape(node, index);
    if (!declared)
      return emitError(at) << "input '" << node.name()
                           << "' has no shape: give it with "
                              "--tf-input-shapes";
    FailureOr<RankedTensorType> type = convertShape(
        *declared, *element, at, "input '" + node.name() + "'");
    if (failed(type))
      return failure();
    return Type(*type);
  };

  if (options.graphAsFunction) {
    // _Arg and _Retval nodes, by their `index`.
    std::map<int64_t, const tf::NodeDef *> args, rets;
    for (const tf::NodeDef *node : nodes) {
      if (node->op() != "_Arg" && node->op() != "_Retval")
        continue;
      auto it = node->attr().find("index");
      if (it == node->attr().end())
        return emitError(NameLoc::get(StringAttr::get(context, node->name())))
               << "'" << node->op() << "' node '" << node->name()
               << "' has no 'index' attribute";
      (node->op() == "_Arg" ? args : rets)[it->second.i()] = node;
    }
    for (auto &[index, node] : args) {
      FailureOr<Type> type = typeOf(*node, 0, std::nullopt, nullptr);
      if (failed(type))
        return failure();
      inputs.push_back({node, 0, *type});
    }
    for (auto &[index, node] : rets) {
      if (node->input_size() < 1)
        return emitError(loc) << "_Retval '" << node->name()
                              << "' has no input";
      outputNames.push_back(node->input(0));
    }
  } else {
    if (!options.inputDataTypes.empty() &&
        options.inputDataTypes.size() != options.inputArrays.size())
      return emitError(loc) << options.inputArrays.size()
                            << " input arrays but "
                            << options.inputDataTypes.size()
                            << " input data types";
    if (!options.inputShapes.empty() &&
        options.inputShapes.size() != options.inputArrays.size())
      return emitError(loc) << options.inputArrays.size()
                            << " input arrays but "
                            << options.inputShapes.size() << " input shapes";
    llvm::StringSet<> seen;
    for (auto [i, name] : llvm::enumerate(options.inputArrays)) {
      FailureOr<TensorRef> ref = parseRef(name);
      if (failed(ref) || ref->control || !ref->outputArg.empty())
        return emitError(loc) << "malformed input array '" << name << "'";
      const tf::NodeDef *node = byName.lookup(ref->node);
      if (!node)
        return emitError(loc) << "input array '" << name
                              << "' names no node of the graph";
      if (!seen.insert(name).second)
        return emitError(loc) << "duplicate input array '" << name << "'";
      std::optional<tf::DataType> dtype;
      if (!options.inputDataTypes.empty()) {
        tf::DataType parsed;
        if (!tf::DataType_Parse(options.inputDataTypes[i], &parsed))
          return emitError(loc) << "unknown data type '"
                                << options.inputDataTypes[i] << "'";
        dtype = parsed;
      }
      FailureOr<Type> type =
          typeOf(*node, ref->index, dtype,
                 options.inputShapes.empty() ? nullptr
                                             : &options.inputShapes[i]);
      if (failed(type))
        return failure();
      inputs.push_back({node, ref->index, *type});
    }
  }
  for (const std::string &name : outputNames) {
    FailureOr<TensorRef> ref = parseRef(name);
    if (failed(ref) || ref->control || !ref->outputArg.empty())
      return emitError(loc) << "malformed output array '" << name << "'";
    if (!byName.count(ref->node))
      return emitError(loc) << "output array '" << name
                            << "' names no node of the graph";
  }
  {
    llvm::StringSet<> seen;
    for (const std::string &name : controlNames) {
      if (!byName.count(name))
        return emitError(loc) << "control output array '" << name
                              << "' names no node of the graph";
      if (!seen.insert(name).second)
        return emitError(loc) << "duplicate control output array '" << name
                              << "'";
    }
  }

  // The nodes to import, and their order. Fed nodes are leaves.
  std::vector<std::string> roots;
  for (const std::string &name : outputNames)
    roots.push_back(parseRef(name)->node);
  roots.insert(roots.end(), controlNames.begin(), controlNames.end());
  // Placeholders not fed become arguments too, after the given ones.
  func::FuncOp func;
  {
    // The argument list must be known to create the function: a first
    // ordering finds the placeholders that are reached but not fed.
    BodyImporter probe(*this, options.entryName, false, nodes);
    (void)probe.index();
    for (const Input &input : inputs)
      probe.feed(input.node->name(), input.index, Value());
    if (failed(probe.order(options.pruneUnusedNodes ? &roots : nullptr)))
      return failure();
    if (failed(checkOps(probe.ordered(), options.entryName)))
      return failure();
    llvm::StringSet<> fedNodes;
    for (const Input &input : inputs)
      fedNodes.insert(input.node->name());
    for (const tf::NodeDef *node : probe.ordered())
      if (node->op() == "Placeholder" && !fedNodes.count(node->name())) {
        FailureOr<Type> type = typeOf(*node, 0, std::nullopt, nullptr);
        if (failed(type))
          return failure();
        inputs.push_back({node, 0, *type});
      }
  }
  // Arguments in the order: listed inputs, then the other placeholders,
  // which keep graph order.
  SmallVector<Type> argTypes;
  for (const Input &input : inputs)
    argTypes.push_back(input.type);
  func = body.create(loc, argTypes);
  for (auto [i, input] : llvm::enumerate(inputs)) {
    body.feed(input.node->name(), input.index, func.getArgument(i));
    func.getArgument(i).setLoc(
        NameLoc::get(StringAttr::get(context, input.node->name())));
    if (i < options.inputNames.size() && !options.inputNames[i].empty())
      func.setArgAttr(i, "trace.name",
                      StringAttr::get(context, options.inputNames[i]));
    func.setArgAttr(i, "tf.name",
                    StringAttr::get(context, input.node->name() +
                                                 (input.index
                                                      ? ":" + std::to_string(
                                                                  input.index)
                                                      : "")));
  }
  if (failed(body.order(options.pruneUnusedNodes ? &roots : nullptr)) ||
      failed(body.build()))
    return failure();
  SmallVector<Value> results;
  for (const std::string &name : outputNames) {
    FailureOr<Value> value = body.resolveResult(name, loc);
    if (failed(value))
      return failure();
    results.push_back(*value);
  }
  if (failed(body.finish(results, controlNames, loc)))
    return failure();
  for (auto [i, name] : llvm::enumerate(options.outputNames))
    if (i < results.size() && !name.empty())
      func.setResultAttr(i, "trace.name", StringAttr::get(context, name));
  return success();
}


//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

std::optional<std::string>
tracec::parseInputShapes(StringRef text,
                         std::vector<std::vector<int64_t>> &shapes) {
  shapes.clear();
  if (text.empty())
    return std::nullopt;
  SmallVector<StringRef> parts;
  text.split(parts, ':');
  for (StringRef part : parts) {
    std::vector<int64_t> shape;
    if (!part.trim().empty()) {
      SmallVector<StringRef> dims;
      part.split(dims, ',');
      for (StringRef dim : dims) {
        int64_t size;
        if (dim.trim().getAsInteger(10, size) || size < 0)
          return ("malformed dim '" + dim + "' in --tf-input-shapes '" +
                  text + "' (expected non-negative sizes)")
              .str();
        shape.push_back(size);
      }
    }
    shapes.push_back(std::move(shape));
  }
  return std::nullopt;
}

void tracec::registerGraphDefImportDialects(MLIRContext &context) {
  context.loadDialect<trace::TraceDialect, func::FuncDialect, scf::SCFDialect,
                      tensor::TensorDialect>();
}

OwningOpRef<ModuleOp>
tracec::importGraphDef(StringRef bytes, bool isText, StringRef sourceName,
                       const GraphImportOptions &options,
                       MLIRContext *context) {
  registerGraphDefImportDialects(*context);
  tf::GraphDef graph;
  if (failed(parseGraphDef(bytes, isText, sourceName, context, graph)))
    return nullptr;
  ModuleImporter importer(context, graph, sourceName);
  if (failed(importer.importGraph(options)) ||
      failed(importer.importLibrary()))
    return nullptr;
  if (failed(verify(*importer.module)))
    return nullptr;
  return std::move(importer.module);
}

OwningOpRef<ModuleOp>
tracec::importGraphDefFile(StringRef path, const GraphImportOptions &options,
                           MLIRContext *context, std::optional<bool> forceText) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &error);
  if (!file) {
    emitError(UnknownLoc::get(context)) << path << ": " << error;
    return nullptr;
  }
  bool isText = forceText.value_or(path.ends_with(".pbtxt") ||
                                   path.ends_with(".txt"));
  return importGraphDef(file->getBuffer(), isText, path, options, context);
}
