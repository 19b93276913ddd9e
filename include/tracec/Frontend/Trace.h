//===- Trace.h - Tracing C++ callables into trace-dialect functions -------===//
//
//   using namespace tracec;
//   ConcreteFunction f = trace("predict",
//       {{DType::f32, {4, 3}}, {DType::f32, {3, 2}}},
//       [](llvm::ArrayRef<Value> args) -> std::vector<Value> {
//         return {relu(matmul(args[0], args[1]))};
//       });
//   llvm::outs() << f.ir();                               // the func.func
//   auto outputs = f({x, w});                             // JIT: compiled once
//
// A trace records a `func.func` in the `trace` dialect, in a module of its
// own. Its arguments are, in order: the signature's inputs, then the inputs
// the callable added as it ran: captured host tensors (tracec::capture) and
// variables (tracec::read/assign on a tracec::Variable) as
// `!trace.resource` arguments, in the order of first use. The concrete
// function remembers the captured tensors and the variables, and passes
// them at each call; variables are updated in place.
//
// Errors found while tracing throw TraceError; errors of compiling and
// calling are returned as llvm::Error, as the JIT does.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_FRONTEND_TRACE_H
#define TRACEC_FRONTEND_TRACE_H

#include "tracec/Frontend/Value.h"
#include "tracec/Runtime/Executable.h"
#include "tracec/Runtime/Signature.h"
#include "tracec/Tensor/Variable.h"

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tracec {

/// What the tracer calls: Values in, Values out.
using Callable = std::function<std::vector<Value>(llvm::ArrayRef<Value>)>;

/// The MLIR context traces are recorded in (a tracec::Compiler, with every
/// dialect the pipelines need). Concrete functions keep their context
/// alive. Traces into one context are serialized (one at a time, across
/// threads); a thread may start a trace while recording another.
class TraceContext {
public:
  TraceContext();
  ~TraceContext();
  /// The process-wide context that trace() uses by default.
  static std::shared_ptr<TraceContext> getDefault();

  Compiler &compiler() { return *compiler_; }
  mlir::MLIRContext &context() { return compiler_->context(); }
  std::recursive_mutex &mutex() { return mutex_; }

private:
  std::unique_ptr<Compiler> compiler_;
  std::recursive_mutex mutex_;
};

/// Where the ops recorded next come from: a caller-provided source location
/// (the Python bindings pass the Python file and line). It is per thread,
/// and shows in error messages and in the IR's locations.
void setLocation(llvm::StringRef file, unsigned line, unsigned column = 0);
void clearLocation();
/// Sets the location for its lifetime, then restores the previous one.
class LocationScope {
public:
  LocationScope(llvm::StringRef file, unsigned line, unsigned column = 0);
  ~LocationScope();
  LocationScope(const LocationScope &) = delete;
  LocationScope &operator=(const LocationScope &) = delete;

private:
  struct Saved;
  std::unique_ptr<Saved> saved_;
};

/// One input or output of a concrete function, and where its value comes
/// from at a call.
struct ArgumentInfo {
  enum class Kind { input, captured, variable };
  Kind kind;
  TensorSpec spec;
  /// Kind::captured: the remembered tensor.
  std::optional<Tensor> captured;
  /// Kind::variable: the variable (it must outlive the function).
  Variable *variable = nullptr;
};

struct ForwardBackward;

/// A traced function: its module (one public func.func named as traced,
/// plus private functions traced for grad/value_and_grad/vjp), its inputs,
/// outputs, captured inputs and variables. Callable through the JIT.
class ConcreteFunction {
public:
  ConcreteFunction(ConcreteFunction &&);
  ConcreteFunction &operator=(ConcreteFunction &&);
  ~ConcreteFunction();

  const std::string &name() const { return name_; }
  /// Every argument of the func.func, in order: inputs, then captured
  /// inputs and variables in the order of first use.
  llvm::ArrayRef<ArgumentInfo> arguments() const { return arguments_; }
  /// The signature's inputs (what a call passes).
  std::vector<TensorSpec> inputs() const;
  std::vector<TensorSpec> outputs() const { return outputs_; }
  std::vector<Tensor> capturedInputs() const;
  std::vector<Variable *> variables() const;

  /// The module as MLIR text: as traced, or after automatic control
  /// dependencies and autodiff (the forward/backward/inference functions
  /// that grad ops become).
  std::string ir(bool afterAutodiff = false) const;
  mlir::ModuleOp module() const { return module_->get(); }
  const Module &getModule() const { return *module_; }
  const std::shared_ptr<TraceContext> &context() const { return context_; }

  /// Names the func.func's arguments (`names[i]` for argument i; an empty
  /// name leaves it unnamed) with the `trace.name` attribute, which ir()
  /// shows and the ahead-of-time compiler's header uses.
  void setArgumentNames(llvm::ArrayRef<std::string> names);
  /// Each argument's `trace.name` ("" where it has none).
  std::vector<std::string> argumentNames() const;

  /// Compiles the module (once; later calls reuse it). Calling compiles on
  /// first use with default options.
  llvm::Error compile(const CompileOptions &options = {});
  /// Where compile()'s time went and what the compile cache did; null
  /// before compile().
  const CompileStats *compileStats() const {
    return executable_ ? &executable_->compileStats() : nullptr;
  }
  /// The JIT-compiled function with every argument explicit (inputs, then
  /// captured inputs and variable buffers): what operator() calls.
  llvm::Expected<Function> compiledFunction();

  /// The function split for reverse mode, compiled (the seeds'
  /// __forward_/__backward_ pair), so that a gradient tape can
  /// differentiate through it without running its forward work twice.
  /// `wrt`: indices into arguments() (default: every float input).
  llvm::Expected<ForwardBackward>
  forwardBackward(llvm::ArrayRef<int64_t> wrt = {},
                  const CompileOptions &options = {}) const;

  /// Runs the function on the signature's inputs; captured inputs and
  /// variables are passed by the function itself, and variables are
  /// updated in place. Calls that update the same variable must not run
  /// concurrently.
  llvm::Expected<std::vector<Tensor>> operator()(llvm::ArrayRef<Tensor> inputs);

private:
  friend ConcreteFunction trace(llvm::StringRef, llvm::ArrayRef<TensorSpec>,
                                const Callable &,
                                std::shared_ptr<TraceContext>);
  ConcreteFunction() = default;

  std::shared_ptr<TraceContext> context_; // outlives module_ and executable_
  std::string name_;
  std::unique_ptr<Module> module_;
  std::vector<ArgumentInfo> arguments_;
  std::vector<TensorSpec> outputs_;
  std::unique_ptr<Executable> executable_;
  std::optional<Function> function_;
};

/// See ConcreteFunction::forwardBackward.
struct ForwardBackward {
  /// Every argument (as compiledFunction() takes them) -> the results,
  /// then `numResiduals` residuals.
  Function forward;
  /// The residuals, then the cotangents of the results listed in
  /// cotangentResults (the float ones) -> the cotangents of `wrt`.
  Function backward;
  unsigned numResults;
  unsigned numResiduals;
  std::vector<unsigned> cotangentResults;
  /// Indices into the concrete function's arguments().
  std::vector<int64_t> wrt;
};

/// Traces `fn` on symbolic inputs of `signature` into a func.func named
/// `name`; throws TraceError if tracing fails (the callable's own
/// exceptions propagate unchanged). `context`: the default if null.
ConcreteFunction trace(llvm::StringRef name,
                       llvm::ArrayRef<TensorSpec> signature, const Callable &fn,
                       std::shared_ptr<TraceContext> context = nullptr);

/// Whether this thread is recording a trace now.
bool isTracing();

} // namespace tracec

#endif // TRACEC_FRONTEND_TRACE_H
