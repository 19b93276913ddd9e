//===- DedupKernels.cpp - One function for each op repeated on tensors ----===//
//
// A graph unrolled over steps repeats each step's ops. Outlined on tensors,
// before tiling, each distinct op becomes one function that every copy
// calls, so the rest of the pipeline and LLVM compile it once (see
// Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/CPU/Passes.h"

#include "tracec/Codegen/CPU/CpuTarget.h"
#include "tracec/Transforms/Bufferization/Passes.h"

#include "KernelEquivalence.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"

#include <deque>

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEDEDUPKERNELS
#include "tracec/Codegen/CPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

/// Values a kernel on tensors takes and gives: static tensors (their
/// buffers then have static types at the call) and scalars.
static bool isPassable(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.hasStaticShape();
  return type.isIntOrIndexOrFloat();
}

/// Work worth a function: a linalg op (a contraction, a pack, an
/// elementwise op, a reduction) or an scf loop or branch over them,
/// computing on tensors only.
static bool isWork(Operation *op) {
  if (!isa<linalg::LinalgDialect, scf::SCFDialect>(op->getDialect()) ||
      op->getNumResults() == 0 || !isMemoryEffectFree(op))
    return false;
  return llvm::all_of(op->getOperandTypes(), isPassable) &&
         llvm::all_of(op->getResultTypes(), isPassable);
}

namespace {
/// A chain of work (`ops`, in block order; the last one's results are the
/// only ones used outside it) outlined into `kernel` (not yet in the
/// module), which takes `arguments`.
struct Candidate {
  SmallVector<Operation *> ops;
  func::FuncOp kernel;
  SmallVector<Value> arguments;

  Operation *root() const { return ops.back(); }
};
} // namespace

/// `ops` as a function of the values they use from outside (each once);
/// empty tensors and constants are cloned in, so their values are part of
/// the kernel's body (and of its equality with others). Fails if a value
/// cannot be passed.
static FailureOr<Candidate> makeCandidate(ArrayRef<Operation *> ops,
                                          StringRef parent) {
  DenseSet<Operation *> members(ops.begin(), ops.end());
  SetVector<Value> used;
  for (Operation *op : ops) {
    for (Value operand : op->getOperands())
      if (!members.contains(operand.getDefiningOp()))
        used.insert(operand);
    getUsedValuesDefinedAbove(op->getRegions(), used);
  }
  Candidate candidate{llvm::to_vector(ops), nullptr, {}};
  SmallVector<Operation *> cloned;
  for (Value value : used) {
    Operation *def = value.getDefiningOp();
    if (def && (def->hasTrait<OpTrait::ConstantLike>() ||
                (isa<tensor::EmptyOp>(def) && def->getNumOperands() == 0))) {
      cloned.push_back(def);
      continue;
    }
    if (!isPassable(value.getType()))
      return failure();
    candidate.arguments.push_back(value);
  }

  Operation *root = candidate.root();
  MLIRContext *context = root->getContext();
  OpBuilder builder(context);
  std::string name = (parent + "_" + root->getName().getStringRef()).str();
  llvm::replace(name, '.', '_');
  auto type =
      FunctionType::get(context, ValueRange(candidate.arguments).getTypes(),
                        root->getResultTypes());
  candidate.kernel = func::FuncOp::create(builder, root->getLoc(), name, type);
  Block *entry = candidate.kernel.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  IRMapping mapping;
  mapping.map(candidate.arguments, entry->getArguments());
  for (Operation *def : cloned)
    builder.clone(*def, mapping);
  for (Operation *op : ops)
    builder.clone(*op, mapping);
  func::ReturnOp::create(builder, root->getLoc(),
                         mapping.lookup(root)->getResults());
  return candidate;
}

/// The chains of work in `block`: an op joins the chain of its one user
/// when that user is work too (a fill into its contraction, a pack into it,
/// an unpack after it, the elementwise op after that), so what the
/// contraction passes fuse stays in one function. Each chain in block
/// order; its last op's results are its only ones used outside it.
static SmallVector<SmallVector<Operation *>> findChains(Block &block) {
  llvm::EquivalenceClasses<Operation *> chains;
  SmallVector<Operation *> work;
  for (Operation &op : block) {
    if (!isWork(&op))
      continue;
    work.push_back(&op);
    chains.insert(&op);
    if (!op.hasOneUse())
      continue;
    Operation *user = *op.getUsers().begin();
    if (user->getBlock() == &block && isWork(user))
      chains.unionSets(&op, user);
  }
  llvm::MapVector<Operation *, SmallVector<Operation *>> byLeader;
  for (Operation *op : work)
    byLeader[chains.getLeaderValue(op)].push_back(op);
  SmallVector<SmallVector<Operation *>> result;
  for (auto &[leader, ops] : byLeader)
    result.push_back(std::move(ops));
  return result;
}

namespace {

struct DedupKernelsPass
    : mlir::trace::impl::TraceDedupKernelsBase<DedupKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = module.getContext();
    // Candidates grouped by equal kernels; the first one's kernel is kept.
    std::deque<Candidate> candidates;
    llvm::MapVector<
        func::FuncOp, SmallVector<Candidate *>,
        llvm::DenseMap<func::FuncOp, unsigned, trace::KernelEquivalence>>
        groups;
    for (auto function : module.getOps<func::FuncOp>()) {
      if (function.isExternal() || !function.getBody().hasOneBlock())
        continue;
      for (ArrayRef<Operation *> chain :
           findChains(function.getBody().front())) {
        FailureOr<Candidate> candidate =
            makeCandidate(chain, function.getSymName());
        if (failed(candidate))
          continue;
        candidates.push_back(*candidate);
        groups[candidate->kernel].push_back(&candidates.back());
      }
    }

    SymbolTable symbols(module);
    OpBuilder builder(context);
    // Results of the ops already replaced, which later copies may take.
    DenseMap<Value, Value> replaced;
    for (auto &[kernel, copies] : groups) {
      // A chain that occurs once keeps its place: in-place reuse of its
      // inputs' buffers is worth more than a function.
      if (copies.size() < 2)
        continue;
      kernel.setPrivate();
      kernel->setAttr(tracec::kTensorKernelAttrName, builder.getUnitAttr());
      kernel->setAttr(trace::kBorrowsArgumentsAttrName, builder.getUnitAttr());
      // Internal in LLVM, so its constant arguments can be dropped (see
      // MachineCode.cpp) and equal kernels merged.
      kernel->setAttr("llvm.linkage",
                      LLVM::LinkageAttr::get(context, LLVM::Linkage::Internal));
      kernel->setAttr("passthrough", builder.getArrayAttr(
                                         {builder.getStringAttr("noinline")}));
      // Inserting makes the name unique.
      symbols.insert(kernel);
      for (Candidate *copy : copies) {
        Operation *root = copy->root();
        builder.setInsertionPoint(root);
        SmallVector<Value> arguments =
            llvm::map_to_vector(copy->arguments, [&](Value value) {
              return replaced.lookup_or(value, value);
            });
        auto call =
            func::CallOp::create(builder, root->getLoc(), kernel, arguments);
        for (auto [from, to] : llvm::zip(root->getResults(), call.getResults()))
          replaced[from] = to;
        root->replaceAllUsesWith(call.getResults());
        for (Operation *op : llvm::reverse(copy->ops))
          op->erase();
      }
    }
    for (Candidate &candidate : candidates)
      if (!candidate.kernel->getParentOp())
        candidate.kernel.erase();
  }
};

} // namespace
