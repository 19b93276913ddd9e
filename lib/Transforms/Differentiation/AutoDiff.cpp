//===- AutoDiff.cpp - The trace-autodiff pass -----------------------------===//
//
// Rewrites gradient ops into calls of generated forward/backward functions
// (reverse mode) or of generated __jvp functions (forward mode, trace.jvp),
// innermost first: a gradient op is rewritten only once no function its
// callee reaches still holds an unrewritten gradient op, so that callee is
// plain code the Differentiator can sweep.
//
// A gradient op that trace-auto-control-deps ordered (its callee touches
// state) takes `after` tokens and yields a token; its call of the generated
// forward (or __jvp) function then does the same, so that the order holds
// without ordering the module again.
//
//===----------------------------------------------------------------------===//

#include "tracec/Transforms/Differentiation/Passes.h"

#include "tracec/Dialect/Trace/IR/DifferentiationAttributes.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "tracec/Dialect/Trace/IR/TraceTypeConstraints.h"
#include "tracec/Transforms/Differentiation/Batcher.h"
#include "tracec/Transforms/Differentiation/Differentiator.h"
#include "tracec/Transforms/Differentiation/TangentGenerator.h"
#include "tracec/Transforms/State/ControlTokens.h"

#include "mlir/Interfaces/CallInterfaces.h"

#include "llvm/ADT/SetVector.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEAUTODIFF
#include "tracec/Transforms/Differentiation/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;
using namespace mlir::trace;

namespace {

struct AutoDiffPass : mlir::trace::impl::TraceAutoDiffBase<AutoDiffPass> {
  using TraceAutoDiffBase::TraceAutoDiffBase;
  void runOnOperation() override;

  /// True when no function reachable from `f` (through calls and gradient
  /// ops) holds a gradient op that is still pending.
  bool isReady(func::FuncOp f, const DenseSet<Operation *> &pending,
               SymbolTable &symbols);
  LogicalResult rewrite(GradientRequestOpInterface request,
                        Differentiator &differentiator, SymbolTable &symbols);
  LogicalResult rewriteForward(GradientRequestOpInterface request,
                               TangentGenerator &tangents,
                               SymbolTable &symbols);
  /// Appends to `args`, the arguments of the call of the generated `fn`
  /// that replaces `request`, the token the request waits for, when `fn`
  /// takes one: when the request is ordered (`fn` is then given a token as
  /// its last argument and result, once) or an ordered request gave `fn`
  /// one before.
  LogicalResult appendToken(GradientRequestOpInterface request,
                            func::FuncOp fn, OpBuilder &builder,
                            SmallVectorImpl<Value> &args);

  /// Generated functions given a token (threadControlToken).
  DenseSet<Operation *> ordered;
};

/// The function `op` runs, when it is a call or a gradient request of a
/// function by symbol (a call through a value runs no known function).
func::FuncOp calleeOf(Operation *op, SymbolTable &symbols) {
  FlatSymbolRefAttr callee;
  if (auto call = dyn_cast<CallOpInterface>(op))
    callee = dyn_cast_if_present<FlatSymbolRefAttr>(
        dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee()));
  else if (auto request = dyn_cast<GradientRequestOpInterface>(op))
    callee = request.getCalleeAttr();
  else if (auto vmap = dyn_cast<VmapOp>(op))
    callee = vmap.getCalleeAttr();
  if (!callee)
    return {};
  return symbols.lookup<func::FuncOp>(callee.getValue());
}

} // namespace

