//===- BodyImporter.cpp - One graph or FunctionDef body into a func.func --===//
//
// Orders the nodes, builds each through its op mapping, threads control
// tokens, and reads TF1 references (see Importer.h).
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

FailureOr<TensorRef> graphdef::parseRef(StringRef text) {
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

bool graphdef::isArgumentNode(StringRef op) {
  return op == "Placeholder" || op == "_Arg";
}

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
      if (!mapping->takesResources)
        for (auto [i, input] : llvm::enumerate(inputs))
          if (isa<trace::ResourceType>(input.getType()))
            return b.error() << "input " << i << " is a variable's "
                             << "resource handle, and " << node->op()
                             << " takes tensors (read it first: "
                                "ReadVariableOp)";
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

