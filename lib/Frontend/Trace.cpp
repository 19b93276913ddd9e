//===- Trace.cpp - trace(), concrete functions and the trace context ------===//

#include "Tracer.h"

#include "tracec/Transforms/Differentiation/Passes.h"
#include "tracec/Transforms/State/Passes.h"

#include "tracec/Dialect/Trace/IR/TraceDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace tracec;
using namespace tracec::detail;

//===----------------------------------------------------------------------===//
// TraceContext
//===----------------------------------------------------------------------===//

TraceContext::TraceContext() : compiler_(std::make_unique<Compiler>()) {
  // The dialects the tracer records ops of, by name.
  context()
      .loadDialect<mlir::trace::TraceDialect, mlir::func::FuncDialect,
                   mlir::scf::SCFDialect, mlir::arith::ArithDialect,
                   mlir::tensor::TensorDialect>();
}
TraceContext::~TraceContext() = default;

std::shared_ptr<TraceContext> TraceContext::getDefault() {
  static std::shared_ptr<TraceContext> context =
      std::make_shared<TraceContext>();
  return context;
}

//===----------------------------------------------------------------------===//
// Recording functions
//===----------------------------------------------------------------------===//

/// Traces `fn` into `function` (whose entry block has its inputs), returns
/// its results and sets the function's type.
static void recordBody(FunctionState &function, const Callable &fn,
                       llvm::ArrayRef<Variable *> requiredVariables,
                       llvm::StringRef what) {
  mlir::Block &entry = function.entry();
  ScopeGuard guard(&function, &entry);
  for (Variable *variable : requiredVariables)
    variableArgument(*variable);
  std::vector<Value> args;
  for (unsigned i = 0; i < function.numInputs; ++i)
    args.push_back(wrap(entry.getArgument(i)));
  std::vector<Value> results = callTraced(fn, args, what);
  llvm::SmallVector<mlir::Value> values;
  for (const Value &result : results)
    values.push_back(resolve(result));
  function.func.setType(mlir::FunctionType::get(
      &context(), entry.getArgumentTypes(), mlir::ValueRange(values).getTypes()));
  createOp(mlir::func::ReturnOp::getOperationName(), values, {},
           llvm::ArrayRef<mlir::Type>{});
}

TracedCallee detail::traceCallee(llvm::StringRef name,
                                 mlir::TypeRange argTypes, const Callable &fn,
                                 llvm::ArrayRef<Variable *> requiredVariables,
                                 llvm::StringRef what, bool hoistReads) {
  FunctionState *parent = currentScope().function;
  TraceState *trace = parent->trace;
  mlir::MLIRContext *ctx = &context();
  std::string symbol = name.str();
  if (symbol.empty())
    symbol = parent->func.getSymName().str() + "_callee" +
             std::to_string(trace->nextCalleeId++);
  if (mlir::SymbolTable::lookupSymbolIn(*trace->module, symbol))
    fail(locationPrefix(location()) + ": error: a function named @" + symbol +
         " was already traced in this module");
  mlir::OpBuilder builder(ctx);
  builder.setInsertionPoint(parent->func);
  auto func = mlir::func::FuncOp::create(
      builder, location(), symbol, builder.getFunctionType(argTypes, {}));
  func.setPrivate();
  mlir::Block *entry = func.addEntryBlock();
  (void)entry;
  FunctionState function{trace, parent, func, (unsigned)argTypes.size()};
  function.hoistReads = hoistReads;
  try {
    recordBody(function, fn, requiredVariables, what);
  } catch (...) {
    func.erase();
    throw;
  }
  return {func, std::move(function.extras)};
}

