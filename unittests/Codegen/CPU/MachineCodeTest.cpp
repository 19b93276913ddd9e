//===- MachineCodeTest.cpp - Modules compiled in partitions ---------------===//
//
// compileCpuObjects splits a module into objects that, linked together,
// define each of its functions and globals exactly once: internal and
// link-once symbols become hidden external ones, defined in one partition
// and declared in the others.
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/CPU/MachineCode.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <map>

namespace {

/// An entry calling an internal kernel and a link-once helper (what
/// convert-math-to-funcs makes) that reads an internal global.
constexpr const char *kModule = R"(
@table = internal global [4 x i32] [i32 1, i32 2, i32 3, i32 4]

define internal void @kernel(ptr %y) noinline {
  store i32 7, ptr %y
  ret void
}

define linkonce_odr i32 @helper(i64 %i) {
  %p = getelementptr [4 x i32], ptr @table, i64 0, i64 %i
  %v = load i32, ptr %p
  ret i32 %v
}

define void @entry(ptr %y, i64 %i) {
  call void @kernel(ptr %y)
  %v = call i32 @helper(i64 %i)
  %q = getelementptr i32, ptr %y, i64 1
  store i32 %v, ptr %q
  ret void
}
)";

/// How many of `objects` define each symbol, and whether it is global.
std::map<std::string, int>
definitions(llvm::ArrayRef<std::unique_ptr<llvm::MemoryBuffer>> objects) {
  std::map<std::string, int> count;
  for (const auto &object : objects) {
    auto file =
        llvm::object::ObjectFile::createObjectFile(object->getMemBufferRef());
    EXPECT_TRUE(bool(file)) << llvm::toString(file.takeError());
    if (!file)
      continue;
    for (const llvm::object::SymbolRef &symbol : (*file)->symbols()) {
      auto flags = symbol.getFlags();
      auto name = symbol.getName();
      if (!flags || !name || (*flags & llvm::object::SymbolRef::SF_Undefined) ||
          !(*flags & llvm::object::SymbolRef::SF_Global))
        continue;
      ++count[name->str()];
    }
  }
  return count;
}

std::unique_ptr<llvm::Module> parse(llvm::LLVMContext &context) {
  llvm::SMDiagnostic error;
  auto module = llvm::parseAssemblyString(kModule, error, context);
  EXPECT_TRUE(module) << error.getMessage().str();
  return module;
}

TEST(CompileCpuObjects, PartitionsDefineEverySymbolOnce) {
  llvm::LLVMContext context;
  auto module = parse(context);
  ASSERT_TRUE(module);
  tracec::ObjectCompileTimes times;
  auto objects =
      tracec::compileCpuObjects(*module, "x86-64-v3", 3, /*threads=*/8, &times);
  ASSERT_TRUE(bool(objects)) << llvm::toString(objects.takeError());
  // One partition per function (three), not per thread.
  EXPECT_EQ(objects->size(), 3u);
  auto defined = definitions(*objects);
  for (const char *name : {"entry", "kernel", "helper", "table"})
    EXPECT_EQ(defined[name], 1) << name;
  EXPECT_GE(times.optimizeSeconds, 0);
  EXPECT_GE(times.codegenSeconds, 0);
}

TEST(CompileCpuObjects, OneThreadIsOneObjectAsTheModuleIs) {
  llvm::LLVMContext context;
  auto module = parse(context);
  ASSERT_TRUE(module);
  auto objects = tracec::compileCpuObjects(*module, "x86-64-v3", 3, 1);
  ASSERT_TRUE(bool(objects)) << llvm::toString(objects.takeError());
  ASSERT_EQ(objects->size(), 1u);
  // Internal symbols stay local; the kernel may be inlined away.
  auto defined = definitions(*objects);
  EXPECT_EQ(defined["entry"], 1);
  EXPECT_EQ(defined.count("kernel"), 0u);
  EXPECT_EQ(defined.count("table"), 0u);
}

TEST(CompileCpuObjects, UnknownCpuIsAnError) {
  llvm::LLVMContext context;
  auto module = parse(context);
  ASSERT_TRUE(module);
  auto objects = tracec::compileCpuObjects(*module, "no-such-cpu", 3, 2);
  ASSERT_FALSE(bool(objects));
  EXPECT_NE(llvm::toString(objects.takeError()).find("no-such-cpu"),
            std::string::npos);
}

} // namespace
