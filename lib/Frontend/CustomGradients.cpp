//===- CustomGradients.cpp - customGradient and checkpoint ----------------===//
//
// customGradient traces f into @name_fwd and, inside it, f's gradFn into
// @name_bwd: the Values of @name_fwd that gradFn uses are lifted into
// @name_bwd as arguments (as a grad callee lifts the Values of its caller),
// and those are exactly the residuals @name_fwd returns after f's results.
// @name, what the call site calls, runs @name_fwd and returns f's results.
//
//===----------------------------------------------------------------------===//

#include "Tracer.h"

#include "tracec/Dialect/Trace/IR/DifferentiableOpInterface.h"
#include "tracec/Dialect/Trace/IR/DifferentiationAttributes.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "tracec/Frontend/Call.h"
#include "tracec/Frontend/CustomGradients.h"
#include "tracec/Frontend/Gradients.h"
#include "tracec/Frontend/Ops.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/ScopeExit.h"

using namespace tracec;
using namespace tracec::detail;
namespace trace = mlir::trace;

/// `base`, or `base_<n>`, whichever is first unused in the current trace.
static std::string freshSymbol(llvm::StringRef base) {
  TraceState *state = currentScope().function->trace;
  std::string symbol = base.str();
  for (unsigned n = 1;
       mlir::SymbolTable::lookupSymbolIn(*state->module, symbol) ||
       mlir::SymbolTable::lookupSymbolIn(*state->module, symbol + "_fwd") ||
       mlir::SymbolTable::lookupSymbolIn(*state->module, symbol + "_bwd") ||
       mlir::SymbolTable::lookupSymbolIn(*state->module, symbol + "_jvp") ||
       state->called.count(symbol);
       ++n)
    symbol = (base + "_" + llvm::Twine(n)).str();
  return symbol;
}

static std::string typeString(mlir::Type type) {
  auto tensor = llvm::cast<mlir::RankedTensorType>(type);
  return formatTensorType(dtypeOf(tensor.getElementType()), tensor.getShape());
}

/// A zero cotangent of `type` at the end of `block` (a constant: static
/// shapes only).
static mlir::Value zeroCotangent(mlir::OpBuilder &builder, mlir::Type type,
                                 llvm::StringRef what) {
  auto tensor = llvm::cast<mlir::RankedTensorType>(trace::cotangentType(type));
  if (!tensor.hasStaticShape())
    fail(locationPrefix(location()) + ": error: customGradient: " + what +
         " has the dynamic shape " + typeString(tensor) +
         "; its zero gradient needs a static shape");
  return trace::ConstantOp::create(
      builder, location(),
      mlir::DenseElementsAttr::get(
          tensor, builder.getZeroAttr(tensor.getElementType())));
}

/// Moves the last `count` arguments of `func`'s entry block to the front
/// and updates its type.
static void rotateArgumentsToFront(mlir::func::FuncOp func, unsigned count) {
  mlir::Block &entry = func.getBody().front();
  unsigned total = entry.getNumArguments();
  for (unsigned k = 0; k < count; ++k) {
    mlir::BlockArgument old = entry.getArgument(total - count + k + k);
    mlir::BlockArgument moved =
        entry.insertArgument(k, old.getType(), old.getLoc());
    old.replaceAllUsesWith(moved);
  }
  entry.eraseArguments(total, count);
  func.setType(mlir::FunctionType::get(func.getContext(),
                                       entry.getArgumentTypes(),
                                       func.getResultTypes()));
}

