//===- OutlineKernels.cpp - Top-level loop nests as kernel functions ------===//
//
// Each loop nest at the top level of a function body moves into a private,
// noinline function of its own, marked for LLVM with the kind of code it
// holds (see Passes.td and CpuTarget.h for why).
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/CPU/Passes.h"

#include "tracec/Codegen/CPU/CpuTarget.h"

#include "KernelEquivalence.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEOUTLINEKERNELS
#include "tracec/Codegen/CPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

/// A loop, or an op whose regions hold one (a parallel region, an scf.if
/// around loops): the unit of work a kernel is made of.
static bool isLoopNest(Operation *op) {
  if (op->getNumRegions() == 0)
    return false;
  if (isa<LoopLikeOpInterface>(op))
    return true;
  WalkResult found =
      op->walk([&](LoopLikeOpInterface) { return WalkResult::interrupt(); });
  return found.wasInterrupted();
}

/// Values a kernel can take as arguments once lowered to LLVM.
static bool isPassable(Type type) {
  return isa<MemRefType, IndexType, IntegerType, FloatType, VectorType,
             LLVM::LLVMPointerType>(type);
}

static bool holdsVectors(Operation *op) {
  WalkResult found = op->walk([](Operation *nested) {
    // Micro-kernel calls (trace-cpu-lower-to-ukernels): nothing left for
    // LLVM's loop passes, as in vectorized code.
    if (auto call = dyn_cast<func::CallOp>(nested);
        call && call.getCallee().starts_with("tracec_uk_"))
      return WalkResult::interrupt();
    auto isVector = [](Type type) { return isa<VectorType>(type); };
    if (llvm::any_of(nested->getResultTypes(), isVector) ||
        llvm::any_of(nested->getOperandTypes(), isVector))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

using trace::KernelSet;

/// Moves `nest` into a new function after `lastKernel` (after `parent`
/// for its first) and calls it in its place, or calls an equal kernel of
/// `kernels` if there is one. Constants it uses are cloned
/// in; other values it uses from above become arguments. Leaves it in place
/// if one of them cannot be passed.
static void outline(Operation *nest, func::FuncOp parent, SymbolTable &symbols,
                    KernelSet &kernels, Operation *&lastKernel) {
  SetVector<Value> used;
  for (Value operand : nest->getOperands())
    used.insert(operand);
  getUsedValuesDefinedAbove(nest->getRegions(), used);

  SmallVector<Value> arguments;
  SmallVector<Operation *> constants;
  for (Value value : used) {
    Operation *def = value.getDefiningOp();
    if (def && def->hasTrait<OpTrait::ConstantLike>()) {
      constants.push_back(def);
      continue;
    }
    if (!isPassable(value.getType()))
      return;
    arguments.push_back(value);
  }

  MLIRContext *context = nest->getContext();
  OpBuilder builder(context);
  builder.setInsertionPointAfter(lastKernel ? lastKernel : parent);
  auto type = FunctionType::get(context, ValueRange(arguments).getTypes(),
                                nest->getResultTypes());
  auto kernel = func::FuncOp::create(
      builder, nest->getLoc(), (parent.getSymName() + "_kernel").str(), type);
  kernel.setPrivate();
  // Internal in LLVM too, so identical kernels (the same op in a forward
  // function and a training step) can be merged into one.
  kernel->setAttr("llvm.linkage",
                  LLVM::LinkageAttr::get(context, LLVM::Linkage::Internal));
  kernel->setAttr(
      "passthrough",
      builder.getArrayAttr(
          {builder.getStringAttr("noinline"),
           builder.getArrayAttr(
               {builder.getStringAttr(tracec::kKernelAttrName),
                builder.getStringAttr(holdsVectors(nest)
                                          ? tracec::kVectorKernel
                                          : tracec::kScalarKernel)})}));
  Block *entry = kernel.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  IRMapping mapping;
  mapping.map(arguments, entry->getArguments());
  for (Operation *constant : constants)
    builder.clone(*constant, mapping);
  Operation *moved = builder.clone(*nest, mapping);
  func::ReturnOp::create(builder, nest->getLoc(), moved->getResults());

  auto [existing, isNew] = kernels.insert(kernel);
  if (isNew) {
    // Inserting makes the name unique: _kernel, _kernel_0, ...
    symbols.insert(kernel);
    lastKernel = kernel;
  } else {
    kernel.erase();
    kernel = *existing;
  }

  builder.setInsertionPoint(nest);
  auto call = func::CallOp::create(builder, nest->getLoc(), kernel, arguments);
  nest->replaceAllUsesWith(call.getResults());
  nest->erase();
}

namespace {

struct OutlineKernelsPass
    : mlir::trace::impl::TraceOutlineKernelsBase<OutlineKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    KernelSet kernels;
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    for (func::FuncOp function : functions) {
      // Bodies are structured (one block) until scf-to-cf.
      if (function.isExternal() || !function.getBody().hasOneBlock())
        continue;
      SmallVector<Operation *> nests;
      for (Operation &op : function.getBody().front())
        if (isLoopNest(&op))
          nests.push_back(&op);
      // One nest gains nothing from a function of its own (a single eager
      // op: a second function only costs code generation time), but in a
      // kernel on tensors it is the kernel LLVM must know as one.
      if (nests.size() < 2 && !function->hasAttr(tracec::kTensorKernelAttrName))
        continue;
      Operation *lastKernel = nullptr;
      for (Operation *nest : nests)
        outline(nest, function, symbols, kernels, lastKernel);
    }
  }
};

} // namespace
