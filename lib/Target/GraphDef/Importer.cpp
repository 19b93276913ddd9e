//===- Importer.cpp - GraphDef and FunctionDef bodies into func.func ------===//
//
// A graph (or a FunctionDef's body) is a set of nodes that name their
// inputs; the importer orders them (inputs first, a cycle is an error),
// then builds each node through its op mapping, in one func.func. Control
// inputs (^node) become control tokens: stateful ops take them as `after`
// operands and yield their own; other nodes make their outputs wait on
// them through trace.identity, and pass them on to the nodes that wait on
// them in turn.
//
// Before building anything, every node's op type is checked, in the graph
// and in every library function, so that one run lists every unsupported
// op.
//
//===----------------------------------------------------------------------===//

#include "NodeBuilder.h"
#include "ReadProto.h"

#include "tracec/Dialect/Trace/IR/TraceDialect.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "tracec/Target/GraphDef.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

#include <map>

using namespace mlir;
using namespace tracec;
using namespace tracec::graphdef;
namespace trace = mlir::trace;

namespace {

/// A tensor named by a node input: "node", "node:2", or in a FunctionDef
/// "node:out_arg:2"; `control` for "^node".
struct TensorRef {
  std::string node;
  std::string outputArg; // FunctionDef only
  int64_t index = 0;
  bool control = false;
};

FailureOr<TensorRef> parseRef(StringRef text) {
  TensorRef ref;
  if (text.consume_front("^"))
    ref.control = true;
  SmallVector<StringRef, 3> parts;
  text.split(parts, ':');
  if (parts.empty() || parts[0].empty() || parts.size() > 3)
    return failure();
  ref.node = parts[0].str();
  if (parts.size() == 3)
    ref.outputArg = parts[1].str();
  if (parts.size() >= 2 && parts.back().getAsInteger(10, ref.index))
    return failure();
  if (ref.control && parts.size() > 1)
    return failure();
  return ref;
}

bool isArgumentNode(StringRef op) {
  return op == "Placeholder" || op == "_Arg";
}

class ModuleImporter;

/// One func.func being built from a list of nodes.
class BodyImporter : public FunctionScope {
public:
  BodyImporter(ModuleImporter &module, StringRef name, bool isFunctionDef,
               ArrayRef<const tf::NodeDef *> nodes)
      : module(module), name(name.str()), isFunctionDef(isFunctionDef),
        nodeList(nodes) {}

  /// Indexes the nodes; duplicate names are an error.
  LogicalResult index();
  /// Creates the func.func with `argTypes` (named `argNames` for the
  /// FunctionDef references).
  func::FuncOp create(Location loc, TypeRange argTypes);
  /// Node `name`'s output `index` is `value` (a fed input).
  void feed(StringRef node, int64_t index, Value value) {
    fed[node.str()][index] = value;
  }
  void nameArgument(StringRef argName, unsigned arg) {
    argsByName[argName] = func.getArgument(arg);
  }
  /// Orders the nodes that `roots` (node names) depend on, or all nodes if
  /// `roots` is null; errors for missing inputs and cycles.
  LogicalResult order(const std::vector<std::string> *roots);
  /// The nodes order() selected, in order.
  ArrayRef<const tf::NodeDef *> ordered() const { return orderedNodes; }
  /// Builds the ordered nodes.
  LogicalResult build();
  /// The value of a tensor reference (after build()); errors at `loc`.
  FailureOr<Value> resolve(StringRef text, Location loc);
  /// resolve(), a TF1 reference read at the end of the body (results).
  FailureOr<Value> resolveResult(StringRef text, Location loc);
  /// The control token of node `node` (null if it has none).
  FailureOr<Value> controlToken(StringRef node, Location loc);
  /// Returns `results`, made to wait for `controlNodes`, and sets the
  /// function type.
  LogicalResult finish(ArrayRef<Value> results,
                       ArrayRef<std::string> controlNodes, Location loc);

  Location nodeLoc(const tf::NodeDef &node) {
    std::string text = node.name();
    if (isFunctionDef)
      text += "@" + name;
    return NameLoc::get(StringAttr::get(context(), text));
  }
  MLIRContext *context();

