//===- Tracer.cpp - Scopes, value resolution and op creation --------------===//

#include "Tracer.h"

#include "tracec/Dialect/Trace/IR/InferResultTypes.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

using namespace tracec;
using namespace tracec::detail;

namespace {
struct ThreadState {
  std::vector<Scope> scopes;
  uint64_t nextScopeId = 1;
  struct {
    std::string file;
    unsigned line = 0, column = 0;
    bool set = false;
  } location;
};
ThreadState &threadState() {
  static thread_local ThreadState state;
  return state;
}
} // namespace

//===----------------------------------------------------------------------===//
// Locations
//===----------------------------------------------------------------------===//

void tracec::setLocation(llvm::StringRef file, unsigned line, unsigned column) {
  auto &loc = threadState().location;
  loc.file = file.str();
  loc.line = line;
  loc.column = column;
  loc.set = true;
}

void tracec::clearLocation() { threadState().location.set = false; }

struct LocationScope::Saved {
  std::string file;
  unsigned line, column;
  bool set;
};

LocationScope::LocationScope(llvm::StringRef file, unsigned line,
                             unsigned column) {
  auto &loc = threadState().location;
  saved_.reset(new Saved{loc.file, loc.line, loc.column, loc.set});
  setLocation(file, line, column);
}

LocationScope::~LocationScope() {
  auto &loc = threadState().location;
  loc.file = saved_->file;
  loc.line = saved_->line;
  loc.column = saved_->column;
  loc.set = saved_->set;
}

bool tracec::isTracing() { return !threadState().scopes.empty(); }

mlir::Location detail::location() {
  auto &loc = threadState().location;
  if (!loc.set)
    return mlir::UnknownLoc::get(&context());
  return mlir::FileLineColLoc::get(&context(), loc.file, loc.line, loc.column);
}

std::string detail::locationPrefix(mlir::Location loc) {
  if (auto file = llvm::dyn_cast<mlir::FileLineColLoc>(loc))
    return (file.getFilename().getValue() + ":" + llvm::Twine(file.getLine()) +
            ":" + llvm::Twine(file.getColumn()))
        .str();
  if (isTracing())
    return "@" + currentScope().function->trace->name;
  return "<unknown>";
}

//===----------------------------------------------------------------------===//
// Scopes and values
//===----------------------------------------------------------------------===//

ScopeGuard::ScopeGuard(FunctionState *function, mlir::Block *block) {
  ThreadState &state = threadState();
  id_ = state.nextScopeId++;
  state.scopes.push_back({id_, function, block});
}

ScopeGuard::~ScopeGuard() {
  ThreadState &state = threadState();
  assert(!state.scopes.empty() && state.scopes.back().id == id_);
  state.scopes.pop_back();
}

void detail::fail(const llvm::Twine &message) {
  throw TraceError(message.str());
}

Scope &detail::currentScope() {
  ThreadState &state = threadState();
  if (state.scopes.empty())
    fail("tracec: ops on tracec::Value can only be recorded while a function "
         "is being traced (inside tracec::trace)");
  return state.scopes.back();
}

mlir::MLIRContext &detail::context() {
  return currentScope().function->trace->context->context();
}

Value::Value(mlir::Value value, uint64_t scope)
    : value_(value), type_(llvm::cast<mlir::RankedTensorType>(value.getType())),
      scope_(scope) {}

DType Value::dtype() const {
  if (!type_)
    throw TraceError("the dtype of a null tracec::Value was asked for");
  return dtypeOf(type_.getElementType());
}

std::string Value::typeString() const {
  return type_ ? formatTensorType(dtype(), shape()) : "<null>";
}

Value detail::wrap(mlir::Value value) {
  return Value(value, currentScope().id);
}

/// `value` of `owner` (an enclosing function) as an argument of `function`,
/// added to every function in between.
static mlir::Value lift(FunctionState *function, mlir::Value value,
                        FunctionState *owner) {
  if (function == owner)
    return value;
  auto it = function->lifted.find(value);
  if (it != function->lifted.end())
    return it->second;
  mlir::Value outer = lift(function->parent, value, owner);
  mlir::Value argument =
      function->entry().addArgument(value.getType(), value.getLoc());
  function->extras.push_back({ArgumentInfo::Kind::captured, std::nullopt,
                              nullptr, outer});
  function->lifted[value] = argument;
  return argument;
}

const Scope *detail::scopeOf(const Value &value) {
  if (!value)
    return nullptr;
  auto &scopes = threadState().scopes;
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it)
    if (it->id == value.scope())
      return &*it;
  return nullptr;
}

