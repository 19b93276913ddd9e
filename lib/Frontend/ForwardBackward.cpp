//===- ForwardBackward.cpp - A concrete function's forward/backward pair --===//
//
// On a copy of the module: automatic control dependencies and autodiff (for
// the gradient ops inside), then the Differentiator's forward/backward
// functions of the traced function, made public and compiled.
//
//===----------------------------------------------------------------------===//

#include "tracec/Frontend/Trace.h"
#include "tracec/Transforms/Differentiation/Differentiator.h"
#include "tracec/Transforms/Differentiation/Passes.h"
#include "tracec/Transforms/State/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace tracec;

/// The 0-d tensor a scalar travels in between the host and compiled code
/// (index as i64); null for a type the host passes as it is.
static mlir::RankedTensorType hostTensorOf(mlir::Type type) {
  if (mlir::isa<mlir::IndexType>(type))
    type = mlir::IntegerType::get(type.getContext(), 64);
  else if (!mlir::isa<mlir::IntegerType, mlir::FloatType>(type))
    return {};
  return mlir::RankedTensorType::get({}, type);
}

/// `fn`, callable from the host: a public wrapper whose scalar arguments
/// and results are 0-d tensors, or `fn` itself when it has none. The
/// forward function's residuals include scalars (a cond's predicate, a
/// loop's trip count) that the backward function takes back.
static mlir::func::FuncOp hostCallable(mlir::func::FuncOp fn) {
  mlir::FunctionType type = fn.getFunctionType();
  auto toHost = [](mlir::TypeRange types) {
    llvm::SmallVector<mlir::Type> host;
    for (mlir::Type t : types)
      host.push_back(hostTensorOf(t) ? hostTensorOf(t) : t);
    return host;
  };
  llvm::SmallVector<mlir::Type> inputs = toHost(type.getInputs());
  llvm::SmallVector<mlir::Type> results = toHost(type.getResults());
  if (mlir::TypeRange(inputs) == type.getInputs() &&
      mlir::TypeRange(results) == type.getResults())
    return fn;
  mlir::OpBuilder builder(fn);
  builder.setInsertionPointAfter(fn);
  mlir::Location loc = fn.getLoc();
  auto wrapper = mlir::func::FuncOp::create(
      builder, loc, ("__host" + fn.getSymName()).str(),
      builder.getFunctionType(inputs, results));
  mlir::SymbolTable(fn->getParentOfType<mlir::ModuleOp>()).insert(wrapper);
  builder.setInsertionPointToStart(wrapper.addEntryBlock());
  // From 0-d tensors to the scalars `fn` takes, and back for its results.
  auto convert = [&](mlir::Value value, mlir::Type to) -> mlir::Value {
    if (value.getType() == to)
      return value;
    if (auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(to)) {
      if (mlir::isa<mlir::IndexType>(value.getType()))
        value = mlir::arith::IndexCastOp::create(
            builder, loc, tensor.getElementType(), value);
      return mlir::tensor::FromElementsOp::create(builder, loc, tensor, value);
    }
    mlir::Value scalar = mlir::tensor::ExtractOp::create(builder, loc, value);
    if (mlir::isa<mlir::IndexType>(to))
      scalar = mlir::arith::IndexCastOp::create(builder, loc, to, scalar);
    return scalar;
  };
  llvm::SmallVector<mlir::Value> args;
  for (auto [arg, to] : llvm::zip(wrapper.getArguments(), type.getInputs()))
    args.push_back(convert(arg, to));
  auto call = mlir::func::CallOp::create(builder, loc, fn, args);
  llvm::SmallVector<mlir::Value> returned;
  for (auto [result, to] : llvm::zip(call.getResults(), results))
    returned.push_back(convert(result, to));
  mlir::func::ReturnOp::create(builder, loc, returned);
  fn.setPrivate();
  return wrapper;
}

llvm::Expected<ForwardBackward>
ConcreteFunction::forwardBackward(llvm::ArrayRef<int64_t> wrt,
                                  const CompileOptions &options) const {
  std::lock_guard<std::recursive_mutex> lock(context_->mutex());
  mlir::MLIRContext &ctx = context_->context();
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &diag) {
    os << diag.str() << "\n";
    return mlir::success();
  });
  auto failure = [&](llvm::StringRef what) {
    return llvm::createStringError(
        ("@" + name_ + ": " + what + ": " + llvm::StringRef(diagnostics).rtrim())
            .str());
  };

  mlir::OwningOpRef<mlir::ModuleOp> clone = module_->get().clone();
  mlir::PassManager pm(&ctx);
  pm.addPass(mlir::trace::createTraceAutoControlDeps());
  pm.addPass(mlir::trace::createTraceAutoDiff());
  if (mlir::failed(pm.run(*clone)))
    return failure("autodiff failed");

  auto f = clone->lookupSymbol<mlir::func::FuncOp>(name_);
  llvm::SmallVector<int64_t> indices(wrt.begin(), wrt.end());
  if (indices.empty())
    for (auto [i, argument] : llvm::enumerate(arguments_))
      if (argument.kind == ArgumentInfo::Kind::input &&
          isFloat(argument.spec.dtype))
        indices.push_back(i);
  for (int64_t index : indices)
    if (index < 0 || index >= (int64_t)arguments_.size())
      return llvm::createStringError(
          "@" + name_ + ": forwardBackward: argument " +
          std::to_string(index) + " is out of range for " +
          std::to_string(arguments_.size()) + " arguments");
  mlir::trace::Differentiator differentiator(*clone);
  auto differentiated = differentiator.differentiate(f, indices);
  if (mlir::failed(differentiated))
    return failure("cannot differentiate");
  mlir::func::FuncOp forward = differentiated->functions.forward;
  mlir::func::FuncOp backward = differentiated->functions.backward;
  forward.setPublic();
  backward.setPublic();
  forward = hostCallable(forward);
  backward = hostCallable(backward);
  unsigned numResults = f.getFunctionType().getNumResults();
  unsigned numResiduals = forward.getFunctionType().getNumResults() - numResults;

  Module module(std::move(clone));
  auto executable = Executable::compile(module, options);
  if (!executable)
    return executable.takeError();
  auto forwardFn = (*executable)->function(forward.getSymName());
  if (!forwardFn)
    return forwardFn.takeError();
  auto backwardFn = (*executable)->function(backward.getSymName());
  if (!backwardFn)
    return backwardFn.takeError();
  return ForwardBackward{
      *forwardFn,
      *backwardFn,
      numResults,
      numResiduals,
      std::vector<unsigned>(differentiated->cotangentResults.begin(),
                            differentiated->cotangentResults.end()),
      std::vector<int64_t>(differentiated->functions.wrt.begin(),
                           differentiated->functions.wrt.end())};
}