  // FunctionScope.
  FailureOr<func::FuncOp> instantiate(StringRef callee, TypeRange argTypes,
                                      Location loc) override;
  FailureOr<Value> variableArgument(StringRef varName, StringRef node,
                                    Type type, Location loc) override;

  ModuleImporter &module;
  std::string name;
  bool isFunctionDef;
  func::FuncOp func;

private:
  FailureOr<Value> output(const tf::NodeDef &node, const TensorRef &ref,
                          Location loc);

  ArrayRef<const tf::NodeDef *> nodeList;
  llvm::StringMap<const tf::NodeDef *> nodes;
  std::vector<const tf::NodeDef *> orderedNodes;
  std::map<std::string, std::map<int64_t, Value>> fed;
  llvm::StringMap<Value> argsByName;
  llvm::StringMap<SmallVector<Value>> outputs;
  llvm::StringMap<Value> tokens;
  llvm::StringMap<Value> variables;
  /// Nodes whose output is a TF1 reference, and the token a read of it
  /// waits for (the update's; null for the variable itself).
  llvm::StringMap<Value> refs;

  /// trace.var.read of `resource` after `token` (if any).
  FailureOr<Value> readRef(OpBuilder &builder, Location loc, Value resource,
                           Value token);
};

/// The module: the graph function and the library's functions.
class ModuleImporter {
public:
  ModuleImporter(MLIRContext *context, const tf::GraphDef &graph,
                 StringRef sourceName)
      : context(context), graph(graph), sourceName(sourceName.str()),
        builder(context) {
    module = ModuleOp::create(fileLoc());
    for (const tf::FunctionDef &f : graph.library().function())
      library[f.signature().name()] = &f;
  }

  Location fileLoc() { return FileLineColLoc::get(context, sourceName, 0, 0); }

  /// Every unsupported op of the graph's `nodes` and of the library, each
  /// an error; failure if any.
  LogicalResult checkOps(ArrayRef<const tf::NodeDef *> nodes,
                         StringRef function);
  LogicalResult importGraph(const GraphImportOptions &options);
  /// Imports library functions not yet instantiated whose argument shapes
  /// are known.
  LogicalResult importLibrary();
  FailureOr<func::FuncOp> instantiate(StringRef name, TypeRange argTypes,
                                      Location loc);

  MLIRContext *context;
  const tf::GraphDef &graph;
  std::string sourceName;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
  llvm::StringMap<const tf::FunctionDef *> library;
  /// The instances of each library function, one per argument types.
  llvm::StringMap<SmallVector<func::FuncOp>> instantiated;
  llvm::StringSet<> inProgress;
  const GraphImportOptions *options = nullptr;

private:
  FailureOr<SmallVector<Type>> declaredArgTypes(const tf::FunctionDef &f,
                                                Location loc);
  int unsupported = 0;
};

} // namespace

//===----------------------------------------------------------------------===//
// BodyImporter
//===----------------------------------------------------------------------===//

MLIRContext *BodyImporter::context() { return module.context; }

LogicalResult BodyImporter::index() {
  for (const tf::NodeDef *node : nodeList) {
    if (node->name().empty())
      return emitError(module.fileLoc())
             << "a node of function '" << name << "' has no name";
    if (!nodes.try_emplace(node->name(), node).second)
      return emitError(nodeLoc(*node))
             << "duplicate node name '" << node->name() << "' in function '"
             << name << "'";
  }
  return success();
}

func::FuncOp BodyImporter::create(Location loc, TypeRange argTypes) {
  OpBuilder builder(context());
  builder.setInsertionPointToEnd(module.module->getBody());
  func = func::FuncOp::create(builder, loc, name,
                              builder.getFunctionType(argTypes, {}));
  func.addEntryBlock();
  return func;
}

