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

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace tracec;

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