Callable tracec::customGradient(CustomGradientFn f, std::string name) {
  return [f = std::move(f), name](llvm::ArrayRef<Value> args) {
    FunctionState *caller = currentScope().function;
    llvm::SmallVector<mlir::Value> operands;
    for (const Value &arg : args)
      operands.push_back(resolve(arg));
    llvm::SmallVector<mlir::Type> types(mlir::ValueRange(operands).getTypes());
    std::string symbol = freshSymbol(name.empty() ? "custom_gradient" : name);

    mlir::func::FuncOp bwd;
    unsigned numOutputs = 0;
    unsigned numResiduals = 0;
    auto fwdBody = [&](llvm::ArrayRef<Value> inputs) -> std::vector<Value> {
      CustomGradientResult result = f(inputs);
      for (auto [i, output] : llvm::enumerate(result.outputs))
        if (!output)
          fail(locationPrefix(location()) +
               ": error: customGradient: the function returned a null "
               "tracec::Value as output " +
               llvm::Twine(i));
      if (!result.gradFn)
        fail(locationPrefix(location()) +
             ": error: customGradient: the function returned no gradient "
             "function");
      numOutputs = result.outputs.size();
      llvm::SmallVector<mlir::Type> cotangentTypes;
      for (const Value &output : result.outputs) {
        mlir::Type type = resolve(output).getType();
        if (trace::carriesGradient(type))
          cotangentTypes.push_back(type);
      }
      std::vector<Value> inputValues(inputs.begin(), inputs.end());
      auto bwdBody = [&](llvm::ArrayRef<Value> dys) -> std::vector<Value> {
        std::vector<Value> cotangents = result.gradFn(dys);
        if (cotangents.size() != inputValues.size())
          fail(locationPrefix(location()) +
               ": error: customGradient: the gradient function returned " +
               llvm::Twine(cotangents.size()) +
               " cotangents for a function of " +
               llvm::Twine(inputValues.size()) +
               " arguments (one per argument; a null Value is zero)");
        std::vector<Value> grads;
        mlir::OpBuilder builder(&context());
        builder.setInsertionPointToEnd(currentScope().block);
        for (auto [i, input] : llvm::enumerate(inputValues)) {
          mlir::Type type = types[i];
          if (!trace::carriesGradient(type))
            continue;
          std::string what = "the cotangent of argument " + std::to_string(i);
          if (!cotangents[i]) {
            grads.push_back(wrap(zeroCotangent(builder, type, what)));
            continue;
          }
          auto expected = llvm::cast<mlir::RankedTensorType>(type);
          mlir::Type got = resolve(cotangents[i]).getType();
          if (llvm::cast<mlir::RankedTensorType>(got).getShape() !=
              expected.getShape())
            fail(locationPrefix(location()) + ": error: customGradient: " +
                 what + " is a " + typeString(got) + ", but the argument is a " +
                 typeString(expected));
          grads.push_back(
              castTo(cotangents[i], dtypeOf(expected.getElementType())));
        }
        return grads;
      };
      TracedCallee traced = traceCallee(symbol + "_bwd", cotangentTypes,
                                        bwdBody, {}, "the gradient function");
      bwd = traced.func;
      std::vector<Value> returned = result.outputs;
      for (const ExtraArgument &extra : traced.extras) {
        if (extra.variable)
          fail(locationPrefix(location()) +
               ": error: customGradient: the gradient function uses a "
               "variable; read it in the function and use the value read");
        returned.push_back(wrap(extra.outer));
      }
      numResiduals = traced.extras.size();
      // bwd(cotangents..., residuals...) -> bwd(residuals..., cotangents...)
      rotateArgumentsToFront(bwd, numResiduals);
      return returned;
    };
    TracedCallee fwd = traceCallee(symbol + "_fwd", types, fwdBody, {},
                                   "the function with a custom gradient");

    // The arguments the forward function added (values of the caller,
    // host tensors, variables) get zero cotangents.
    mlir::func::FuncOp fwdFunc = fwd.func;
    {
      auto ret = llvm::cast<mlir::func::ReturnOp>(
          bwd.getBody().front().getTerminator());
      mlir::OpBuilder builder(ret);
      llvm::SmallVector<mlir::Value> grads(ret.getOperands());
      for (auto [k, extra] : llvm::enumerate(fwd.extras)) {
        mlir::Type type = fwdFunc.getArgumentTypes()[types.size() + k];
        if (trace::carriesGradient(type))
          grads.push_back(zeroCotangent(
              builder, type, "the captured value " + std::to_string(k)));
      }
      ret->setOperands(grads);
      bwd.setType(mlir::FunctionType::get(&context(), bwd.getArgumentTypes(),
                                          mlir::ValueRange(grads).getTypes()));
    }

    // @name: the primal, what the call site calls.
    mlir::FunctionType fwdType = fwdFunc.getFunctionType();
    mlir::OpBuilder builder(&context());
    builder.setInsertionPoint(caller->func);
    auto primal = mlir::func::FuncOp::create(
        builder, location(), symbol,
        builder.getFunctionType(fwdType.getInputs(),
                                fwdType.getResults().take_front(numOutputs)));
    primal.setPrivate();
    {
      mlir::Block *entry = primal.addEntryBlock();
      mlir::OpBuilder b = mlir::OpBuilder::atBlockEnd(entry);
      auto call = mlir::func::CallOp::create(b, location(), fwdFunc,
                                             entry->getArguments());
      mlir::func::ReturnOp::create(
          b, location(), call.getResults().take_front(numOutputs));
    }
    primal->setAttr(
        trace::kCustomVjpAttrName,
        builder.getDictionaryAttr(
            {builder.getNamedAttr("fwd", mlir::FlatSymbolRefAttr::get(fwdFunc)),
             builder.getNamedAttr("bwd", mlir::FlatSymbolRefAttr::get(bwd))}));
    verifyOrFail(primal);

    for (const ExtraArgument &extra : fwd.extras)
      operands.push_back(extra.outer);
    mlir::NamedAttribute attrs[] = {builder.getNamedAttr(
        "callee", mlir::FlatSymbolRefAttr::get(primal.getSymNameAttr()))};
    mlir::Operation *op =
        createOp(mlir::func::CallOp::getOperationName(), operands, attrs,
                 llvm::ArrayRef<mlir::Type>(primal.getResultTypes()));
    std::vector<Value> values;
    for (mlir::Value result : op->getResults())
      values.push_back(wrap(result));
    return values;
  };
}

