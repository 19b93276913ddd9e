//===- OptimizeCpuModuleTest.cpp - LLVM's pipeline per kind of kernel -----===//
//
// optimizeCpuModule runs LLVM's standard pipeline on scalar code (which
// vectorizes its loops) and only a scalar cleanup on the kernels that
// trace-cpu-outline-kernels marks as vectorized already.
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/CPU/CpuTarget.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace {

/// The same scalar loop (y[i] = x[i] * 2 over 1024 floats, a loop LLVM's
/// vectorizer takes) in a kernel of each kind and in an unmarked function.
constexpr const char *kModule = R"(
define void @@NAME(ptr noalias %x, ptr noalias %y) #@ATTRS {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %px = getelementptr float, ptr %x, i64 %i
  %v = load float, ptr %px
  %w = fmul float %v, 2.0
  %py = getelementptr float, ptr %y, i64 %i
  store float %w, ptr %py
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 1024
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
)";

std::string function(const std::string &name, int attrs) {
  std::string text = kModule;
  text.replace(text.find("@NAME"), 5, name);
  text.replace(text.find("@ATTRS"), 6, std::to_string(attrs));
  return text;
}

std::string printed(const llvm::Function &f) {
  std::string text;
  llvm::raw_string_ostream os(text);
  f.print(os);
  return text;
}

TEST(OptimizeCpuModule, VectorKernelsGetOnlyTheCleanup) {
  auto machine = tracec::createCpuTargetMachine("x86-64-v3");
  ASSERT_TRUE(bool(machine)) << llvm::toString(machine.takeError());
  std::string text = function("vector_kernel", 0) +
                     function("scalar_kernel", 1) + function("plain", 2) +
                     R"(
attributes #0 = { noinline "tracec-kernel"="vector" }
attributes #1 = { noinline "tracec-kernel"="scalar" }
attributes #2 = { noinline }
)";
  llvm::LLVMContext context;
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(text, diagnostic, context);
  ASSERT_TRUE(module) << diagnostic.getMessage().str();
  module->setDataLayout((*machine)->createDataLayout());
  module->setTargetTriple((*machine)->getTargetTriple());

  llvm::Error error = tracec::optimizeCpuModule(*module, **machine, 3);
  ASSERT_FALSE(bool(error)) << llvm::toString(std::move(error));

  // The standard pipeline vectorized the loops outside vector kernels.
  for (const char *name : {"scalar_kernel", "plain"}) {
    std::string code = printed(*module->getFunction(name));
    EXPECT_NE(code.find("x float>"), std::string::npos) << code;
  }
  // The vector kernel's loop stays as written, and the kernel is left
  // optimizable for code generation (no optnone).
  llvm::Function *kernel = module->getFunction("vector_kernel");
  std::string code = printed(*kernel);
  EXPECT_EQ(code.find("x float>"), std::string::npos) << code;
  EXPECT_NE(code.find("fmul float"), std::string::npos) << code;
  EXPECT_FALSE(kernel->hasFnAttribute(llvm::Attribute::OptimizeNone));
}

TEST(OptimizeCpuModule, IdenticalKernelsAreMerged) {
  auto machine = tracec::createCpuTargetMachine("x86-64-v3");
  ASSERT_TRUE(bool(machine)) << llvm::toString(machine.takeError());
  // Two internal kernels with the same body (the same op in a forward
  // function and a training step), each called once.
  std::string kernels = function("k1", 0) + function("k2", 0);
  for (const char *name : {"@k1(", "@k2("})
    kernels.replace(kernels.find(std::string("void ") + name), 5,
                    "internal void ");
  std::string text = kernels + R"(
define void @entry(ptr %x, ptr %y) {
  call void @k1(ptr %x, ptr %y)
  call void @k2(ptr %y, ptr %x)
  ret void
}
attributes #0 = { noinline "tracec-kernel"="vector" }
)";
  llvm::LLVMContext context;
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(text, diagnostic, context);
  ASSERT_TRUE(module) << diagnostic.getMessage().str();
  llvm::Error error = tracec::optimizeCpuModule(*module, **machine, 3);
  ASSERT_FALSE(bool(error)) << llvm::toString(std::move(error));
  int kernelsLeft = 0;
  for (const llvm::Function &f : *module)
    kernelsLeft += f.hasFnAttribute("tracec-kernel") && !f.isDeclaration();
  EXPECT_EQ(kernelsLeft, 1);
  // Both calls remain, to the one kernel.
  std::string entry = printed(*module->getFunction("entry"));
  size_t first = entry.find("void @k1(ptr %x, ptr %y)");
  ASSERT_NE(first, std::string::npos) << entry;
  EXPECT_NE(entry.find("void @k1(ptr %y, ptr %x)"), std::string::npos)
      << entry;
}

TEST(OptimizeCpuModule, LevelZeroChangesNothing) {
  auto machine = tracec::createCpuTargetMachine("x86-64-v3", 0);
  ASSERT_TRUE(bool(machine)) << llvm::toString(machine.takeError());
  llvm::LLVMContext context;
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(
      function("plain", 0) + "attributes #0 = { noinline }\n", diagnostic,
      context);
  ASSERT_TRUE(module) << diagnostic.getMessage().str();
  std::string before = printed(*module->getFunction("plain"));
  llvm::Error error = tracec::optimizeCpuModule(*module, **machine, 0);
  ASSERT_FALSE(bool(error)) << llvm::toString(std::move(error));
  EXPECT_EQ(printed(*module->getFunction("plain")), before);
}

} // namespace