/// `unconnected = none` (TensorFlow's UnconnectedGradients.NONE): the
/// gradient of an argument the results do not depend on is None. The op's
/// result standing for it must be unused (it then goes away with the op; the
/// zeros the backward function returns for it are dead code); a use is an
/// error at the use.
static LogicalResult checkNoneUnused(GradientRequestOpInterface request,
                                     ArrayRef<int64_t> unconnected,
                                     ValueRange gradients,
                                     ArrayRef<Value> replacements) {
  Operation *op = request;
  ArrayRef<int64_t> wrt = request.getWrt();
  LogicalResult result = success();
  for (auto [k, index] : llvm::enumerate(wrt)) {
    if (!llvm::is_contained(unconnected, index))
      continue;
    for (auto [r, replacement] : llvm::enumerate(replacements)) {
      if (replacement != gradients[k])
        continue;
      for (OpOperand &use : op->getResult(r).getUses()) {
        InFlightDiagnostic diag = use.getOwner()->emitError()
                                  << "gradient of argument " << index
                                  << " is none (unconnected = none) but is "
                                     "used here";
        diag.attachNote(op->getLoc())
            << "the gradient op whose result " << r << " it is";
        result = failure();
      }
    }
  }
  return result;
}

LogicalResult AutoDiffPass::appendToken(GradientRequestOpInterface request,
                                        func::FuncOp fn, OpBuilder &builder,
                                        SmallVectorImpl<Value> &args) {
  if (!request.getControl() && !ordered.contains(fn))
    return success();
  if (!ordered.contains(fn)) {
    if (!SymbolTable::symbolKnownUseEmpty(fn, getOperation())) {
      request->emitOpError("is ordered, but @")
          << fn.getSymName() << " is called already without a token";
      return failure();
    }
    if (failed(threadControlToken(fn)))
      return failure();
    ordered.insert(fn);
  }
  // One token for all the request waits for (none: a token that waits for
  // nothing, as trace-auto-control-deps gives a loop it orders first).
  OperandRange after = request.getAfter();
  Value token = after.size() == 1
                    ? after.front()
                    : GroupOp::create(builder, request->getLoc(),
                                      ControlType::get(builder.getContext()),
                                      after)
                          .getResult();
  args.push_back(token);
  return success();
}

/// An ordered request's results come after its token (trace-auto-control-deps
/// counts on that when it makes a function's results wait for its stateful
/// ops): the used ones that `call` (which yields the token) does not yield
/// itself, such as the backward function's gradients, wait for it
/// explicitly.
static void waitForToken(OpBuilder &builder, Operation *request,
                         Operation *call, Value token,
                         MutableArrayRef<Value> replacements) {
  for (auto [result, value] : llvm::zip(request->getResults(), replacements)) {
    auto tensor = dyn_cast<RankedTensorType>(value.getType());
    if (value.getDefiningOp() == call || result.use_empty() || !tensor ||
        !isTraceElementType(tensor.getElementType()))
      continue;
    value = IdentityOp::create(builder, request->getLoc(), tensor, value,
                               ValueRange(token));
  }
}

bool AutoDiffPass::isReady(func::FuncOp f,
                           const DenseSet<Operation *> &pending,
                           SymbolTable &symbols) {
  SmallVector<func::FuncOp> worklist = {f};
  DenseSet<Operation *> visited;
  while (!worklist.empty()) {
    func::FuncOp current = worklist.pop_back_val();
    if (!current || !visited.insert(current).second)
      continue;
    // A custom gradient runs its own forward and backward functions.
    if (std::optional<CustomVjp> custom = getCustomVjp(current)) {
      worklist.push_back(custom->forward);
      worklist.push_back(custom->backward);
    }
    worklist.push_back(getCustomJvp(current));
    bool blocked = false;
    current.walk([&](Operation *op) {
      if (pending.contains(op))
        blocked = true;
      if (func::FuncOp callee = calleeOf(op, symbols))
        worklist.push_back(callee);
    });
    if (blocked)
      return false;
  }
  return true;
}

