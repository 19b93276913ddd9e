//===- AdaptiveParallel.cpp - Fork where forking was measured to pay ------===//
//
// Every top-level omp.parallel forks only while the module's mode says so,
// and every entry that forks sets the mode for its call from timings of
// its own calls: sampled serial and parallel ones, re-sampled periodically.
// The policy is LLVM dialect source added to the module, so JIT and AOT
// code carry it without a runtime library.
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/CPU/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "llvm/ADT/DenseSet.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEADAPTIVEPARALLEL
#include "tracec/Codegen/CPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

static constexpr llvm::StringLiteral kBegin = "__tracec_call_begin";
static constexpr llvm::StringLiteral kEnd = "__tracec_call_end";
static constexpr llvm::StringLiteral kFork = "__tracec_parallel_fork";

/// The module's mode (1: its regions fork) and its count of calls in
/// progress; per entry function a record [calls, fastest parallel call,
/// fastest serial call] (cycle counter ticks).
///
/// `begin` sets the mode for the call and returns a ticket: bit 0 the mode,
/// bit 1 whether the call is timed, whose start time is in the bits above.
/// A call that starts while another is in progress (a nested entry, or one
/// from another host thread) keeps the mode and is not timed. Of every
/// 1,024 calls of an entry the first resets the record and runs untimed in
/// the current mode (the first call of all forks, and pays for first
/// touches of memory, which would skew a sample); the next 8 are samples,
/// odd ones parallel. Once each way has a sample and one beats the other
/// by more than 30%, sampling stops early: sampling a 100 ms call the slow
/// way four times would cost more than the decision is worth in a short
/// run. The other calls fork when the fastest parallel call beat the
/// fastest serial one by 1/16 (a fork occupies every worker), except that
/// every 32nd runs the other way: every call is timed, so a decision taken
/// from samples that a burst on the host slowed is undone within 32 calls
/// instead of holding for the rest of the period. Where the other way lost
/// by more than 30%, only every 128th call tries it: on a machine where
/// forking costs more than it saves, trying it every 32nd would make the
/// parallel build measurably slower than the serial one. Where the target has no
/// cycle counter every time is 0 and calls always fork.
static constexpr llvm::StringLiteral kPolicy = R"mlir(
llvm.mlir.global internal @__tracec_parallel_mode(1 : i64) {alignment = 8 : i64} : i64
llvm.mlir.global internal @__tracec_calls_in_progress(0 : i64) {alignment = 8 : i64} : i64
llvm.func internal @__tracec_parallel_fork() -> i1 {
  %modeAddress = llvm.mlir.addressof @__tracec_parallel_mode : !llvm.ptr
  %mode = llvm.load %modeAddress atomic monotonic {alignment = 8 : i64} : !llvm.ptr -> i64
  %fork = llvm.trunc %mode : i64 to i1
  llvm.return %fork : i1
}
llvm.func internal @__tracec_clearly_apart(%a: i64, %b: i64) -> i1 {
  %two = llvm.mlir.constant(2 : i64) : i64
  %four = llvm.mlir.constant(4 : i64) : i64
  %lo = llvm.intr.umin(%a, %b) : (i64, i64) -> i64
  %hi = llvm.intr.umax(%a, %b) : (i64, i64) -> i64
  %quarter = llvm.lshr %hi, %two : i64
  %sixteenth = llvm.lshr %hi, %four : i64
  %lessQuarter = llvm.sub %hi, %quarter : i64
  %bar = llvm.sub %lessQuarter, %sixteenth : i64
  %apart = llvm.icmp "ule" %lo, %bar : i64
  llvm.return %apart : i1
}
llvm.func internal @__tracec_call_begin(%entry: !llvm.ptr) -> i64 {
  %zero = llvm.mlir.constant(0 : i64) : i64
  %one = llvm.mlir.constant(1 : i64) : i64
  %two = llvm.mlir.constant(2 : i64) : i64
  %modeAddress = llvm.mlir.addressof @__tracec_parallel_mode : !llvm.ptr
  %inProgress = llvm.mlir.addressof @__tracec_calls_in_progress : !llvm.ptr
  %others = llvm.atomicrmw add %inProgress, %one monotonic : !llvm.ptr, i64
  %alone = llvm.icmp "eq" %others, %zero : i64
  llvm.cond_br %alone, ^count, ^keep
^keep:
  %current = llvm.load %modeAddress atomic monotonic {alignment = 8 : i64} : !llvm.ptr -> i64
  llvm.return %current : i64
^count:
  %n = llvm.atomicrmw add %entry, %one monotonic : !llvm.ptr, i64
  %periodMask = llvm.mlir.constant(1023 : i64) : i64
  %phase = llvm.and %n, %periodMask : i64
  %parallelBest = llvm.getelementptr %entry[1] : (!llvm.ptr) -> !llvm.ptr, i64
  %serialBest = llvm.getelementptr %entry[2] : (!llvm.ptr) -> !llvm.ptr, i64
  %never = llvm.mlir.constant(-1 : i64) : i64
  %first = llvm.icmp "eq" %phase, %zero : i64
  llvm.cond_br %first, ^reset, ^sampling
^reset:
  llvm.store %never, %parallelBest atomic monotonic {alignment = 8 : i64} : i64, !llvm.ptr
  llvm.store %never, %serialBest atomic monotonic {alignment = 8 : i64} : i64, !llvm.ptr
  %untimed = llvm.load %modeAddress atomic monotonic {alignment = 8 : i64} : !llvm.ptr -> i64
  llvm.return %untimed : i64
^sampling:
  %endOfSamples = llvm.mlir.constant(9 : i64) : i64
  %sampling = llvm.icmp "ult" %phase, %endOfSamples : i64
  llvm.cond_br %sampling, ^paired, ^decide
^paired:
  %alternate = llvm.and %n, %one : i64
  %three = llvm.mlir.constant(3 : i64) : i64
  %afterPair = llvm.icmp "uge" %phase, %three : i64
  llvm.cond_br %afterPair, ^gap, ^start(%alternate : i64)
^gap:
  %p = llvm.load %parallelBest atomic monotonic {alignment = 8 : i64} : !llvm.ptr -> i64
  %s = llvm.load %serialBest atomic monotonic {alignment = 8 : i64} : !llvm.ptr -> i64
  %pKnown = llvm.icmp "ne" %p, %never : i64
  %sKnown = llvm.icmp "ne" %s, %never : i64
  %known = llvm.and %pKnown, %sKnown : i1
  %wide = llvm.call @__tracec_clearly_apart(%p, %s) : (i64, i64) -> i1
  %decisive = llvm.and %known, %wide : i1
  llvm.cond_br %decisive, ^decide, ^start(%alternate : i64)
^decide:
  %parallel = llvm.load %parallelBest atomic monotonic {alignment = 8 : i64} : !llvm.ptr -> i64
  %serial = llvm.load %serialBest atomic monotonic {alignment = 8 : i64} : !llvm.ptr -> i64
  %four = llvm.mlir.constant(4 : i64) : i64
  %margin = llvm.lshr %serial, %four : i64
  %bar = llvm.sub %serial, %margin : i64
  %pays = llvm.icmp "ule" %parallel, %bar : i64
  %clear = llvm.call @__tracec_clearly_apart(%parallel, %serial) : (i64, i64) -> i1
  %closeMask = llvm.mlir.constant(31 : i64) : i64
  %clearMask = llvm.mlir.constant(127 : i64) : i64
  %exploreMask = llvm.select %clear, %clearMask, %closeMask : i1, i64
  %explorePhase = llvm.mlir.constant(16 : i64) : i64
  %exploreSlot = llvm.and %n, %exploreMask : i64
  %explore = llvm.icmp "eq" %exploreSlot, %explorePhase : i64
  %way = llvm.xor %pays, %explore : i1
  %decision = llvm.zext %way : i1 to i64
  llvm.br ^start(%decision : i64)
^start(%fork: i64):
  llvm.store %fork, %modeAddress atomic monotonic {alignment = 8 : i64} : i64, !llvm.ptr
  %now = llvm.call_intrinsic "llvm.readcyclecounter"() : () -> i64
  %shifted = llvm.shl %now, %two : i64
  %timed = llvm.or %shifted, %two : i64
  %ticket = llvm.or %timed, %fork : i64
  llvm.return %ticket : i64
}
llvm.func internal @__tracec_call_end(%entry: !llvm.ptr, %ticket: i64) {
  %zero = llvm.mlir.constant(0 : i64) : i64
  %one = llvm.mlir.constant(1 : i64) : i64
  %two = llvm.mlir.constant(2 : i64) : i64
  %timedBit = llvm.and %ticket, %two : i64
  %timed = llvm.icmp "ne" %timedBit, %zero : i64
  llvm.cond_br %timed, ^record, ^done
^record:
  %now = llvm.call_intrinsic "llvm.readcyclecounter"() : () -> i64
  %start = llvm.lshr %ticket, %two : i64
  %nowLow = llvm.shl %now, %two : i64
  %nowShifted = llvm.lshr %nowLow, %two : i64
  %elapsed = llvm.sub %nowShifted, %start : i64
  %fork = llvm.and %ticket, %one : i64
  %slot = llvm.sub %two, %fork : i64
  %best = llvm.getelementptr %entry[%slot] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  %old = llvm.atomicrmw umin %best, %elapsed monotonic : !llvm.ptr, i64
  llvm.br ^done
^done:
  %inProgress = llvm.mlir.addressof @__tracec_calls_in_progress : !llvm.ptr
  %left = llvm.atomicrmw sub %inProgress, %one monotonic : !llvm.ptr, i64
  llvm.return
}
)mlir";