namespace {
/// A jvp rule being traced, for callRulesFunction: for forward mode, its
/// function and the values the rule passes for that function's captured
/// arguments (its own arguments for them); transposed, the Callable.
struct RuleOf {
  mlir::func::FuncOp function;
  std::vector<Value> captured;
  const Callable *f = nullptr;
};
thread_local std::vector<RuleOf> rulesBeingTraced;
} // namespace

/// jvpFn(inputs), checked against the function's output types `outputs`:
/// its outputs, then one tangent per floating-point one (cast to its
/// dtype).
static std::vector<Value> callRule(const Callable &jvpFn,
                                   llvm::ArrayRef<Value> inputs,
                                   llvm::ArrayRef<mlir::Type> outputs) {
  std::string what = locationPrefix(location()) + ": error: customJvp: ";
  llvm::SmallVector<mlir::Type> expected(outputs);
  for (mlir::Type output : outputs)
    if (trace::carriesTangent(output))
      expected.push_back(output);
  std::vector<Value> out = jvpFn(inputs);
  if (out.size() != expected.size())
    fail(what + "the jvp rule returned " + llvm::Twine(out.size()) +
         " values; the function has " + llvm::Twine(outputs.size()) +
         " outputs and " + llvm::Twine(expected.size() - outputs.size()) +
         " floating-point ones (their tangents follow the outputs)");
  for (auto [i, value] : llvm::enumerate(out)) {
    bool tangent = i >= outputs.size();
    std::string which = (tangent ? "tangent of output " : "output ") +
                        std::to_string(tangent ? i - outputs.size() : i);
    if (!value)
      fail(what + "the jvp rule returned a null tracec::Value as its " +
           which);
    auto want = llvm::cast<mlir::RankedTensorType>(expected[i]);
    mlir::Type got = resolve(value).getType();
    if (llvm::cast<mlir::RankedTensorType>(got).getShape() != want.getShape())
      fail(what + "the jvp rule's " + which + " is a " + typeString(got) +
           ", but the function's is a " + typeString(want));
    out[i] = castTo(value, dtypeOf(want.getElementType()));
  }
  return out;
}

