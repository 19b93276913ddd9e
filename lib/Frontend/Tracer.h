//===- Tracer.h - The tracer's per-thread state (private) -----------------===//
//
// A trace (one tracec::trace call) records into a module of its own. Inside
// it, functions are being recorded (the traced one, and the callees of
// grad/value_and_grad/vjp traced while it runs), and inside each function,
// scopes: its body, and the regions of the control flow ops being traced.
// The scopes form a per-thread stack; a Value may be used while the scope
// that created it is on the stack. A Value of an enclosing function is
// lifted into the current one as a captured argument.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_FRONTEND_TRACER_H
#define TRACEC_LIB_FRONTEND_TRACER_H

#include "tracec/Frontend/Trace.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <optional>

namespace tracec::detail {

/// An argument the function added while it was traced.
struct ExtraArgument {
  ArgumentInfo::Kind kind;
  std::optional<Tensor> captured;
  Variable *variable = nullptr;
  /// For a function traced inside another (a grad callee): what its caller
  /// passes for this argument, a value of the caller.
  mlir::Value outer;
  /// A callee of tracec::call with hoisted reads: the argument is the
  /// value of `variable`, read by each caller just before the call.
  bool readValue = false;
};

/// A func.func recorded by tracec::call, reused by later calls of its name.
struct CalledFunction {
  mlir::func::FuncOp func;
  std::vector<ExtraArgument> extras;
};

/// One module being recorded.
struct TraceState {
  std::shared_ptr<TraceContext> context;
  std::string name;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  /// Diagnostics reported while building the current op.
  std::string diagnostics;
  unsigned nextCalleeId = 0;
  /// tracec::call's functions, by the name it was given.
  llvm::StringMap<CalledFunction> called = {};
};

/// One func.func being recorded.
struct FunctionState {
  FunctionState(TraceState *trace, FunctionState *parent,
                mlir::func::FuncOp func, unsigned numInputs)
      : trace(trace), parent(parent), func(func), numInputs(numInputs) {}

  TraceState *trace;
  FunctionState *parent; // the enclosing function, in the same module
  mlir::func::FuncOp func;
  unsigned numInputs;
  std::vector<ExtraArgument> extras; // arguments numInputs + i
  llvm::DenseMap<mlir::Value, mlir::Value> lifted;
  llvm::DenseMap<Variable *, mlir::Value> variables;
  std::vector<std::pair<Tensor, mlir::Value>> captures;
  /// Whether reads of variables become tensor arguments that the callers
  /// read (CallOptions::hoistReads), and those arguments.
  bool hoistReads = false;
  llvm::DenseMap<Variable *, mlir::Value> readArguments;

  mlir::Block &entry() { return func.getBody().front(); }
};

/// Where ops are being recorded: the end of `block`.
struct Scope {
  uint64_t id;
  FunctionState *function;
  mlir::Block *block;
};

/// Pushes a scope for its lifetime.
class ScopeGuard {
public:
  ScopeGuard(FunctionState *function, mlir::Block *block);
  ~ScopeGuard();
  uint64_t id() const { return id_; }

private:
  uint64_t id_;
};

[[noreturn]] void fail(const llvm::Twine &message);

/// The innermost scope; throws if no trace is being recorded.
Scope &currentScope();
mlir::MLIRContext &context();
/// The location of the next op (setLocation, or unknown).
mlir::Location location();
/// "file:line:col: " or the traced function's name, for messages.
std::string locationPrefix(mlir::Location loc);

/// The scope that defined `value`, or null if it has ended (or `value` is
/// null).
const Scope *scopeOf(const Value &value);
/// The SSA value of `value` usable in the current scope (lifted into the
/// current function if it belongs to an enclosing one); throws if `value`
/// is null, or its scope has ended, or it belongs to another trace.
mlir::Value resolve(const Value &value);
/// Wraps a value defined in the current scope.
Value wrap(mlir::Value value);

/// Records op `name` at the end of the current scope. Result types are
/// `resultTypes` if given, else inferred by the op's InferTypeOpInterface
/// (`numResults` of them). The op is verified; a failure of inference or
/// verification erases it and throws TraceError with the diagnostics.
mlir::Operation *
createOp(llvm::StringRef name, mlir::ValueRange operands,
         llvm::ArrayRef<mlir::NamedAttribute> attributes = {},
         std::optional<llvm::ArrayRef<mlir::Type>> resultTypes = std::nullopt,
         unsigned numResults = 1, unsigned numRegions = 0);
/// Records the op described by `state` (e.g. by an ODS builder), inferring
/// its result types if `inferTypes` (the placeholders in state.types give
/// their number).
mlir::Operation *createOp(mlir::OperationState &state, bool inferTypes);

/// An op built by its ODS builder `OpTy::build(builder, state, args...)`
/// (the type-directed ops: reshape, fill, ...), verified.
template <typename OpTy, typename... Args>
mlir::Operation *createWithBuilder(Args &&...args) {
  mlir::OpBuilder builder(&context());
  mlir::OperationState state(location(), OpTy::getOperationName());
  OpTy::build(builder, state, std::forward<Args>(args)...);
  return createOp(state, /*inferTypes=*/false);
}

/// Verifies `op` (with its regions; with `symbolUses`, also the symbols it
/// references) and throws TraceError with the diagnostics on failure.
void verifyOrFail(mlir::Operation *op, bool symbolUses = false);

/// The function argument standing for `variable` in the current function.
mlir::Value variableArgument(Variable &variable);
/// The function argument standing for captured `tensor`.
mlir::Value captureArgument(const Tensor &tensor);
/// `tensor`'s elements as the attribute of a trace.constant.
mlir::DenseElementsAttr denseElements(const Tensor &tensor);

mlir::Type elementType(DType dtype);
DType dtypeOf(mlir::Type elementType);
mlir::RankedTensorType tensorType(llvm::ArrayRef<int64_t> shape, DType dtype);

/// `value` converted to `dtype` (itself if it has it already).
Value castTo(const Value &value, DType dtype);
/// A constant tensor of `shape` filled with `value` converted to `dtype`.
Value splat(double value, DType dtype, llvm::ArrayRef<int64_t> shape);
/// Throws unless every dim is >= 0 (or -1, at most once, if `allowInferred`).
void checkShape(llvm::StringRef op, llvm::ArrayRef<int64_t> shape,
                bool allowInferred = false);

/// Runs a callable traced in the current scope and checks it returned
/// non-null Values.
std::vector<Value> callTraced(const Callable &fn, llvm::ArrayRef<Value> args,
                              llvm::StringRef what);

/// Records a new func.func in the current trace's module (before the
/// current function) by tracing `fn` on arguments of `argTypes`: a callee
/// of grad ops. Returns it and its state (the extra arguments it added).
struct TracedCallee {
  mlir::func::FuncOp func;
  std::vector<ExtraArgument> extras;
};
TracedCallee traceCallee(llvm::StringRef name, mlir::TypeRange argTypes,
                         const Callable &fn,
                         llvm::ArrayRef<Variable *> requiredVariables = {},
                         llvm::StringRef what = "the differentiated function",
                         bool hoistReads = false);

} // namespace tracec::detail

#endif // TRACEC_LIB_FRONTEND_TRACER_H
