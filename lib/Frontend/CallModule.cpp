//===- CallModule.cpp - func.call of a function given as MLIR text --------===//
//
// A function that was written down rather than traced (an imported
// TensorFlow GraphDef) becomes a callee like any traced function: call()
// records its func.call and its extra arguments (variables), and the body
// it records is a copy of the given function's, its arguments mapped to
// the callee's. The functions the body calls (a GraphDef's library) are
// copied into the trace beside it, renamed so that they cannot collide.
//
//===----------------------------------------------------------------------===//

#include "Tracer.h"

#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "tracec/Frontend/Call.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"

using namespace tracec;
using namespace tracec::detail;

static std::string typeText(mlir::Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// `moduleText` parsed in the trace's context; throws with the parser's
/// diagnostics.
static mlir::OwningOpRef<mlir::ModuleOp> parseModule(llvm::StringRef text,
                                                     llvm::StringRef name) {
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  mlir::ScopedDiagnosticHandler handler(&context(), [&](mlir::Diagnostic &d) {
    os << d.getLocation() << ": " << d.str() << "\n";
    return mlir::success();
  });
  mlir::ParserConfig config(&context());
  auto module = mlir::parseSourceString<mlir::ModuleOp>(text, config, name);
  if (!module)
    fail("call of @" + name + ": the module does not parse:\n" + diagnostics);
  return module;
}

/// Moves every function of `source` but `entry` into the trace's module
/// (before the function being recorded) as @<name>_<function>, renaming
/// their uses in `source`.
static void moveCallees(mlir::ModuleOp source, mlir::func::FuncOp entry,
                        llvm::StringRef name) {
  FunctionState *function = currentScope().function;
  mlir::ModuleOp target = *function->trace->module;
  mlir::SymbolTable sources(source);
  llvm::SmallVector<mlir::func::FuncOp> callees;
  for (auto f : source.getOps<mlir::func::FuncOp>())
    if (f != entry)
      callees.push_back(f);
  for (mlir::func::FuncOp f : callees) {
    std::string base = (name + "_" + f.getSymName()).str();
    std::string symbol = base;
    for (unsigned n = 1;
         mlir::SymbolTable::lookupSymbolIn(target, symbol) ||
         sources.lookup(symbol);
         ++n)
      symbol = base + "_" + std::to_string(n);
    if (mlir::failed(sources.rename(f, symbol)))
      fail("call of @" + name + ": cannot rename @" + f.getSymName().str());
  }
  for (mlir::func::FuncOp f : callees) {
    f->remove();
    f.setPrivate();
    target.getBody()->getOperations().insert(
        mlir::Block::iterator(function->func), f);
  }
}

std::vector<Value> tracec::callModuleFunction(
    llvm::StringRef name, llvm::StringRef moduleText, llvm::StringRef entry,
    llvm::ArrayRef<Value> args, llvm::ArrayRef<Variable *> variables,
    const CallOptions &options) {
  std::string where = locationPrefix(location()) + ": error: call of @" +
                      name.str() + " (function @" + entry.str() + ")";
  auto copyBody = [&](llvm::ArrayRef<Value> inner) -> std::vector<Value> {
    FunctionState *callee = currentScope().function;
    mlir::OwningOpRef<mlir::ModuleOp> source = parseModule(moduleText, name);
    auto func = source->lookupSymbol<mlir::func::FuncOp>(entry);
    if (!func || func.isExternal())
      fail(where + ": the module has no function @" + entry.str());

    // The arguments: tensors, then resources (variables).
    mlir::FunctionType type = func.getFunctionType();
    unsigned numTensors = llvm::count_if(type.getInputs(), [](mlir::Type t) {
      return llvm::isa<mlir::RankedTensorType>(t);
    });
    if (numTensors != inner.size() ||
        type.getNumInputs() - numTensors != variables.size())
      fail(where + " with " + std::to_string(inner.size()) + " arguments and " +
           std::to_string(variables.size()) + " variables, but it takes " +
           std::to_string(numTensors) + " tensors and " +
           std::to_string(type.getNumInputs() - numTensors) + " variables");
    mlir::IRMapping mapping;
    mlir::Block &body = func.getBody().front();
    for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
      if (i < numTensors) {
        mlir::Value value = resolve(inner[i]);
        if (value.getType() != arg.getType())
          fail(where + ": argument " + std::to_string(i) + " is " +
               typeText(value.getType()) + ", expected " +
               typeText(arg.getType()));
        mapping.map(arg, value);
        continue;
      }
      auto resource = llvm::dyn_cast<mlir::trace::ResourceType>(arg.getType());
      if (!resource)
        fail(where + ": argument " + std::to_string(i) + " is " +
             typeText(arg.getType()) +
             ", but only resources may follow the tensor arguments");
      Variable &variable = *variables[i - numTensors];
      if (callee->hoistReads)
        fail(where + ": it reads variables, which cannot be hoisted to the "
                     "call site");
      mlir::Value handle = variableArgument(variable);
      if (handle.getType() != resource)
        fail(where + ": variable " + std::to_string(i - numTensors) + " is " +
             typeText(handle.getType()) + ", expected " + typeText(resource));
      mapping.map(arg, handle);
    }

    moveCallees(*source, func, name);
    mlir::OpBuilder builder(&context());
    builder.setInsertionPointToEnd(currentScope().block);
    for (mlir::Operation &op : body.without_terminator())
      builder.clone(op, mapping);
    std::vector<Value> results;
    for (mlir::Value result : body.getTerminator()->getOperands())
      results.push_back(wrap(mapping.lookup(result)));
    return results;
  };
  return call(name, args, copyBody, options);
}