ConcreteFunction tracec::trace(llvm::StringRef name,
                               llvm::ArrayRef<TensorSpec> signature,
                               const Callable &fn,
                               std::shared_ptr<TraceContext> context) {
  if (!context)
    context = TraceContext::getDefault();
  std::lock_guard<std::recursive_mutex> lock(context->mutex());
  mlir::MLIRContext *ctx = &context->context();
  TraceState state{context, name.str(),
                   mlir::ModuleOp::create(mlir::UnknownLoc::get(ctx)), "", 0,
                   {}};
  mlir::OpBuilder builder(ctx);
  builder.setInsertionPointToEnd(state.module->getBody());

  llvm::SmallVector<mlir::Type> inputTypes;
  for (auto [i, spec] : llvm::enumerate(signature)) {
    if (spec.isVariable)
      throw TraceError("trace @" + name.str() + ": input " +
                       std::to_string(i) +
                       " is a variable spec; use a tracec::Variable in the "
                       "callable instead (read/assign lift it to a resource "
                       "argument)");
    // A dynamic dim (TensorSpec::kDynamic, `?`): one trace serves every
    // size there; the compiled function checks and sizes at each call.
    for (int64_t dim : spec.shape)
      if (dim < 0 && dim != TensorSpec::kDynamic)
        throw TraceError("trace @" + name.str() + ": input " +
                         std::to_string(i) + " has a negative dim (" +
                         spec.str() + "); give a size or a dynamic dim");
    llvm::SmallVector<int64_t> shape(spec.shape.begin(), spec.shape.end());
    mlir::Type element;
    switch (spec.dtype) {
    case DType::f16: element = mlir::Float16Type::get(ctx); break;
    case DType::bf16: element = mlir::BFloat16Type::get(ctx); break;
    case DType::f32: element = mlir::Float32Type::get(ctx); break;
    case DType::f64: element = mlir::Float64Type::get(ctx); break;
    case DType::i1: element = mlir::IntegerType::get(ctx, 1); break;
    case DType::i32: element = mlir::IntegerType::get(ctx, 32); break;
    case DType::i64: element = mlir::IntegerType::get(ctx, 64); break;
    }
    inputTypes.push_back(mlir::RankedTensorType::get(shape, element));
  }
  if (name.empty() || !(std::isalpha(name[0]) || name[0] == '_'))
    throw TraceError("trace: function name '" + name.str() +
                     "' must start with a letter or '_'");
  auto func = mlir::func::FuncOp::create(
      builder, mlir::UnknownLoc::get(ctx), name,
      builder.getFunctionType(inputTypes, {}));
  func.addEntryBlock();
  FunctionState function{&state, nullptr, func, (unsigned)inputTypes.size()};
  recordBody(function, fn, {}, "the traced function");
  {
    ScopeGuard guard(&function, &function.entry());
    verifyOrFail(*state.module);
  }

  ConcreteFunction result;
  result.context_ = context;
  result.name_ = name.str();
  for (const TensorSpec &spec : signature)
    result.arguments_.push_back(
        {ArgumentInfo::Kind::input, spec, std::nullopt, nullptr});
  for (ExtraArgument &extra : function.extras) {
    ArgumentInfo info{extra.kind, {}, extra.captured, extra.variable};
    if (extra.captured)
      info.spec = {extra.captured->dtype(),
                   llvm::SmallVector<int64_t, 4>(extra.captured->shape()),
                   false};
    else {
      const Tensor &buffer = extra.variable->buffer();
      info.spec = {buffer.dtype(),
                   llvm::SmallVector<int64_t, 4>(buffer.shape()), true};
    }
    result.arguments_.push_back(std::move(info));
  }
  for (mlir::Type type : func.getFunctionType().getResults()) {
    auto tensor = llvm::cast<mlir::RankedTensorType>(type);
    std::string element;
    llvm::raw_string_ostream os(element);
    tensor.getElementType().print(os);
    result.outputs_.push_back(
        {*parseDType(element),
         llvm::SmallVector<int64_t, 4>(tensor.getShape()), false});
  }
  result.module_ = std::make_unique<Module>(std::move(state.module));
  return result;
}

//===----------------------------------------------------------------------===//
// ConcreteFunction
//===----------------------------------------------------------------------===//

ConcreteFunction::ConcreteFunction(ConcreteFunction &&) = default;
ConcreteFunction &ConcreteFunction::operator=(ConcreteFunction &&) = default;
ConcreteFunction::~ConcreteFunction() {
  // The function and executable before the module, all before the context.
  function_.reset();
  executable_.reset();
  module_.reset();
}

