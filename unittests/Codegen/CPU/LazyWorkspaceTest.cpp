//===- LazyWorkspaceTest.cpp - Workspaces allocated by the first call -----===//
//
// allocateWorkspacesOnFirstUse turns trace-plan-workspace's .bss globals
// into pointers the first call allocates, and adds the function that frees
// them. Run here: two calls share one allocation, the release frees it and
// a later call allocates anew. Once optimized, a function's stack buffers
// stay static allocas.
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/CPU/LazyWorkspace.h"

#include "tracec/Codegen/CPU/CpuTarget.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace {

/// @f stores its argument at byte 5000 of the workspace and returns the
/// workspace's address; the busy flag (initialized) is not a workspace.
constexpr const char *kModule = R"(
@__trace_workspace_f = internal global [8192 x i8] undef, align 64
@__trace_workspace_busy_f = internal global i32 0

define ptr @f(i8 %value) {
  %slot = getelementptr i8, ptr @__trace_workspace_f, i64 5000
  store i8 %value, ptr %slot
  store i32 1, ptr @__trace_workspace_busy_f
  ret ptr @__trace_workspace_f
}

define i8 @g() {
  %slot = getelementptr i8, ptr @__trace_workspace_f, i64 5000
  %value = load i8, ptr %slot
  ret i8 %value
}
)";

std::unique_ptr<llvm::Module> parse(llvm::LLVMContext &context) {
  llvm::SMDiagnostic error;
  auto module = llvm::parseAssemblyString(kModule, error, context);
  EXPECT_TRUE(module) << error.getMessage().str();
  return module;
}

TEST(LazyWorkspace, WorkspacesBecomePointers) {
  llvm::LLVMContext context;
  auto module = parse(context);
  ASSERT_TRUE(tracec::allocateWorkspacesOnFirstUse(*module));
  std::string errors;
  llvm::raw_string_ostream os(errors);
  ASSERT_FALSE(llvm::verifyModule(*module, &os)) << errors;
  EXPECT_FALSE(module->getNamedGlobal("__trace_workspace_f"));
  EXPECT_TRUE(module->getNamedGlobal("__trace_workspace_f.ptr"));
  EXPECT_TRUE(module->getNamedGlobal("__trace_workspace_busy_f"));
  llvm::Function *release =
      module->getFunction(tracec::kReleaseWorkspacesSymbol);
  ASSERT_TRUE(release);
  EXPECT_FALSE(release->hasLocalLinkage());
}

TEST(LazyWorkspace, ModuleWithoutWorkspacesIsLeftAlone) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  auto module = llvm::parseAssemblyString("define void @f() { ret void }",
                                          error, context);
  ASSERT_TRUE(module);
  EXPECT_FALSE(tracec::allocateWorkspacesOnFirstUse(*module));
  EXPECT_FALSE(module->getFunction(tracec::kReleaseWorkspacesSymbol));
}

TEST(LazyWorkspace, FirstCallAllocatesReleaseFrees) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = parse(*context);
  ASSERT_TRUE(tracec::allocateWorkspacesOnFirstUse(*module));
  auto jit = llvm::orc::LLJITBuilder().create();
  ASSERT_TRUE(bool(jit)) << llvm::toString(jit.takeError());
  auto &main = (*jit)->getMainJITDylib();
  auto process =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
          (*jit)->getDataLayout().getGlobalPrefix());
  ASSERT_TRUE(bool(process));
  main.addGenerator(std::move(*process));
  ASSERT_FALSE(bool((*jit)->addIRModule(
      llvm::orc::ThreadSafeModule(std::move(module), std::move(context)))));
  auto lookup = [&](const char *name) {
    auto address = (*jit)->lookup(name);
    EXPECT_TRUE(bool(address)) << llvm::toString(address.takeError());
    return address ? address->toPtr<void *>() : nullptr;
  };
  auto f = reinterpret_cast<void *(*)(char)>(lookup("f"));
  auto g = reinterpret_cast<char (*)()>(lookup("g"));
  auto release = reinterpret_cast<void (*)()>(
      lookup(tracec::kReleaseWorkspacesSymbol));
  ASSERT_TRUE(f && g && release);

  void *first = f(42);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % 64, 0u);
  EXPECT_EQ(g(), 42); // the same workspace in another function
  EXPECT_EQ(f(7), first);
  EXPECT_EQ(g(), 7);
  release();
  void *second = f(9);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(g(), 9);
  release();
}

/// A training step as the OpenMP translation leaves it: the arguments of a
/// parallel region in stack buffers at the top of the entry block (one
/// after other code), the workspace used below them.
constexpr const char *kStackBuffers = R"(
@__trace_workspace_step = internal global [4096 x i8] undef, align 64

declare void @fork(ptr, ptr)

define void @step(float %x) {
entry:
  %args = alloca { ptr, float }, align 8
  %y = fadd float %x, 1.0
  %more = alloca { ptr, float }, align 8
  store ptr @__trace_workspace_step, ptr %args
  %px = getelementptr i8, ptr %args, i64 8
  store float %x, ptr %px
  %slot = getelementptr i8, ptr @__trace_workspace_step, i64 64
  store ptr %slot, ptr %more
  %py = getelementptr i8, ptr %more, i64 8
  store float %y, ptr %py
  call void @fork(ptr %args, ptr %more)
  ret void
}
)";

// The getter call goes below the entry block's allocas: LLVM inlines it,
// splitting the block at the call, and an alloca below it would become a
// dynamic one, a stack adjustment at run time. After those, x86 code
// passes a kernel's vector arguments (64-byte aligned) on a misaligned
// stack: a vmovaps that faults (issue 29).
TEST(LazyWorkspace, StackBuffersStayStatic) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  auto module = llvm::parseAssemblyString(kStackBuffers, error, context);
  ASSERT_TRUE(module) << error.getMessage().str();
  ASSERT_TRUE(tracec::allocateWorkspacesOnFirstUse(*module));
  std::string errors;
  llvm::raw_string_ostream os(errors);
  ASSERT_FALSE(llvm::verifyModule(*module, &os)) << errors;
  auto machine = tracec::createCpuTargetMachine("x86-64-v3");
  ASSERT_TRUE(bool(machine)) << llvm::toString(machine.takeError());
  module->setDataLayout((*machine)->createDataLayout());
  module->setTargetTriple((*machine)->getTargetTriple());
  ASSERT_FALSE(bool(tracec::optimizeCpuModule(*module, **machine, 3)));

  llvm::Function *step = module->getFunction("step");
  ASSERT_TRUE(step);
  // The getter was inlined: the case that splits the entry block.
  EXPECT_FALSE(module->getFunction("__trace_workspace_step.ptr.get"));
  std::string text;
  llvm::raw_string_ostream printed(text);
  step->print(printed);
  unsigned allocas = 0;
  for (llvm::Instruction &instruction : llvm::instructions(*step))
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction)) {
      ++allocas;
      EXPECT_TRUE(alloca->isStaticAlloca()) << "a dynamic alloca in:\n" << text;
    }
  EXPECT_EQ(allocas, 2u);
}

} // namespace
