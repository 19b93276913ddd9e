//===- EntryPoints.cpp - The functions an AOT-compiled model exports ------===//

#include "tracec/AOT/EntryPoints.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "tracec/Dialect/Trace/IR/TraceDialect.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace tracec;
using namespace tracec::aot;

/// Unique C identifiers for `names`; an empty, numeric (`%0`) or repeated
/// name becomes "<fallback><i>".
static std::vector<std::string> uniqueNames(llvm::ArrayRef<std::string> names,
                                            llvm::StringRef fallback) {
  std::vector<std::string> ids;
  llvm::StringSet<> seen;
  for (auto [i, name] : llvm::enumerate(names)) {
    std::string id = toCIdentifier(name, fallback);
    if (name.empty() || llvm::isDigit(name.front()) || seen.contains(id))
      id = fallback.str() + std::to_string(i);
    seen.insert(id);
    ids.push_back(id);
  }
  return ids;
}

/// Arguments and results may have dynamic dims (the C function takes them,
/// the shape function computes the results'); a variable is one buffer of
/// the model, allocated once, so its shape is static.
static LogicalResult checkStaticVariables(func::FuncOp func) {
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    auto resource = dyn_cast<trace::ResourceType>(type);
    if (!resource)
      continue;
    auto shaped = dyn_cast<ShapedType>(resource.getValueType());
    if (!shaped || shaped.hasStaticShape())
      continue;
    std::string text;
    llvm::raw_string_ostream(text) << type;
    return func.emitError()
           << "entry @" << func.getSymName() << ": argument " << i
           << " is a variable of type " << text
           << " with dynamic dims; a variable's shape must be static";
  }
  return success();
}

static FailureOr<EntryPoint> entryPointOf(func::FuncOp func,
                                          llvm::StringRef prefix,
                                          const ArgumentNames &argNames) {
  if (func.isExternal())
    return func.emitError() << "entry @" << func.getSymName()
                            << " is a declaration, with no body to compile";
  if (failed(checkStaticVariables(func)))
    return failure();
  auto signature = signatureOf(func);
  if (!signature)
    return func.emitError() << "entry @" << func.getSymName()
                            << " cannot be called from the host: "
                            << llvm::toString(signature.takeError());

  EntryPoint entry;
  entry.signature = std::move(*signature);
  entry.symbol = prefix.str() + "_" + toCIdentifier(func.getSymName());
  auto names = argNames.find(func.getSymName());
  std::vector<std::string> sourceNames(func.getNumArguments());
  if (names != argNames.end() && names->second.size() == sourceNames.size())
    sourceNames = names->second;
  // A `trace.name` (what Python's tracing and GraphDef import set) wins
  // over the source's SSA name (%arg0 when the module was printed).
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (auto name = func.getArgAttrOfType<StringAttr>(i, "trace.name"))
      sourceNames[i] = name.str();
  entry.argNames = uniqueNames(sourceNames, "arg");
  std::vector<std::string> resultNames;
  for (unsigned i = 0; i < func.getNumResults(); ++i) {
    auto name = func.getResultAttrOfType<StringAttr>(i, "trace.name");
    resultNames.push_back(name ? name.str() : "");
  }
  entry.resultNames = uniqueNames(resultNames, "result");
  return entry;
}

/// "@a, @b": the functions the host could call.
static std::string publicFunctions(ModuleOp module) {
  std::string list;
  for (auto func : module.getOps<func::FuncOp>())
    if (func.isPublic() && !func.isExternal())
      list += (list.empty() ? "@" : ", @") + func.getSymName().str();
  return list;
}

FailureOr<std::vector<EntryPoint>> tracec::aot::collectEntryPoints(
    ModuleOp module, llvm::ArrayRef<std::string> names, llvm::StringRef prefix,
    const ArgumentNames &argNames) {
  std::vector<EntryPoint> entries;
  llvm::StringSet<> seen;
  for (const std::string &name : names) {
    auto func = module.lookupSymbol<func::FuncOp>(name);
    if (!func || func.isPrivate()) {
      std::string known = publicFunctions(module);
      return emitError(module.getLoc())
             << "no public function @" << name << " to export"
             << (known.empty() ? std::string(" (the module has none)")
                               : " (the module has " + known + ")");
    }
    if (!seen.insert(name).second)
      return func.emitError() << "entry @" << name << " is given twice";
    auto entry = entryPointOf(func, prefix, argNames);
    if (failed(entry))
      return failure();
    entries.push_back(std::move(*entry));
  }

  // A variable is one buffer for all entries: its type must agree.
  llvm::StringMap<std::pair<const EntryPoint *, TensorSpec>> variables;
  for (const EntryPoint &entry : entries) {
    for (auto [spec, name] :
         llvm::zip(entry.signature.inputs, entry.argNames)) {
      if (!spec.isVariable)
        continue;
      auto [it, inserted] = variables.try_emplace(name, &entry, spec);
      if (inserted || it->second.second.str() == spec.str())
        continue;
      auto func = module.lookupSymbol<func::FuncOp>(entry.signature.name);
      return func.emitError()
             << "variable '" << name << "' is " << spec.str() << " in @"
             << entry.signature.name << " but " << it->second.second.str()
             << " in @" << it->second.first->signature.name
             << " (arguments with the same name are the same variable)";
    }
  }
  return entries;
}

std::vector<ModelVariable>
tracec::aot::variablesOf(llvm::ArrayRef<EntryPoint> entries) {
  std::vector<ModelVariable> variables;
  llvm::StringSet<> seen;
  for (const EntryPoint &entry : entries)
    for (auto [spec, name] : llvm::zip(entry.signature.inputs, entry.argNames))
      if (spec.isVariable && seen.insert(name).second)
        variables.push_back({name, spec});
  return variables;
}