std::vector<TensorSpec> ConcreteFunction::inputs() const {
  std::vector<TensorSpec> specs;
  for (const ArgumentInfo &argument : arguments_)
    if (argument.kind == ArgumentInfo::Kind::input)
      specs.push_back(argument.spec);
  return specs;
}

std::vector<Tensor> ConcreteFunction::capturedInputs() const {
  std::vector<Tensor> tensors;
  for (const ArgumentInfo &argument : arguments_)
    if (argument.kind == ArgumentInfo::Kind::captured)
      tensors.push_back(*argument.captured);
  return tensors;
}

std::vector<Variable *> ConcreteFunction::variables() const {
  std::vector<Variable *> variables;
  for (const ArgumentInfo &argument : arguments_)
    if (argument.kind == ArgumentInfo::Kind::variable)
      variables.push_back(argument.variable);
  return variables;
}

std::string ConcreteFunction::ir(bool afterAutodiff) const {
  std::lock_guard<std::recursive_mutex> lock(context_->mutex());
  if (!afterAutodiff)
    return module_->str();
  mlir::OwningOpRef<mlir::ModuleOp> clone = module_->get().clone();
  mlir::PassManager pm(&context_->context());
  pm.addPass(mlir::trace::createTraceAutoControlDeps());
  pm.addPass(mlir::trace::createTraceAutoDiff());
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  mlir::ScopedDiagnosticHandler handler(
      &context_->context(), [&](mlir::Diagnostic &diag) {
        os << diag.str() << "\n";
        return mlir::success();
      });
  if (mlir::failed(pm.run(*clone)))
    return "// autodiff failed:\n// " + diagnostics;
  std::string text;
  llvm::raw_string_ostream out(text);
  clone->print(out);
  return text;
}

void ConcreteFunction::setArgumentNames(llvm::ArrayRef<std::string> names) {
  std::lock_guard<std::recursive_mutex> lock(context_->mutex());
  auto func = module_->get().lookupSymbol<mlir::func::FuncOp>(name_);
  for (auto [i, name] : llvm::enumerate(names))
    if (!name.empty() && i < func.getNumArguments())
      func.setArgAttr(i, "trace.name",
                      mlir::StringAttr::get(func.getContext(), name));
}

std::vector<std::string> ConcreteFunction::argumentNames() const {
  std::lock_guard<std::recursive_mutex> lock(context_->mutex());
  auto func = module_->get().lookupSymbol<mlir::func::FuncOp>(name_);
  std::vector<std::string> names;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto name = func.getArgAttrOfType<mlir::StringAttr>(i, "trace.name");
    names.push_back(name ? name.str() : "");
  }
  return names;
}

llvm::Error ConcreteFunction::compile(const CompileOptions &options) {
  if (executable_)
    return llvm::Error::success();
  std::lock_guard<std::recursive_mutex> lock(context_->mutex());
  auto executable = Executable::compile(*module_, options);
  if (!executable)
    return executable.takeError();
  auto function = (*executable)->function(name_);
  if (!function)
    return function.takeError();
  executable_ = std::move(*executable);
  function_.emplace(std::move(*function));
  return llvm::Error::success();
}

llvm::Expected<Function> ConcreteFunction::compiledFunction() {
  if (llvm::Error error = compile())
    return std::move(error);
  return *function_;
}

llvm::Expected<std::vector<Tensor>>
ConcreteFunction::operator()(llvm::ArrayRef<Tensor> inputs) {
  if (llvm::Error error = compile())
    return std::move(error);
  std::vector<Tensor> args;
  size_t next = 0;
  for (const ArgumentInfo &argument : arguments_) {
    switch (argument.kind) {
    case ArgumentInfo::Kind::input:
      if (next < inputs.size())
        args.push_back(inputs[next]);
      ++next;
      break;
    case ArgumentInfo::Kind::captured:
      args.push_back(*argument.captured);
      break;
    case ArgumentInfo::Kind::variable:
      args.push_back(argument.variable->buffer());
      break;
    }
  }
  if (inputs.size() != next)
    return llvm::createStringError(
        "@" + name_ + " takes " + std::to_string(next) + " inputs, got " +
        std::to_string(inputs.size()));
  return (*function_)(args);
}