/// The cotangents of `primals` (null for non-float ones) given the
/// cotangents `dys` of the float outputs: the vjp of the rule's tangent
/// map, which is linear, at zero tangents (JAX's transposition of a JVP).
static std::vector<Value>
transposedRule(const Callable &f, const Callable &jvpFn,
               const std::vector<Value> &primals,
               llvm::ArrayRef<mlir::Type> outputs, llvm::ArrayRef<Value> dys) {
  std::vector<Value> zeros;
  std::vector<size_t> floats;
  GradOptions options;
  options.argnums.clear();
  for (auto [i, primal] : llvm::enumerate(primals))
    if (isFloat(primal.dtype())) {
      options.argnums.push_back(zeros.size());
      zeros.push_back(zeros_like(primal));
      floats.push_back(i);
    }
  std::vector<Value> cotangents(primals.size());
  if (zeros.empty() || dys.empty())
    return cotangents;
  Callable tangentMap = [&](llvm::ArrayRef<Value> tangents) {
    std::vector<Value> inputs = primals;
    inputs.insert(inputs.end(), tangents.begin(), tangents.end());
    rulesBeingTraced.push_back({{}, {}, &f});
    auto done = llvm::make_scope_exit([] { rulesBeingTraced.pop_back(); });
    std::vector<Value> out = callRule(jvpFn, inputs, outputs);
    return std::vector<Value>(out.begin() + outputs.size(), out.end());
  };
  std::vector<Value> out = vjp(tangentMap, zeros, dys, options);
  for (auto [k, i] : llvm::enumerate(floats))
    cotangents[i] = out[dys.size() + k];
  return cotangents;
}

Callable tracec::customJvp(Callable f, Callable jvpFn, std::string name) {
  return [f = std::move(f), jvpFn = std::move(jvpFn),
          name](llvm::ArrayRef<Value> args) {
    Callable withGradient = customGradient(
        [&](llvm::ArrayRef<Value> inputs) {
          std::vector<Value> primals(inputs.begin(), inputs.end());
          CustomGradientResult result{f(inputs), {}};
          std::vector<mlir::Type> outputs;
          for (const Value &output : result.outputs)
            outputs.push_back(output ? resolve(output).getType() : nullptr);
          result.gradFn = [primals, f = f, jvpFn = jvpFn,
                           outputs](llvm::ArrayRef<Value> dys) {
            return transposedRule(f, jvpFn, primals, outputs, dys);
          };
          return result;
        },
        name.empty() ? "custom_jvp" : name);
    std::vector<Value> results = withGradient(args);
    setCustomJvp(results, args.size(), jvpFn);
    return results;
  };
}

std::vector<Value> tracec::callRulesFunction(llvm::ArrayRef<Value> args) {
  if (rulesBeingTraced.empty())
    fail("customJvp: callRulesFunction outside a jvp rule");
  RuleOf rule = rulesBeingTraced.back();
  if (rule.f)
    return (*rule.f)(args);
  std::string what = locationPrefix(location()) + ": error: customJvp: ";
  mlir::FunctionType type = rule.function.getFunctionType();
  llvm::SmallVector<mlir::Value> operands;
  for (const Value &arg : args)
    operands.push_back(resolve(arg));
  for (const Value &captured : rule.captured)
    operands.push_back(resolve(captured));
  if (mlir::ValueRange(operands).getTypes() != type.getInputs())
    fail(what + "the jvp rule calls its function with arguments of other "
         "types than the call it is the rule of");
  mlir::OpBuilder builder(&context());
  mlir::NamedAttribute attrs[] = {builder.getNamedAttr(
      "callee", mlir::FlatSymbolRefAttr::get(rule.function.getSymNameAttr()))};
  mlir::Operation *op =
      createOp(mlir::func::CallOp::getOperationName(), operands, attrs,
               llvm::ArrayRef<mlir::Type>(type.getResults()));
  std::vector<Value> values;
  for (mlir::Value result : op->getResults())
    values.push_back(wrap(result));
  return values;
}

