//===- FunctionLibrary.cpp - The graph's FunctionDefs, per argument types -===//
//
// A library function is instantiated once per argument types (its
// placeholder attributes, $T, bound to the call's dtypes), each instance
// its own func.func.
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

