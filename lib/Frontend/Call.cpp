//===- Call.cpp - func.call of functions traced once per trace ------------===//
//
// The callee is traced into a private func.func by traceCallee (as the
// callees of gradient ops are); what it added while it ran (variables,
// captured host tensors) becomes extra arguments, which each call site
// passes from its own function. A callee that lifted Values of the
// enclosing function is tied to the call site that traced it, so it is not
// reused.
//
//===----------------------------------------------------------------------===//

#include "Tracer.h"

#include "tracec/Frontend/Call.h"
#include "tracec/Frontend/State.h"

#include "mlir/IR/SymbolTable.h"

using namespace tracec;
using namespace tracec::detail;

static std::string typeList(mlir::TypeRange types) {
  std::string text;
  for (auto [i, type] : llvm::enumerate(types)) {
    auto tensor = llvm::cast<mlir::RankedTensorType>(type);
    text += (i ? ", " : "") +
            formatTensorType(dtypeOf(tensor.getElementType()),
                             tensor.getShape());
  }
  return "(" + text + ")";
}

/// The value of `variable` that a call with hoisted reads passes, read in
/// the caller now (just before the call).
static mlir::Value
readForCall(Variable &variable,
            std::vector<std::pair<Variable *, Value>> *reads) {
  Value value = read(variable);
  if (reads)
    reads->push_back({&variable, value});
  return resolve(value);
}

bool tracec::isTracedCallee(llvm::StringRef name) {
  return currentScope().function->trace->called.count(name) != 0;
}

std::vector<Value> tracec::call(llvm::StringRef name,
                                llvm::ArrayRef<Value> args,
                                const Callable &fn,
                                const CallOptions &options) {
  FunctionState *caller = currentScope().function;
  TraceState *trace = caller->trace;
  bool hoistReads = options.hoistReads || caller->hoistReads;
  if (name.empty() || !(std::isalpha(name[0]) || name[0] == '_'))
    fail(locationPrefix(location()) + ": error: call: function name '" + name +
         "' must start with a letter or '_'");
  llvm::SmallVector<mlir::Value> operands;
  for (const Value &arg : args)
    operands.push_back(resolve(arg));
  llvm::SmallVector<mlir::Type> types(mlir::ValueRange(operands).getTypes());

  CalledFunction fresh;
  CalledFunction *callee = nullptr;
  auto it = trace->called.find(name);
  if (it != trace->called.end()) {
    callee = &it->second;
    auto inputs = callee->func.getFunctionType().getInputs();
    auto expected = inputs.drop_back(callee->extras.size());
    if (mlir::TypeRange(expected) != mlir::TypeRange(types))
      fail(locationPrefix(location()) + ": error: call of @" +
           callee->func.getSymName() + " with arguments " + typeList(types) +
           ", but it was traced for " + typeList(expected));
    if (llvm::any_of(callee->extras, [&](const ExtraArgument &e) {
          return e.variable && e.readValue != hoistReads;
        }))
      fail(locationPrefix(location()) + ": error: call of @" +
           callee->func.getSymName() + (hoistReads ? " with" : " without") +
           " hoisted variable reads, but it was traced" +
           (hoistReads ? " without them" : " with them"));
    for (ExtraArgument &extra : callee->extras)
      operands.push_back(extra.readValue
                             ? readForCall(*extra.variable, options.reads)
                         : extra.variable ? variableArgument(*extra.variable)
                                          : captureArgument(*extra.captured));
  } else {
    std::string symbol = name.str();
    for (unsigned n = 1;
         mlir::SymbolTable::lookupSymbolIn(*trace->module, symbol); ++n)
      symbol = (name + "_" + llvm::Twine(n)).str();
    TracedCallee traced = traceCallee(symbol, types, fn, {},
                                      "the called function", hoistReads);
    fresh = {traced.func, std::move(traced.extras)};
    for (ExtraArgument &extra : fresh.extras)
      operands.push_back(extra.readValue
                             ? readForCall(*extra.variable, options.reads)
                             : extra.outer);
    bool reusable = llvm::all_of(fresh.extras, [](const ExtraArgument &e) {
      return e.variable || e.captured;
    });
    callee = reusable ? &(trace->called[name] = std::move(fresh)) : &fresh;
  }

  mlir::OpBuilder builder(&context());
  mlir::NamedAttribute attrs[] = {builder.getNamedAttr(
      "callee", mlir::FlatSymbolRefAttr::get(callee->func.getSymNameAttr()))};
  llvm::ArrayRef<mlir::Type> results =
      callee->func.getFunctionType().getResults();
  mlir::Operation *op = createOp(mlir::func::CallOp::getOperationName(),
                                 operands, attrs, results);
  std::vector<Value> values;
  for (mlir::Value result : op->getResults())
    values.push_back(wrap(result));
  return values;
}
