//===- Compiler.h - Parsing trace modules for the JIT ---------------------===//

#ifndef TRACEC_RUNTIME_COMPILER_H
#define TRACEC_RUNTIME_COMPILER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace tracec {

/// A parsed, verified module. It lives in its Compiler's context, so the
/// Compiler must outlive it.
class Module {
public:
  /// Adopts a module built in a Compiler's context (as the C++ tracer does).
  explicit Module(mlir::OwningOpRef<mlir::ModuleOp> module)
      : module_(std::move(module)) {}
  mlir::ModuleOp get() const { return module_.get(); }
  /// The module as tracec-opt would print it.
  std::string str() const;

private:
  mlir::OwningOpRef<mlir::ModuleOp> module_;
};

/// Owns the MLIR context (with the trace dialect and everything the
/// pipelines need) and turns source text into Modules. Errors carry the
/// parser's and verifier's diagnostics as "file:line:col: error: ...".
class Compiler {
public:
  Compiler();
  ~Compiler();

  llvm::Expected<Module> parseFile(llvm::StringRef path);
  llvm::Expected<Module> parseString(llvm::StringRef source,
                                     llvm::StringRef bufferName = "<string>");

  mlir::MLIRContext &context() { return *context_; }

private:
  std::unique_ptr<mlir::MLIRContext> context_;
};

} // namespace tracec

#endif // TRACEC_RUNTIME_COMPILER_H