LogicalResult AutoDiffPass::rewrite(GradientRequestOpInterface request,
                                    Differentiator &differentiator,
                                    SymbolTable &symbols) {
  Operation *op = request;
  FlatSymbolRefAttr callee = request.getCalleeAttr();
  func::FuncOp f = calleeOf(op, symbols);

  FailureOr<Differentiated> generated =
      differentiator.differentiate(f, request.getWrt());
  if (failed(generated))
    return op->emitOpError("cannot differentiate ") << callee;
  if (request.getUnconnected() == Unconnected::error &&
      !generated->unconnected.empty()) {
    InFlightDiagnostic diag = op->emitOpError("argument");
    if (generated->unconnected.size() > 1)
      diag << "s";
    for (auto [i, index] : llvm::enumerate(generated->unconnected))
      diag << (i ? ", " : " ") << index;
    return diag << " of " << callee
                << (generated->unconnected.size() > 1 ? " do" : " does")
                << " not influence its results (unconnected = error)";
  }

  OpBuilder builder(op);
  Location loc = op->getLoc();
  GradientFunctions &fns = generated->functions;
  SmallVector<Value> forwardArgs(request.getArgs());
  if (failed(appendToken(request, fns.forward, builder, forwardArgs)))
    return failure();
  auto forward = func::CallOp::create(builder, loc, fns.forward, forwardArgs);
  unsigned numResults = f.getNumResults();
  ValueRange primalResults = forward.getResults().take_front(numResults);
  ValueRange residuals = forward.getResults().drop_front(numResults);
  // An ordered forward function returns its token last.
  Value token;
  if (forwardArgs.size() > request.getArgs().size()) {
    token = residuals.back();
    residuals = residuals.drop_back();
  }

  // The request says how the backward sweep is seeded and which values it
  // yields (GradientRequestOpInterface).
  SmallVector<Value> backwardArgs(residuals);
  llvm::append_range(backwardArgs,
                     request.buildSeedCotangents(builder, f.getResultTypes()));
  auto backward = func::CallOp::create(builder, loc, fns.backward, backwardArgs);
  SmallVector<Value> replacements =
      request.getResultReplacements(primalResults, backward.getResults());
  if (request.getUnconnected() == Unconnected::none &&
      failed(checkNoneUnused(request, generated->unconnected,
                             backward.getResults(), replacements))) {
    backward.erase();
    forward.erase();
    return failure();
  }
  // The op's token stands for what its callee does to state: now the
  // forward call's.
  if (request.getControl()) {
    waitForToken(builder, op, forward, token, replacements);
    replacements.push_back(token);
  }
  op->replaceAllUsesWith(replacements);
  op->erase();
  return success();
}

/// Forward mode: the request becomes one call of __jvp_f(args...,
/// tangents...), whose results (f's results, then their tangents) replace
/// the request's.
LogicalResult AutoDiffPass::rewriteForward(GradientRequestOpInterface request,
                                           TangentGenerator &tangents,
                                           SymbolTable &symbols) {
  Operation *op = request;
  func::FuncOp f = calleeOf(op, symbols);
  FailureOr<func::FuncOp> jvp = tangents.jvp(f, request.getWrt());
  if (failed(jvp))
    return op->emitOpError("cannot differentiate ")
           << request.getCalleeAttr() << " in forward mode";
  OpBuilder builder(op);
  SmallVector<Value> args(request.getArgs());
  llvm::append_range(args,
                     request.buildSeedCotangents(builder, f.getResultTypes()));
  unsigned numArgs = args.size();
  if (failed(appendToken(request, *jvp, builder, args)))
    return failure();
  auto call = func::CallOp::create(builder, op->getLoc(), *jvp, args);
  unsigned numResults = f.getNumResults();
  ValueRange tangentResults = call.getResults().drop_front(numResults);
  // An ordered __jvp function returns its token last.
  Value token;
  if (args.size() > numArgs) {
    token = tangentResults.back();
    tangentResults = tangentResults.drop_back();
  }
  SmallVector<Value> replacements = request.getResultReplacements(
      call.getResults().take_front(numResults), tangentResults);
  if (request.getControl())
    replacements.push_back(token);
  op->replaceAllUsesWith(replacements);
  op->erase();
  return success();
}