LogicalResult BodyImporter::order(const std::vector<std::string> *roots) {
  // Iterative depth-first search; `state` 1 = on the stack, 2 = done.
  llvm::StringMap<int> state;
  std::vector<std::pair<const tf::NodeDef *, int>> stack;
  auto visit = [&](const tf::NodeDef *start) -> LogicalResult {
    if (state.lookup(start->name()))
      return success();
    stack.push_back({start, 0});
    state[start->name()] = 1;
    while (!stack.empty()) {
      auto &[node, next] = stack.back();
      // A fed node's inputs are not needed.
      bool isFed = fed.count(node->name());
      if (isFed || next == node->input_size()) {
        state[node->name()] = 2;
        orderedNodes.push_back(node);
        stack.pop_back();
        continue;
      }
      const std::string &input = node->input(next++);
      FailureOr<TensorRef> ref = parseRef(input);
      if (failed(ref))
        return emitError(nodeLoc(*node))
               << "node '" << node->name() << "' in function '" << name
               << "' has a malformed input '" << input << "'";
      if (argsByName.count(ref->node) && ref->outputArg.empty())
        continue;
      const tf::NodeDef *source = nodes.lookup(ref->node);
      if (!source)
        return emitError(nodeLoc(*node))
               << "node '" << node->name() << "' in function '" << name
               << "': input '" << input << "' names no node";
      int s = state.lookup(source->name());
      if (s == 2)
        continue;
      if (s == 1) {
        // The cycle is the stack from `source` up.
        std::string path;
        bool on = false;
        for (auto &entry : stack) {
          on |= entry.first == source;
          if (on)
            path += entry.first->name() + " -> ";
        }
        return emitError(nodeLoc(*source))
               << "cycle in function '" << name << "': " << path
               << source->name();
      }
      state[source->name()] = 1;
      stack.push_back({source, 0});
    }
    return success();
  };
  if (!roots) {
    for (const tf::NodeDef *node : nodeList)
      if (failed(visit(node)))
        return failure();
    return success();
  }
  for (const std::string &root : *roots)
    if (const tf::NodeDef *node = nodes.lookup(root))
      if (failed(visit(node)))
        return failure();
  return success();
}

FailureOr<Value> BodyImporter::output(const tf::NodeDef &node,
                                      const TensorRef &ref, Location loc) {
  auto fedIt = fed.find(node.name());
  if (fedIt != fed.end()) {
    auto it = fedIt->second.find(ref.index);
    if (it == fedIt->second.end() || !ref.outputArg.empty())
      return emitError(loc) << "output " << ref.index << " of node '"
                            << node.name()
                            << "' is not fed, but other outputs are";
    return it->second;
  }
  auto it = outputs.find(node.name());
  assert(it != outputs.end() && "inputs are built first");
  ArrayRef<Value> values = it->second;
  int64_t index = ref.index;
  if (!ref.outputArg.empty()) {
    // FunctionDef: "node:out_arg:i". Calls name the callee's outputs.
    SmallVector<StringRef> argNames;
    if (const OpMapping *mapping = lookupOpMapping(node.op()))
      argNames.assign(mapping->outputArgs.begin(), mapping->outputArgs.end());
    else if (const tf::FunctionDef *f = module.library.lookup(node.op()))
      for (const auto &arg : f->signature().output_arg())
        argNames.push_back(arg.name());
    if (!argNames.empty()) {
      auto at = llvm::find(argNames, ref.outputArg);
      if (at == argNames.end())
        return emitError(loc) << "node '" << node.name() << "' ('"
                              << node.op() << "') has no output '"
                              << ref.outputArg << "'";
      index += at - argNames.begin();
    }
  }
  if (index < 0 || index >= int64_t(values.size()))
    return emitError(loc) << "node '" << node.name() << "' ('" << node.op()
                          << "') has " << values.size()
                          << " outputs, no output " << index;
  return values[index];
}

FailureOr<Value> BodyImporter::resolve(StringRef text, Location loc) {
  FailureOr<TensorRef> ref = parseRef(text);
  if (failed(ref) || ref->control)
    return emitError(loc) << "malformed tensor name '" << text << "'";
  if (ref->outputArg.empty())
    if (Value arg = argsByName.lookup(ref->node))
      return arg;
  const tf::NodeDef *node = nodes.lookup(ref->node);
  if (!node)
    return emitError(loc) << "'" << text << "' names no node of function '"
                          << name << "'";
  if (!fed.count(node->name()) && !outputs.count(node->name()))
    return emitError(loc) << "node '" << node->name()
                          << "' was not imported";
  return output(*node, *ref, loc);
}