/// Adds the policy's functions to `module` unless it has them.
static LogicalResult addPolicy(ModuleOp module) {
  if (module.lookupSymbol(kBegin))
    return success();
  OwningOpRef<ModuleOp> policy =
      parseSourceString<ModuleOp>(kPolicy, module.getContext());
  if (!policy)
    return emitError(module.getLoc(),
                     "internal error: the parallel policy does not parse");
  Block *body = module.getBody();
  for (Operation &op : llvm::make_early_inc_range(*policy->getBody()))
    op.moveBefore(body, body->end());
  return success();
}

/// The functions of `module` that hold one of `regions`, or call one that
/// does.
static llvm::DenseSet<Operation *>
functionsThatFork(ModuleOp module, ArrayRef<omp::ParallelOp> regions,
                  SymbolTable &symbols) {
  llvm::DenseSet<Operation *> forking;
  for (omp::ParallelOp region : regions)
    forking.insert(region->getParentOfType<func::FuncOp>());
  for (bool grew = true; grew;) {
    grew = false;
    for (auto function : module.getOps<func::FuncOp>()) {
      if (forking.contains(function))
        continue;
      WalkResult found = function.walk([&](func::CallOp call) {
        Operation *callee = symbols.lookup(call.getCallee());
        return callee && forking.contains(callee) ? WalkResult::interrupt()
                                                  : WalkResult::advance();
      });
      if (found.wasInterrupted()) {
        forking.insert(function);
        grew = true;
      }
    }
  }
  return forking;
}