void AutoDiffPass::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTable symbols(module);
  Differentiator differentiator(module, remat);
  TangentGenerator tangents(differentiator.symbolTable());

  Batcher batcher(differentiator.symbolTable());

  // The gradient ops and the trace.vmap ops (batched here, as trace-vmap
  // does, once no gradient op is pending in their callees).
  SmallVector<Operation *> requests;
  DenseSet<Operation *> pending;
  module.walk([&](Operation *op) {
    if (isa<GradientRequestOpInterface, VmapOp>(op)) {
      requests.push_back(op);
      pending.insert(op);
    }
  });
  // In order of first request, so generated names do not depend on
  // pointer values.
  llvm::SetVector<func::FuncOp> differentiated;

  // Innermost first: each round rewrites every request whose callee is
  // free of pending gradient and vmap ops.
  while (!requests.empty()) {
    SmallVector<Operation *> blocked;
    bool progress = false;
    for (Operation *op : requests) {
      func::FuncOp f = calleeOf(op, symbols);
      if (!isReady(f, pending, symbols)) {
        blocked.push_back(op);
        continue;
      }
      pending.erase(op);
      progress = true;
      if (auto vmap = dyn_cast<VmapOp>(op)) {
        if (failed(batcher.rewrite(vmap)))
          return signalPassFailure();
        continue;
      }
      auto request = cast<GradientRequestOpInterface>(op);
      if (request.isForwardMode()) {
        if (failed(rewriteForward(request, tangents, symbols)))
          return signalPassFailure();
        continue;
      }
      if (failed(rewrite(request, differentiator, symbols)))
        return signalPassFailure();
      differentiated.insert(f);
    }
    if (!progress) {
      blocked.front()->emitOpError(
          "cannot be rewritten: its callee reaches this op again (a cycle "
          "of gradient or vmap ops)");
      return signalPassFailure();
    }
    requests = std::move(blocked);
  }

  // __inference_f: the primal alone, for the plain calls of each
  // differentiated f.
  for (func::FuncOp f : differentiated) {
    OpBuilder builder(f);
    builder.setInsertionPointAfter(f);
    auto inference = cast<func::FuncOp>(builder.clone(*f));
    inference.setSymName(
        differentiator.uniqueName(("__inference_" + f.getSymName()).str()));
    inference.setPrivate();
    symbols.insert(inference);
    auto inferenceRef = FlatSymbolRefAttr::get(inference);
    module.walk([&](CallOpInterface call) {
      if (calleeOf(call, symbols) == f &&
          call->getParentOfType<func::FuncOp>() != inference)
        call.setCalleeFromCallable(inferenceRef);
    });
  }

  // The calls of custom-VJP functions made for their results next to the
  // calls of their forward rules (CallGradient::emitPrimal) compute the
  // forward rules' leading results again: use those.
  SmallVector<func::CallOp> primalCalls;
  module.walk([&](func::CallOp call) {
    if (call->removeAttr(kCustomVjpPrimalAttrName))
      primalCalls.push_back(call);
  });
  for (func::CallOp call : primalCalls) {
    func::FuncOp forward = getCustomVjp(calleeOf(call, symbols))->forward;
    for (Operation *before = call->getPrevNode(); before;
         before = before->getPrevNode()) {
      auto candidate = dyn_cast<func::CallOp>(before);
      if (!candidate || candidate.getCallee() != forward.getSymName() ||
          candidate.getOperands() != call.getOperands())
        continue;
      call.replaceAllUsesWith(
          candidate.getResults().take_front(call.getNumResults()));
      call.erase();
      break;
    }
  }

  // trace.custom_vjp, trace.custom_jvp and trace.checkpoint have done
  // their work: later passes change the functions' types (bufferization),
  // which the attributes' verifier would then reject.
  for (auto f : module.getOps<func::FuncOp>()) {
    f->removeAttr(kCustomVjpAttrName);
    f->removeAttr(kCustomJvpAttrName);
    f->removeAttr(kCheckpointAttrName);
  }
}