FailureOr<Value> BodyImporter::readRef(OpBuilder &builder, Location loc,
                                        Value resource, Value token) {
  SmallVector<Value> operands{resource};
  if (token)
    operands.push_back(token);
  OperationState state(loc, trace::VarReadOp::getOperationName());
  state.addOperands(operands);
  auto type = cast<trace::ResourceType>(resource.getType());
  state.addTypes({type.getValueType(), trace::ControlType::get(context())});
  Operation *op = builder.create(state);
  if (failed(verify(op, /*verifyRecursively=*/false)))
    return failure();
  return op->getResult(0);
}

FailureOr<Value> BodyImporter::resolveResult(StringRef text, Location loc) {
  FailureOr<Value> value = resolve(text, loc);
  if (failed(value))
    return failure();
  FailureOr<TensorRef> ref = parseRef(text);
  auto it = refs.find(ref->node);
  if (it == refs.end())
    return value;
  OpBuilder builder(context());
  builder.setInsertionPointToEnd(&func.getBody().front());
  return readRef(builder, loc, *value, it->second);
}

FailureOr<Value> BodyImporter::controlToken(StringRef node, Location loc) {
  if (!nodes.count(node))
    return emitError(loc) << "control output '" << node
                          << "' names no node of function '" << name << "'";
  return tokens.lookup(node);
}

/// The shapes TensorFlow recorded for the node's outputs (`_output_shapes`)
/// must be those the dialect inferred, where they are known: a mismatch
/// means the node was not mapped as TensorFlow computes it.
static LogicalResult checkRecordedShapes(NodeBuilder &b,
                                         ArrayRef<Value> results) {
  const tf::AttrValue *shapes = b.attr("_output_shapes");
  if (!shapes || shapes->value_case() != tf::AttrValue::kList ||
      shapes->list().shape_size() != int(results.size()))
    return success();
  for (auto [i, result] : llvm::enumerate(results)) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    const tf::TensorShapeProto &recorded = shapes->list().shape(i);
    if (!type || recorded.unknown_rank())
      continue;
    bool matches = recorded.dim_size() == type.getRank();
    for (int d = 0; matches && d < recorded.dim_size(); ++d)
      matches = recorded.dim(d).size() < 0 ||
                recorded.dim(d).size() == type.getDimSize(d);
    if (matches)
      continue;
    std::string dims;
    for (int d = 0; d < recorded.dim_size(); ++d)
      dims += (d ? "x" : "") + std::to_string(recorded.dim(d).size());
    return b.error() << "output " << i << " is " << type
                     << ", but TensorFlow recorded the shape [" << dims
                     << "] (_output_shapes)";
  }
  return success();
}

LogicalResult BodyImporter::build() {
  OpBuilder builder(context());
  builder.setInsertionPointToEnd(&func.getBody().front());
  for (const tf::NodeDef *node : orderedNodes) {
    if (fed.count(node->name()))
      continue;
    Location loc = nodeLoc(*node);
    const OpMapping *mapping = lookupOpMapping(node->op());
    SmallVector<Value> inputs, after;
    for (const std::string &input : node->input()) {
      FailureOr<TensorRef> ref = parseRef(input);
      if (ref->control) {
        if (Value token = tokens.lookup(ref->node))
          after.push_back(token);
        continue;
      }
      FailureOr<Value> value = resolve(input, loc);
      if (failed(value))
        return failure();
      // A TF1 reference: updated as is (Assign's input 0), else read here.
      auto refIt = refs.find(ref->node);
      if (refIt != refs.end()) {
        if (mapping && mapping->refInput && inputs.empty()) {
          if (refIt->second)
            after.push_back(refIt->second);
        } else {
          value = readRef(builder, loc, *value, refIt->second);
        }
      }
      inputs.push_back(*value);
    }
    NodeBuilder b(*node, name, builder, loc, inputs, after, *this);
    NodeResults results = failure();
    if (node->op() == "PlaceholderWithDefault") {
      // Not fed: its default.
      if (failed(b.checkInputs(1)))
        return failure();
      results = SmallVector<Value>{inputs[0]};
    } else if (node->op() == "_Retval") {
      // A result (read from its input by --tf-graph-as-function).
      results = SmallVector<Value>{};
    } else if (isArgumentNode(node->op())) {
      return b.error() << (node->op() == "Placeholder"
                               ? "the placeholder is not an input: add it "
                                 "to --tf-input-arrays"
                               : "_Arg nodes need --tf-graph-as-function");
    } else if (mapping) {
      results = mapping->build(b);
    } else {
      results = buildDirectCall(b);
    }
    if (failed(results) || failed(checkRecordedShapes(b, *results)))
      return failure();
    // Outputs of nodes that did not take the tokens themselves wait on them.
    if (!after.empty() && !b.token) {
      for (Value &result : *results)
        if (isa<RankedTensorType>(result.getType()))
          result = trace::IdentityOp::create(builder, loc, result, after);
    }
    Value token = b.token;
    if (!token && !after.empty())
      token = after.size() == 1
                  ? after[0]
                  : trace::GroupOp::create(builder, loc, after).getResult();
    if (token)
      tokens[node->name()] = token;
    if (b.refOutput)
      refs[node->name()] = b.token;
    outputs[node->name()] = std::move(*results);
  }
  return success();
}

