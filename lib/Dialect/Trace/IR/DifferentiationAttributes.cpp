//===- DifferentiationAttributes.cpp - custom_vjp, custom_jvp, checkpoint -===//

#include "tracec/Dialect/Trace/IR/DifferentiationAttributes.h"

#include "tracec/Dialect/Trace/IR/DifferentiableOpInterface.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::trace;

std::optional<RematPolicy> mlir::trace::parseRematPolicy(StringRef name) {
  return llvm::StringSwitch<std::optional<RematPolicy>>(name)
      .Case("nothing", RematPolicy::nothing)
      .Case("contractions", RematPolicy::contractions)
      .Case("everything", RematPolicy::everything)
      .Default(std::nullopt);
}

StringRef mlir::trace::stringifyRematPolicy(RematPolicy policy) {
  switch (policy) {
  case RematPolicy::nothing:
    return "nothing";
  case RematPolicy::contractions:
    return "contractions";
  case RematPolicy::everything:
    return "everything";
  }
  llvm_unreachable("unknown RematPolicy");
}

std::optional<CustomVjp> mlir::trace::getCustomVjp(func::FuncOp f) {
  auto dict = f->getAttrOfType<DictionaryAttr>(kCustomVjpAttrName);
  if (!dict)
    return std::nullopt;
  auto fwd = dict.getAs<FlatSymbolRefAttr>("fwd");
  auto bwd = dict.getAs<FlatSymbolRefAttr>("bwd");
  if (!fwd || !bwd)
    return std::nullopt;
  CustomVjp vjp{SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(f, fwd),
                SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(f, bwd)};
  if (!vjp.forward || !vjp.backward)
    return std::nullopt;
  return vjp;
}

func::FuncOp mlir::trace::getCustomJvp(func::FuncOp f) {
  auto ref = f->getAttrOfType<FlatSymbolRefAttr>(kCustomJvpAttrName);
  if (!ref)
    return {};
  return SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(f, ref);
}

std::optional<RematPolicy> mlir::trace::getCheckpointPolicy(func::FuncOp f) {
  Attribute attr = f->getAttr(kCheckpointAttrName);
  if (!attr)
    return std::nullopt;
  if (auto name = dyn_cast<StringAttr>(attr))
    return parseRematPolicy(name.getValue());
  return RematPolicy::nothing;
}

