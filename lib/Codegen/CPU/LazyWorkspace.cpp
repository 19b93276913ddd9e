//===- LazyWorkspace.cpp - Workspaces allocated by the first call ---------===//

#include "tracec/Codegen/CPU/LazyWorkspace.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/ReplaceConstant.h"

using namespace llvm;

/// The workspaces of trace-plan-workspace: `__trace_workspace_<function>`
/// globals without an initial value (its busy flags start at 0).
static bool isWorkspace(const GlobalVariable &global) {
  return global.getName().starts_with("__trace_workspace_") &&
         global.hasInitializer() && isa<UndefValue>(global.getInitializer()) &&
         !global.isConstant();
}

/// `ptr @<workspace>.get()`: the workspace, allocated by the first caller.
static Function *defineGetter(Module &module, GlobalVariable &pointer,
                              uint64_t bytes, uint64_t alignment,
                              FunctionCallee alignedAlloc, FunctionCallee free,
                              FunctionCallee abort) {
  LLVMContext &context = module.getContext();
  Type *ptr = PointerType::getUnqual(context);
  Type *size = module.getDataLayout().getIntPtrType(context);
  auto *getter = Function::Create(FunctionType::get(ptr, false),
                                  GlobalValue::InternalLinkage,
                                  pointer.getName() + ".get", module);
  auto *entry = BasicBlock::Create(context, "entry", getter);
  auto *allocate = BasicBlock::Create(context, "allocate", getter);
  auto *failed = BasicBlock::Create(context, "failed", getter);
  auto *publish = BasicBlock::Create(context, "publish", getter);
  auto *lost = BasicBlock::Create(context, "lost", getter);
  auto *done = BasicBlock::Create(context, "done", getter);

  IRBuilder<> b(entry);
  LoadInst *current = b.CreateLoad(ptr, &pointer);
  current->setAtomic(AtomicOrdering::Acquire);
  current->setAlignment(Align(8));
  b.CreateCondBr(b.CreateIsNull(current), allocate, done);

  // aligned_alloc wants a multiple of the alignment.
  b.SetInsertPoint(allocate);
  uint64_t rounded = alignTo(bytes, alignment);
  Value *memory = b.CreateCall(alignedAlloc, {ConstantInt::get(size, alignment),
                                              ConstantInt::get(size, rounded)});
  b.CreateCondBr(b.CreateIsNull(memory), failed, publish);

  b.SetInsertPoint(failed);
  b.CreateCall(abort);
  b.CreateUnreachable();

  // A concurrent first call may have won: use its memory, free ours.
  b.SetInsertPoint(publish);
  AtomicCmpXchgInst *exchange = b.CreateAtomicCmpXchg(
      &pointer, ConstantPointerNull::get(cast<PointerType>(ptr)), memory,
      Align(8), AtomicOrdering::AcquireRelease, AtomicOrdering::Acquire);
  Value *won = b.CreateExtractValue(exchange, 1);
  Value *winner = b.CreateExtractValue(exchange, 0);
  b.CreateCondBr(won, done, lost);

  b.SetInsertPoint(lost);
  b.CreateCall(free, {memory});
  b.CreateBr(done);

  b.SetInsertPoint(done);
  PHINode *result = b.CreatePHI(ptr, 3);
  result->addIncoming(current, entry);
  result->addIncoming(memory, publish);
  result->addIncoming(winner, lost);
  b.CreateRet(result);
  return getter;
}

bool tracec::allocateWorkspacesOnFirstUse(Module &module) {
  SmallVector<GlobalVariable *> workspaces;
  for (GlobalVariable &global : module.globals())
    if (isWorkspace(global))
      workspaces.push_back(&global);
  if (workspaces.empty())
    return false;

  LLVMContext &context = module.getContext();
  const DataLayout &layout = module.getDataLayout();
  Type *ptr = PointerType::getUnqual(context);
  Type *size = layout.getIntPtrType(context);
  FunctionCallee alignedAlloc = module.getOrInsertFunction(
      "aligned_alloc", FunctionType::get(ptr, {size, size}, false));
  FunctionCallee free = module.getOrInsertFunction(
      "free", FunctionType::get(Type::getVoidTy(context), {ptr}, false));
  FunctionCallee abort = module.getOrInsertFunction(
      "abort", FunctionType::get(Type::getVoidTy(context), false));

  SmallVector<GlobalVariable *> pointers;
  for (GlobalVariable *workspace : workspaces) {
    auto *pointer = new GlobalVariable(
        module, ptr, /*isConstant=*/false, GlobalValue::InternalLinkage,
        ConstantPointerNull::get(cast<PointerType>(ptr)),
        workspace->getName() + ".ptr");
    pointer->setAlignment(Align(8));
    pointers.push_back(pointer);
    uint64_t alignment = std::max<uint64_t>(
        64, workspace->getAlign().valueOrOne().value());
    Function *getter = defineGetter(
        module, *pointer, layout.getTypeAllocSize(workspace->getValueType()),
        alignment, alignedAlloc, free, abort);

    // One call per function that uses the workspace, at its entry, below
    // the entry block's stack buffers (the OpenMP translation's argument
    // structs): LLVM inlines the getter, which splits the block at the
    // call, and an alloca below it would become a dynamic one, a stack
    // adjustment at run time. After those, x86 code stores a callee's
    // 64-byte aligned stack arguments (a kernel's vectors) to a misaligned
    // stack pointer.
    convertUsersOfConstantsToInstructions(workspace);
    MapVector<Function *, SmallVector<Use *>> uses;
    for (Use &use : workspace->uses())
      uses[cast<Instruction>(use.getUser())->getFunction()].push_back(&use);
    for (auto &[function, functionUses] : uses) {
      BasicBlock &entry = function->getEntryBlock();
      IRBuilder<> b(&*entry.getFirstInsertionPt());
      CallInst *memory = b.CreateCall(getter, {}, workspace->getName());
      for (Instruction &instruction : make_early_inc_range(entry))
        if (auto *alloca = dyn_cast<AllocaInst>(&instruction);
            alloca && isa<Constant>(alloca->getArraySize()) &&
            memory->comesBefore(alloca))
          alloca->moveBefore(memory->getIterator());
      for (Use *use : functionUses)
        use->set(memory);
    }
    workspace->eraseFromParent();
  }

  // Frees what the calls allocated; the JIT calls it before unloading.
  auto *release = Function::Create(
      FunctionType::get(Type::getVoidTy(context), false),
      GlobalValue::ExternalLinkage, kReleaseWorkspacesSymbol, module);
  IRBuilder<> b(BasicBlock::Create(context, "entry", release));
  for (GlobalVariable *pointer : pointers) {
    Value *memory = b.CreateAtomicRMW(
        AtomicRMWInst::Xchg, pointer,
        ConstantPointerNull::get(cast<PointerType>(ptr)), Align(8),
        AtomicOrdering::AcquireRelease);
    b.CreateCall(free, {memory});
  }
  b.CreateRetVoid();
  return true;
}