LogicalResult BodyImporter::finish(ArrayRef<Value> results,
                                   ArrayRef<std::string> controlNodes,
                                   Location loc) {
  OpBuilder builder(context());
  builder.setInsertionPointToEnd(&func.getBody().front());
  SmallVector<Value> after;
  llvm::StringSet<> seen;
  for (const std::string &node : controlNodes) {
    if (!seen.insert(node).second)
      return emitError(loc) << "duplicate control output '" << node
                            << "' in function '" << name << "'";
    FailureOr<Value> token = controlToken(node, loc);
    if (failed(token))
      return failure();
    if (*token)
      after.push_back(*token);
  }
  SmallVector<Value> returned(results);
  if (!after.empty())
    for (Value &result : returned)
      if (isa<RankedTensorType>(result.getType()))
        result = trace::IdentityOp::create(builder, loc, result, after);
  func::ReturnOp::create(builder, loc, returned);
  func.setFunctionType(builder.getFunctionType(
      func.getBody().front().getArgumentTypes(), TypeRange(returned)));
  return success();
}

FailureOr<func::FuncOp> BodyImporter::instantiate(StringRef callee,
                                                  TypeRange argTypes,
                                                  Location loc) {
  return module.instantiate(callee, argTypes, loc);
}

FailureOr<Value> BodyImporter::variableArgument(StringRef varName,
                                                StringRef node, Type type,
                                                Location loc) {
  if (Value arg = variables.lookup(varName)) {
    if (arg.getType() != type)
      return emitError(loc) << "variable '" << varName << "' is used as "
                            << type << " and as " << arg.getType();
    return arg;
  }
  unsigned index = func.getNumArguments();
  SmallVector<NamedAttribute> named{
      NamedAttribute(StringAttr::get(context(), "tf.variable"),
                     StringAttr::get(context(), varName))};
  if (module.options) {
    auto it = module.options->variableNames.find(node.str());
    if (it != module.options->variableNames.end())
      named.emplace_back(StringAttr::get(context(), "trace.name"),
                         StringAttr::get(context(), it->second));
  }
  auto attrs = DictionaryAttr::get(context(), named);
  if (failed(func.insertArgument(index, type, attrs, loc)))
    return emitError(loc) << "cannot add an argument for variable '"
                          << varName << "'";
  Value arg = func.getArgument(index);
  variables[varName] = arg;
  return arg;
}

//===----------------------------------------------------------------------===//
// ModuleImporter
//===----------------------------------------------------------------------===//

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

/// The argument types a FunctionDef declares: dtypes from its signature,
/// shapes from arg_attr's "_output_shapes"; failure (no error) if a shape
/// is missing.
FailureOr<SmallVector<Type>>
ModuleImporter::declaredArgTypes(const tf::FunctionDef &f, Location loc) {
  SmallVector<Type> types;
  // The function's `_input_shapes` attr, else each arg's `_output_shapes`.
  auto inputShapes = f.attr().find("_input_shapes");
  for (auto [i, arg] : llvm::enumerate(f.signature().input_arg())) {
    if (arg.type() == tf::DT_RESOURCE)
      return failure();
    const tf::TensorShapeProto *shape = nullptr;
    if (inputShapes != f.attr().end() &&
        inputShapes->second.list().shape_size() ==
            f.signature().input_arg_size())
      shape = &inputShapes->second.list().shape(i);
    auto attrs = f.arg_attr().find(i);
    if (!shape && attrs != f.arg_attr().end()) {
      auto shapes = attrs->second.attr().find("_output_shapes");
      if (shapes != attrs->second.attr().end() &&
          shapes->second.list().shape_size() == 1)
        shape = &shapes->second.list().shape(0);
    }
    if (!shape)
      return failure();
    FailureOr<Type> element = convertDataType(arg.type(), context, loc);
    if (failed(element))
      return failure();
    FailureOr<RankedTensorType> type = convertShape(
        *shape, *element, loc,
        "argument '" + arg.name() + "' of function '" +
            f.signature().name() + "'");
    if (failed(type))
      return failure();
    types.push_back(*type);
  }
  return types;
}