bool mlir::trace::savesResultsOf(Operation *op, RematPolicy policy) {
  switch (policy) {
  case RematPolicy::nothing:
    return false;
  case RematPolicy::contractions:
    return op->hasTrait<OpTrait::trace::Contraction>();
  case RematPolicy::everything:
    return true;
  }
  llvm_unreachable("unknown RematPolicy");
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

/// The function `name` of trace.custom_vjp's `role` (fwd or bwd).
static FailureOr<func::FuncOp> lookupCustom(func::FuncOp f,
                                            DictionaryAttr dict,
                                            StringRef role) {
  auto ref = dict.getAs<FlatSymbolRefAttr>(role);
  if (!ref)
    return f.emitOpError("'")
           << kCustomVjpAttrName << "' needs '" << role
           << "' = a function symbol (like {fwd = @f_fwd, bwd = @f_bwd}), got "
           << dict;
  auto fn = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(f, ref);
  if (!fn)
    return f.emitOpError("'")
           << kCustomVjpAttrName << "' " << role << " " << ref
           << " is not a function in the module";
  if (fn == f)
    return f.emitOpError("'")
           << kCustomVjpAttrName << "' " << role << " " << ref
           << " is the function itself";
  return fn;
}

static LogicalResult verifyCustomVjp(func::FuncOp f, Attribute attr) {
  auto dict = dyn_cast<DictionaryAttr>(attr);
  if (!dict)
    return f.emitOpError("'")
           << kCustomVjpAttrName
           << "' must be a dictionary {fwd = @f_fwd, bwd = @f_bwd}, got "
           << attr;
  for (NamedAttribute entry : dict)
    if (entry.getName() != "fwd" && entry.getName() != "bwd")
      return f.emitOpError("'") << kCustomVjpAttrName << "' has an unknown key '"
                                << entry.getName().getValue()
                                << "' (expected fwd and bwd)";
  FailureOr<func::FuncOp> fwd = lookupCustom(f, dict, "fwd");
  if (failed(fwd))
    return failure();
  FailureOr<func::FuncOp> bwd = lookupCustom(f, dict, "bwd");
  if (failed(bwd))
    return failure();
  StringRef name = f.getSymName();
  FunctionType type = f.getFunctionType();

  // fwd: f's arguments -> f's results, then the residuals.
  FunctionType fwdType = fwd->getFunctionType();
  auto fwdError = [&]() {
    return f.emitOpError("'")
           << kCustomVjpAttrName << "' fwd @" << fwd->getSymName() << " ";
  };
  if (fwdType.getInputs() != type.getInputs())
    return fwdError() << "must take the arguments of @" << name << " "
                      << type.getInputs() << ", but takes "
                      << fwdType.getInputs();
  if (fwdType.getNumResults() < type.getNumResults())
    return fwdError() << "must return the " << type.getNumResults()
                      << " results of @" << name
                      << " then the residuals, but returns "
                      << fwdType.getNumResults() << " results";
  for (auto [i, expected] : llvm::enumerate(type.getResults()))
    if (fwdType.getResult(i) != expected)
      return fwdError() << "result " << i << " is " << fwdType.getResult(i)
                        << ", but result " << i << " of @" << name << " is "
                        << expected;
  ArrayRef<Type> residuals =
      fwdType.getResults().drop_front(type.getNumResults());

  // bwd: the residuals, then one cotangent per float result of f -> one
  // cotangent per float argument of f.
  SmallVector<Type> expectedInputs(residuals);
  SmallVector<unsigned> cotangentResults;
  for (auto [i, result] : llvm::enumerate(type.getResults()))
    if (carriesGradient(result)) {
      expectedInputs.push_back(cotangentType(result));
      cotangentResults.push_back(i);
    }
  SmallVector<Type> expectedResults;
  SmallVector<unsigned> cotangentArgs;
  for (auto [i, arg] : llvm::enumerate(type.getInputs()))
    if (carriesGradient(arg)) {
      expectedResults.push_back(cotangentType(arg));
      cotangentArgs.push_back(i);
    }
  FunctionType bwdType = bwd->getFunctionType();
  auto bwdError = [&]() {
    return f.emitOpError("'")
           << kCustomVjpAttrName << "' bwd @" << bwd->getSymName() << " ";
  };
  if (bwdType.getNumInputs() != expectedInputs.size())
    return bwdError() << "must take the " << residuals.size()
                      << " residuals of fwd @" << fwd->getSymName()
                      << " then one cotangent per float result of @" << name
                      << " (" << cotangentResults.size()
                      << "), but takes " << bwdType.getNumInputs()
                      << " arguments";
  for (auto [i, expected] : llvm::enumerate(expectedInputs)) {
    if (bwdType.getInput(i) == expected)
      continue;
    InFlightDiagnostic diag = bwdError()
                              << "argument " << i << " is "
                              << bwdType.getInput(i) << ", but ";
    if (i < residuals.size())
      return diag << "residual " << i << " of fwd @" << fwd->getSymName()
                  << " (its result " << type.getNumResults() + i << ") is "
                  << expected;
    return diag << "the cotangent of result "
                << cotangentResults[i - residuals.size()] << " of @" << name
                << " is " << expected;
  }
  if (bwdType.getNumResults() != expectedResults.size())
    return bwdError() << "must return one cotangent per float argument of @"
                      << name << " (" << expectedResults.size()
                      << "), but returns " << bwdType.getNumResults();
  for (auto [i, expected] : llvm::enumerate(expectedResults))
    if (bwdType.getResult(i) != expected)
      return bwdError() << "result " << i << " is " << bwdType.getResult(i)
                        << ", but the cotangent of argument " << cotangentArgs[i]
                        << " of @" << name << " is " << expected;
  return success();
}

static LogicalResult verifyCustomJvp(func::FuncOp f, Attribute attr) {
  auto ref = dyn_cast<FlatSymbolRefAttr>(attr);
  if (!ref)
    return f.emitOpError("'") << kCustomJvpAttrName
                              << "' must be a function symbol (like @f_jvp), "
                                 "got "
                              << attr;
  auto rule = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(f, ref);
  if (!rule)
    return f.emitOpError("'") << kCustomJvpAttrName << "' " << ref
                              << " is not a function in the module";
  if (rule == f)
    return f.emitOpError("'") << kCustomJvpAttrName << "' " << ref
                              << " is the function itself";
  // (f's arguments..., tangents of its float arguments) -> (f's results...,
  // tangents of its float results)
  FunctionType type = f.getFunctionType();
  SmallVector<Type> inputs(type.getInputs()), results(type.getResults());
  for (Type input : type.getInputs())
    if (carriesTangent(input))
      inputs.push_back(input);
  for (Type result : type.getResults())
    if (carriesTangent(result))
      results.push_back(result);
  FunctionType expected = FunctionType::get(f.getContext(), inputs, results);
  if (rule.getFunctionType() != expected)
    return f.emitOpError("'")
           << kCustomJvpAttrName << "' " << ref << " must have the type "
           << expected << " (the arguments of @" << f.getSymName()
           << ", then one tangent per float argument, to its results, then "
              "one tangent per float result), but has "
           << rule.getFunctionType();
  return success();
}

static LogicalResult verifyCheckpoint(func::FuncOp f, Attribute attr) {
  if (isa<UnitAttr>(attr))
    return success();
  auto name = dyn_cast<StringAttr>(attr);
  if (!name || !parseRematPolicy(name.getValue()))
    return f.emitOpError("'")
           << kCheckpointAttrName
           << "' must be a unit attribute or one of the policies \"nothing\", "
              "\"contractions\", \"everything\", got "
           << attr;
  return success();
}

LogicalResult
mlir::trace::verifyDifferentiationAttribute(Operation *op,
                                            NamedAttribute attribute) {
  StringRef name = attribute.getName().getValue();
  if (name != kCustomVjpAttrName && name != kCustomJvpAttrName &&
      name != kCheckpointAttrName)
    return success();
  auto f = dyn_cast<func::FuncOp>(op);
  if (!f)
    return op->emitError("'") << name << "' is an attribute of func.func, not of '"
                              << op->getName() << "'";
  if (name == kCustomVjpAttrName)
    return verifyCustomVjp(f, attribute.getValue());
  if (name == kCustomJvpAttrName)
    return verifyCustomJvp(f, attribute.getValue());
  return verifyCheckpoint(f, attribute.getValue());
}