mlir::Value detail::resolve(const Value &value) {
  Scope &current = currentScope();
  if (!value)
    fail(locationPrefix(location()) + ": error: a null tracec::Value was used");
  const Scope *owner = scopeOf(value);
  if (!owner)
    fail(locationPrefix(location()) + ": error: a tracec::Value of type " +
         value.typeString() +
         " is used outside the trace that created it: it belongs to a "
         "trace, branch or loop body that has ended, or to another trace "
         "(return it from there, or pass host data with tracec::capture)");
  if (owner->function == current.function)
    return value.getUnchecked();
  if (owner->function->trace != current.function->trace)
    fail(locationPrefix(location()) + ": error: a tracec::Value of type " +
         value.typeString() + " from trace @" + owner->function->trace->name +
         " is used in trace @" + current.function->trace->name +
         ", which records another module (pass it as an argument instead)");
  return lift(current.function, value.getUnchecked(), owner->function);
}

mlir::Value detail::variableArgument(Variable &variable) {
  FunctionState *function = currentScope().function;
  std::function<mlir::Value(FunctionState *)> get =
      [&](FunctionState *f) -> mlir::Value {
    auto it = f->variables.find(&variable);
    if (it != f->variables.end())
      return it->second;
    if (f->hoistReads)
      fail(locationPrefix(location()) + ": error: @" + f->func.getSymName() +
           " is called with its variable reads hoisted to the caller "
           "(CallOptions::hoistReads; every vmap), but it assigns a variable "
           "or a function it traces needs one as a resource: pass the "
           "variable's value in and return the new value instead");
    mlir::Value outer = f->parent ? get(f->parent) : mlir::Value();
    const Tensor &buffer = variable.buffer();
    auto type = mlir::trace::ResourceType::get(
        &context(), tensorType(buffer.shape(), buffer.dtype()));
    mlir::Value argument =
        f->entry().addArgument(type, mlir::UnknownLoc::get(&context()));
    f->extras.push_back({ArgumentInfo::Kind::variable, std::nullopt,
                         &variable, outer});
    f->variables[&variable] = argument;
    return argument;
  };
  return get(function);
}

static bool sameTensor(const Tensor &a, const Tensor &b) {
  return a.sharesStorageWith(b) && a.rawData() == b.rawData() &&
         a.dtype() == b.dtype() && a.shape() == b.shape();
}

mlir::Value detail::captureArgument(const Tensor &tensor) {
  std::function<mlir::Value(FunctionState *)> get =
      [&](FunctionState *f) -> mlir::Value {
    for (auto &[captured, argument] : f->captures)
      if (sameTensor(captured, tensor))
        return argument;
    mlir::Value outer = f->parent ? get(f->parent) : mlir::Value();
    mlir::Value argument =
        f->entry().addArgument(tensorType(tensor.shape(), tensor.dtype()),
                               mlir::UnknownLoc::get(&context()));
    f->extras.push_back({ArgumentInfo::Kind::captured, tensor, nullptr, outer});
    f->captures.push_back({tensor, argument});
    return argument;
  };
  return get(currentScope().function);
}

//===----------------------------------------------------------------------===//
// Dtypes
//===----------------------------------------------------------------------===//

mlir::Type detail::elementType(DType dtype) {
  mlir::MLIRContext *ctx = &context();
  switch (dtype) {
  case DType::f16:
    return mlir::Float16Type::get(ctx);
  case DType::bf16:
    return mlir::BFloat16Type::get(ctx);
  case DType::f32:
    return mlir::Float32Type::get(ctx);
  case DType::f64:
    return mlir::Float64Type::get(ctx);
  case DType::i1:
    return mlir::IntegerType::get(ctx, 1);
  case DType::i32:
    return mlir::IntegerType::get(ctx, 32);
  case DType::i64:
    return mlir::IntegerType::get(ctx, 64);
  }
  llvm_unreachable("unknown dtype");
}

DType detail::dtypeOf(mlir::Type type) {
  if (type.isF32())
    return DType::f32;
  if (type.isF64())
    return DType::f64;
  if (type.isF16())
    return DType::f16;
  if (type.isBF16())
    return DType::bf16;
  if (type.isInteger(1))
    return DType::i1;
  if (type.isInteger(32))
    return DType::i32;
  if (type.isInteger(64))
    return DType::i64;
  std::string name;
  llvm::raw_string_ostream os(name);
  type.print(os);
  fail("tracec: element type " + name + " has no tracec dtype");
}

mlir::RankedTensorType detail::tensorType(llvm::ArrayRef<int64_t> shape,
                                          DType dtype) {
  return mlir::RankedTensorType::get(shape, elementType(dtype));
}

//===----------------------------------------------------------------------===//
// Creating ops
//===----------------------------------------------------------------------===//