/// `node` with its attributes' placeholders ("$T" in TensorFlow's text,
/// AttrValue.placeholder) replaced by the instance's `types`.
static tf::NodeDef substitute(const tf::NodeDef &node,
                              const std::map<std::string, tf::DataType> &types) {
  tf::NodeDef copy = node;
  for (auto &[key, value] : *copy.mutable_attr()) {
    if (value.value_case() != tf::AttrValue::kPlaceholder)
      continue;
    auto it = types.find(value.placeholder());
    if (it != types.end())
      value.set_type(it->second);
  }
  return copy;
}

/// The TensorFlow dtype of an element type of the dialect.
static std::optional<tf::DataType> dataTypeOf(Type type) {
  if (type.isF32())
    return tf::DT_FLOAT;
  if (type.isF64())
    return tf::DT_DOUBLE;
  if (type.isF16())
    return tf::DT_HALF;
  if (type.isBF16())
    return tf::DT_BFLOAT16;
  if (type.isInteger(1))
    return tf::DT_BOOL;
  if (type.isInteger(32))
    return tf::DT_INT32;
  if (type.isInteger(64))
    return tf::DT_INT64;
  return std::nullopt;
}

FailureOr<func::FuncOp> ModuleImporter::instantiate(StringRef name,
                                                    TypeRange argTypes,
                                                    Location loc) {
  const tf::FunctionDef *f = library.lookup(name);
  if (!f)
    return emitError(loc) << "no function '" << name << "' in the library";
  if (inProgress.contains(name))
    return emitError(loc) << "function '" << name
                          << "' calls itself (recursion is not supported)";
  // One instance per argument types (a function called with other shapes,
  // or a polymorphic one with other dtypes, is imported again).
  SmallVector<func::FuncOp> &instances = instantiated[name];
  for (func::FuncOp done : instances)
    if (TypeRange(done.getFunctionType().getInputs()) == argTypes)
      return done;
  const tf::OpDef &signature = f->signature();
  if (int(argTypes.size()) != signature.input_arg_size())
    return emitError(loc) << "function '" << name << "' takes "
                          << signature.input_arg_size() << " arguments, got "
                          << argTypes.size();
  // Polymorphic arguments (type_attr) take their dtype from the call.
  std::map<std::string, tf::DataType> typeAttrs;
  for (auto [i, arg] : llvm::enumerate(signature.input_arg())) {
    if (!arg.number_attr().empty() || !arg.type_list_attr().empty())
      return emitError(loc) << "function '" << name << "' argument '"
                            << arg.name()
                            << "' is a list (number_attr/type_list_attr: "
                               "not supported)";
    auto tensor = dyn_cast<RankedTensorType>(argTypes[i]);
    if (!arg.type_attr().empty()) {
      std::optional<tf::DataType> dtype =
          tensor ? dataTypeOf(tensor.getElementType()) : std::nullopt;
      if (!dtype)
        return emitError(loc) << "function '" << name << "' argument '"
                              << arg.name() << "' (" << arg.type_attr()
                              << ") must be a tensor, got " << argTypes[i];
      auto [it, inserted] = typeAttrs.insert({arg.type_attr(), *dtype});
      if (!inserted && it->second != *dtype)
        return emitError(loc)
               << "function '" << name << "' argument '" << arg.name()
               << "' is " << arg.type_attr() << " = "
               << tf::DataType_Name(it->second) << " (an earlier argument), got "
               << argTypes[i];
      continue;
    }
    bool matches;
    if (arg.type() == tf::DT_RESOURCE) {
      matches = isa<trace::ResourceType>(argTypes[i]);
    } else {
      FailureOr<Type> declared = convertDataType(arg.type(), context, loc);
      if (failed(declared))
        return failure();
      matches = tensor && tensor.getElementType() == *declared;
    }
    if (!matches)
      return emitError(loc) << "function '" << name << "' argument '"
                            << arg.name() << "' is "
                            << tf::DataType_Name(arg.type()) << ", got "
                            << argTypes[i];
  }
  inProgress.insert(name);

  // The instance's name: the function's for the first; then its type
  // attributes' dtypes, or a number.
  std::string symbol = name.str();
  if (!instances.empty() || module->lookupSymbol(symbol)) {
    std::string base = symbol;
    for (auto &[attr, dtype] : typeAttrs) {
      std::string dtypeName = tf::DataType_Name(dtype);
      base += "_" + StringRef(dtypeName).drop_front(3).lower();
    }
    symbol = base;
    for (unsigned n = 1; module->lookupSymbol(symbol); ++n)
      symbol = base + "_" + std::to_string(n);
  }
  // The body, with the type attributes' placeholders bound.
  std::vector<tf::NodeDef> bound;
  if (!typeAttrs.empty()) {
    bound.reserve(f->node_def_size());
    for (const tf::NodeDef &node : f->node_def())
      bound.push_back(substitute(node, typeAttrs));
  }
  std::vector<const tf::NodeDef *> nodes;
  if (typeAttrs.empty())
    for (const tf::NodeDef &node : f->node_def())
      nodes.push_back(&node);
  else
    for (const tf::NodeDef &node : bound)
      nodes.push_back(&node);
  BodyImporter body(*this, symbol, /*isFunctionDef=*/true, nodes);
  if (failed(body.index()))
    return failure();
  Location funcLoc = NameLoc::get(StringAttr::get(context, name));
  func::FuncOp func = body.create(funcLoc, argTypes);
  func.setPrivate();
  instances.push_back(func);
  for (auto [i, arg] : llvm::enumerate(signature.input_arg()))
    body.nameArgument(arg.name(), i);
  // Outputs in signature order; control outputs by their node.
  std::vector<std::string> outputNames, controlNodes, roots;
  for (const auto &arg : signature.output_arg()) {
    auto it = f->ret().find(arg.name());
    if (it == f->ret().end())
      return emitError(funcLoc) << "function '" << name << "' returns no '"
                                << arg.name() << "' (missing from 'ret')";
    outputNames.push_back(it->second);
  }
  for (const std::string &control : signature.control_output()) {
    auto it = f->control_ret().find(control);
    if (it == f->control_ret().end())
      return emitError(funcLoc) << "function '" << name
                                << "' has no control_ret '" << control << "'";
    controlNodes.push_back(it->second);
  }
  if (failed(body.order(nullptr)) || failed(body.build()))
    return failure();
  SmallVector<Value> results;
  for (const std::string &ref : outputNames) {
    FailureOr<Value> value = body.resolveResult(ref, funcLoc);
    if (failed(value))
      return failure();
    results.push_back(*value);
  }
  if (failed(body.finish(results, controlNodes, funcLoc)))
    return failure();
  inProgress.erase(name);
  return func;
}

LogicalResult ModuleImporter::importLibrary() {
  for (const tf::FunctionDef &f : graph.library().function()) {
    StringRef name = f.signature().name();
    if (instantiated.count(name))
      continue;
    Location loc = NameLoc::get(StringAttr::get(context, name));
    if (llvm::any_of(f.signature().input_arg(), [](const tf::OpDef::ArgDef &a) {
          return !a.type_attr().empty() || !a.number_attr().empty() ||
                 !a.type_list_attr().empty();
        })) {
      emitWarning(loc) << "function '" << name
                       << "' is polymorphic (type attributes) and not "
                          "called: not imported";
      continue;
    }
    FailureOr<SmallVector<Type>> types = declaredArgTypes(f, loc);
    if (failed(types)) {
      emitWarning(loc) << "function '" << name
                       << "' is not called and its argument shapes are not "
                          "declared (_input_shapes, or arg_attr "
                          "_output_shapes): not imported";
      continue;
    }
    if (failed(instantiate(name, *types, loc)))
      return failure();
  }
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