void tracec::setCustomJvp(llvm::ArrayRef<Value> results, size_t numArgs,
                          const Callable &jvpFn) {
  std::string what = locationPrefix(location()) + ": error: customJvp: ";
  if (results.empty())
    fail(what + "the function returns nothing (a rule needs an output)");
  auto call = resolve(results[0]).getDefiningOp<mlir::func::CallOp>();
  mlir::ModuleOp module = *currentScope().function->trace->module;
  auto primal =
      call ? mlir::SymbolTable::lookupSymbolIn(module, call.getCalleeAttr())
           : nullptr;
  auto primalFunc = llvm::dyn_cast_or_null<mlir::func::FuncOp>(primal);
  if (!primalFunc || !trace::getCustomVjp(primalFunc))
    fail(what + "the values are not the results of a customGradient call");
  // The primal takes the arguments, then what the function captured (the
  // caller passes it): the rule gets the same, then the tangents.
  mlir::FunctionType type = primalFunc.getFunctionType();
  llvm::SmallVector<mlir::Type> inputs(type.getInputs());
  llvm::SmallVector<size_t> argTangents;
  for (auto [i, input] : llvm::enumerate(type.getInputs()))
    if (trace::carriesTangent(input)) {
      if (i < numArgs)
        argTangents.push_back(inputs.size() - type.getNumInputs());
      inputs.push_back(input);
    }
  auto body = [&](llvm::ArrayRef<Value> values) -> std::vector<Value> {
    std::vector<Value> ruleInputs(values.begin(), values.begin() + numArgs);
    for (size_t k : argTangents)
      ruleInputs.push_back(values[type.getNumInputs() + k]);
    rulesBeingTraced.push_back(
        {primalFunc,
         std::vector<Value>(values.begin() + numArgs,
                            values.begin() + type.getNumInputs()),
         nullptr});
    auto done = llvm::make_scope_exit([] { rulesBeingTraced.pop_back(); });
    return callRule(jvpFn, ruleInputs, type.getResults());
  };
  TracedCallee rule =
      traceCallee(primalFunc.getSymName().str() + "_jvp", inputs, body, {},
                  "the jvp rule");
  // What the rule uses of the caller is an input of the primal (the
  // transposed rule, traced in the forward function, used it too): the
  // rule's argument for it replaces the extra one. A host array captured
  // anew becomes a constant.
  mlir::Block &entry = rule.func.getBody().front();
  for (auto [k, extra] : llvm::enumerate(rule.extras)) {
    mlir::BlockArgument argument = entry.getArgument(inputs.size() + k);
    auto operands = call.getOperands();
    auto found = llvm::find(operands, extra.outer);
    if (extra.outer && found != operands.end()) {
      argument.replaceAllUsesWith(
          entry.getArgument(std::distance(operands.begin(), found)));
    } else if (extra.captured) {
      auto builder = mlir::OpBuilder::atBlockBegin(&entry);
      argument.replaceAllUsesWith(trace::ConstantOp::create(
          builder, rule.func.getLoc(), denseElements(*extra.captured)));
    } else {
      fail(what + "the jvp rule uses a value of the enclosing function (or "
           "a variable) that the function and its gradient do not: pass it "
           "as an argument");
    }
  }
  entry.eraseArguments(inputs.size(), rule.extras.size());
  rule.func.setType(mlir::FunctionType::get(
      &context(), inputs,
      entry.getTerminator()->getOperandTypes()));
  primalFunc->setAttr(trace::kCustomJvpAttrName,
                      mlir::FlatSymbolRefAttr::get(rule.func));
  verifyOrFail(primalFunc);
}

Callable tracec::checkpoint(Callable f, std::string policy, std::string name) {
  if (!trace::parseRematPolicy(policy))
    throw TraceError("checkpoint: unknown policy '" + policy +
                     "' (expected nothing, contractions or everything)");
  return [f = std::move(f), policy, name](llvm::ArrayRef<Value> args) {
    std::string symbol = freshSymbol(name.empty() ? "checkpoint" : name);
    std::vector<Value> results = call(symbol, args, f);
    mlir::ModuleOp module = *currentScope().function->trace->module;
    auto callee = mlir::SymbolTable::lookupSymbolIn(module, symbol);
    callee->setAttr(trace::kCheckpointAttrName,
                    mlir::StringAttr::get(&context(), policy));
    return results;
  };
}