/// Collects the diagnostics of the current trace's context into its
/// TraceState while an op is built.
namespace {
class DiagnosticCapture {
public:
  DiagnosticCapture(TraceState &trace)
      : trace_(trace),
        handler_(&trace.context->context(), [this](mlir::Diagnostic &diag) {
          append(diag);
          return mlir::success();
        }) {
    trace_.diagnostics.clear();
  }
  std::string take() {
    std::string text = llvm::StringRef(trace_.diagnostics).rtrim().str();
    trace_.diagnostics.clear();
    return text;
  }

private:
  void append(mlir::Diagnostic &diag) {
    llvm::raw_string_ostream os(trace_.diagnostics);
    const char *severity = "error";
    switch (diag.getSeverity()) {
    case mlir::DiagnosticSeverity::Note:
      severity = "note";
      break;
    case mlir::DiagnosticSeverity::Warning:
      severity = "warning";
      break;
    case mlir::DiagnosticSeverity::Remark:
      severity = "remark";
      break;
    default:
      break;
    }
    os << locationPrefix(diag.getLocation()) << ": " << severity << ": "
       << diag.str() << "\n";
    for (mlir::Diagnostic &note : diag.getNotes())
      append(note);
  }
  TraceState &trace_;
  mlir::ScopedDiagnosticHandler handler_;
};
} // namespace

mlir::Operation *
detail::createOp(llvm::StringRef name, mlir::ValueRange operands,
                 llvm::ArrayRef<mlir::NamedAttribute> attributes,
                 std::optional<llvm::ArrayRef<mlir::Type>> resultTypes,
                 unsigned numResults, unsigned numRegions) {
  mlir::OperationState state(location(), name);
  state.addOperands(operands);
  state.addAttributes(attributes);
  for (unsigned i = 0; i < numRegions; ++i)
    state.addRegion();
  if (resultTypes) {
    state.addTypes(*resultTypes);
  } else {
    // Placeholders, replaced by the inferred types once the op exists (its
    // properties are only populated then).
    state.types.assign(numResults, mlir::NoneType::get(&context()));
  }
  return createOp(state, /*inferTypes=*/!resultTypes);
}

mlir::Operation *detail::createOp(mlir::OperationState &state,
                                  bool inferTypes) {
  Scope &scope = currentScope();
  mlir::Location loc = state.location;
  std::string name = state.name.getStringRef().str();
  DiagnosticCapture capture(*scope.function->trace);
  auto failWith = [&](mlir::Operation *op) {
    if (op)
      op->destroy();
    std::string text = capture.take();
    if (text.empty())
      text = locationPrefix(loc) + ": error: '" + name +
             "' cannot be built from these operands";
    fail(text);
  };

  bool hasRegions = !state.regions.empty();
  mlir::Operation *op =
      inferTypes ? mlir::trace::createWithInferredTypes(state,
                                                        state.types.size())
                 : mlir::Operation::create(state);
  if (!op)
    failWith(nullptr);
  scope.block->push_back(op);
  // Ops with regions are verified once their regions are filled.
  if (!hasRegions && mlir::failed(mlir::verify(op, false))) {
    op->remove();
    failWith(op);
  }
  return op;
}

std::vector<Value> detail::callTraced(const Callable &fn,
                                      llvm::ArrayRef<Value> args,
                                      llvm::StringRef what) {
  std::vector<Value> results = fn(args);
  for (size_t i = 0; i < results.size(); ++i)
    if (!results[i])
      fail(locationPrefix(location()) + ": error: " + what + " returned a " +
           "null tracec::Value as result " + llvm::Twine(i));
  return results;
}

void detail::verifyOrFail(mlir::Operation *op, bool symbolUses) {
  // An op traced into a body that is not in place yet (a cond inside a
  // cond's branch) is verified with the op that holds it, once that is in
  // place: until then the values it uses from outside cannot dominate it.
  mlir::Operation *outermost = op;
  while (mlir::Operation *parent = outermost->getParentOp())
    outermost = parent;
  if (!llvm::isa<mlir::ModuleOp>(outermost))
    return;
  DiagnosticCapture capture(*currentScope().function->trace);
  bool ok = mlir::succeeded(mlir::verify(op));
  // An op in a loop body being traced is not in the module yet, so its
  // callee cannot be looked up from it: the module's verification checks it
  // once the body is in place.
  if (ok && symbolUses && op->getParentOfType<mlir::ModuleOp>())
    if (auto user = llvm::dyn_cast<mlir::SymbolUserOpInterface>(op)) {
      mlir::SymbolTableCollection symbols;
      ok = mlir::succeeded(user.verifySymbolUses(symbols));
    }
  if (!ok) {
    std::string text = capture.take();
    fail(text.empty() ? locationPrefix(op->getLoc()) + ": error: '" +
                            op->getName().getStringRef().str() +
                            "' failed to verify"
                      : text);
  }
}