namespace {

struct AdaptiveParallelPass
    : mlir::trace::impl::TraceAdaptiveParallelBase<AdaptiveParallelPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Nested regions run serially anyway (one active level); a region
    // with its own condition keeps it.
    SmallVector<omp::ParallelOp> regions;
    module.walk([&](omp::ParallelOp region) {
      if (!region->getParentOfType<omp::ParallelOp>() && !region.getIfExpr())
        regions.push_back(region);
    });
    if (regions.empty())
      return;
    if (failed(addPolicy(module)))
      return signalPassFailure();

    MLIRContext *context = module.getContext();
    SymbolTable symbols(module);
    OpBuilder builder(context);
    auto fork = symbols.lookup<LLVM::LLVMFuncOp>(kFork);
    for (omp::ParallelOp region : regions) {
      builder.setInsertionPoint(region);
      region.getIfExprMutable().assign(
          LLVM::CallOp::create(builder, region.getLoc(), fork, ValueRange{})
              .getResult());
    }

    // Every entry (a public function) that forks times its calls.
    auto begin = symbols.lookup<LLVM::LLVMFuncOp>(kBegin);
    auto end = symbols.lookup<LLVM::LLVMFuncOp>(kEnd);
    Type i64 = IntegerType::get(context, 64);
    auto record = LLVM::LLVMArrayType::get(i64, 3);
    auto zeros = DenseElementsAttr::get(RankedTensorType::get({3}, i64),
                                        llvm::ArrayRef<int64_t>{0, 0, 0});
    llvm::DenseSet<Operation *> forking = functionsThatFork(module, regions, symbols);
    for (auto function : module.getOps<func::FuncOp>()) {
      if (function.isPrivate() || function.isExternal() ||
          !forking.contains(function))
        continue;
      // Bodies are structured (one block) until scf-to-cf.
      if (!function.getBody().hasOneBlock()) {
        function.emitError("internal error: an entry that forks has more "
                           "than one block before scf-to-cf");
        return signalPassFailure();
      }
      Location loc = function.getLoc();
      builder.setInsertionPointToEnd(module.getBody());
      auto entry = LLVM::GlobalOp::create(
          builder, loc, record, /*isConstant=*/false, LLVM::Linkage::Internal,
          ("__tracec_calls_of_" + function.getName()).str(), zeros);
      symbols.insert(entry);

      Block &body = function.getBody().front();
      builder.setInsertionPointToStart(&body);
      Value address = LLVM::AddressOfOp::create(builder, loc, entry);
      Value ticket =
          LLVM::CallOp::create(builder, loc, begin, ValueRange{address})
              .getResult();
      builder.setInsertionPoint(body.getTerminator());
      LLVM::CallOp::create(builder, loc, end, ValueRange{address, ticket});
    }
  }
};

} // namespace
