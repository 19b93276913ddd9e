//===- ObjectJitTest.cpp - Linking compiled objects in the process --------===//
//
// RuntimeDyld reaches an object's constants and GOT slots with 32-bit
// PC-relative offsets and truncates one that does not fit without an error
// (JitArena.h). ObjectJit therefore keeps every section of a JIT in one
// JitArena, and each object's sections in one block. One test hands it a
// memory mapper that puts code, read-only data and read-write data 8 GiB
// apart, as an address space crowded by AddressSanitizer once did (calls
// then jumped through a wrong GOT slot into unmapped memory), and checks
// that an object's sections still land together and its code runs right.
//
//===----------------------------------------------------------------------===//

#include "../../lib/Runtime/ObjectJit.h"
#include "../../lib/Runtime/JitArena.h"

#include "tracec/Codegen/CPU/CpuTarget.h"
#include "tracec/Codegen/CPU/MachineCode.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/TargetSelect.h"

#include <gtest/gtest.h>

#include <sys/mman.h>

using namespace tracec;

namespace {

/// Maps each allocation purpose in its own 8 GiB part of one reservation,
/// and remembers every block it handed out.
class FarApartMapper : public llvm::SectionMemoryManager::MemoryMapper {
public:
  static constexpr size_t kPart = size_t(8) << 30;
  using Purpose = llvm::SectionMemoryManager::AllocationPurpose;

  FarApartMapper() {
    void *reserved = mmap(nullptr, 3 * kPart, PROT_NONE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    base_ = reserved == MAP_FAILED ? nullptr : static_cast<char *>(reserved);
  }
  ~FarApartMapper() override {
    if (base_)
      munmap(base_, 3 * kPart);
  }
  bool ok() const { return base_ != nullptr; }

  llvm::sys::MemoryBlock allocateMappedMemory(Purpose purpose, size_t bytes,
                                              const llvm::sys::MemoryBlock *,
                                              unsigned flags,
                                              std::error_code &error) override {
    size_t part = purpose == Purpose::Code     ? 0
                  : purpose == Purpose::ROData ? 1
                                               : 2;
    size_t size = (bytes + 4095) / 4096 * 4096;
    if (used_[part] + size > kPart) {
      error = std::make_error_code(std::errc::not_enough_memory);
      return {};
    }
    char *start = base_ + part * kPart + used_[part];
    used_[part] += size;
    llvm::sys::MemoryBlock block(start, size);
    error = llvm::sys::Memory::protectMappedMemory(block, flags);
    blocks.push_back(block);
    return error ? llvm::sys::MemoryBlock() : block;
  }
  std::error_code protectMappedMemory(const llvm::sys::MemoryBlock &block,
                                      unsigned flags) override {
    return llvm::sys::Memory::protectMappedMemory(block, flags);
  }
  std::error_code releaseMappedMemory(llvm::sys::MemoryBlock &block) override {
    mprotect(block.base(), block.allocatedSize(), PROT_NONE);
    block = llvm::sys::MemoryBlock();
    return {};
  }

  std::vector<llvm::sys::MemoryBlock> blocks;

private:
  char *base_ = nullptr;
  size_t used_[3] = {0, 0, 0};
};

/// Calls the process defines for the compiled code.
extern "C" float objectJitTestOffset(float x) { return x + 0.5f; }

/// `float lookup(i64 i)`: table[i] * 2 + 0.5, with the table in read-only
/// data (a PC-relative load) and the offset from a call into the process
/// (through a stub and a GOT slot).
std::unique_ptr<llvm::Module> lookupModule(llvm::LLVMContext &context) {
  auto module = std::make_unique<llvm::Module>("lookup", context);
  llvm::IRBuilder<> builder(context);
  std::vector<llvm::Constant *> values;
  for (int i = 0; i < 256; ++i)
    values.push_back(llvm::ConstantFP::get(builder.getFloatTy(), i * 3.0));
  auto *tableType = llvm::ArrayType::get(builder.getFloatTy(), 256);
  auto *table = new llvm::GlobalVariable(
      *module, tableType, /*isConstant=*/true,
      llvm::GlobalValue::InternalLinkage,
      llvm::ConstantArray::get(tableType, values), "table");
  auto *offsetType = llvm::FunctionType::get(
      builder.getFloatTy(), {builder.getFloatTy()}, /*isVarArg=*/false);
  llvm::FunctionCallee offset =
      module->getOrInsertFunction("objectJitTestOffset", offsetType);
  auto *lookup = llvm::Function::Create(
      llvm::FunctionType::get(builder.getFloatTy(), {builder.getInt64Ty()},
                              /*isVarArg=*/false),
      llvm::GlobalValue::ExternalLinkage, "lookup", *module);
  builder.SetInsertPoint(llvm::BasicBlock::Create(context, "", lookup));
  llvm::Value *slot = builder.CreateInBoundsGEP(
      tableType, table, {builder.getInt64(0), lookup->getArg(0)});
  llvm::Value *value = builder.CreateLoad(builder.getFloatTy(), slot);
  llvm::Value *doubled = builder.CreateFMul(
      value, llvm::ConstantFP::get(builder.getFloatTy(), 2.0));
  builder.CreateRet(builder.CreateCall(offset, {doubled}));
  addPackedEntryPoints(*module);
  return module;
}

/// lookupModule compiled into `partitions` objects.
llvm::SmallVector<std::unique_ptr<llvm::MemoryBuffer>>
lookupObjects(unsigned partitions) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = lookupModule(context);
  auto machine = createCpuTargetMachine("native", /*optLevel=*/2);
  EXPECT_TRUE(static_cast<bool>(machine))
      << llvm::toString(machine.takeError());
  if (!machine)
    return {};
  module->setDataLayout((*machine)->createDataLayout());
  module->setTargetTriple((*machine)->getTargetTriple());
  auto objects =
      compileCpuObjects(*module, "native", /*optLevel=*/2, partitions);
  EXPECT_TRUE(static_cast<bool>(objects))
      << llvm::toString(objects.takeError());
  if (!objects)
    return {};
  return std::move(*objects);
}

llvm::orc::SymbolMap offsetSymbol(llvm::orc::MangleAndInterner interner) {
  llvm::orc::SymbolMap map;
  map[interner("objectJitTestOffset")] = {
      llvm::orc::ExecutorAddr::fromPtr(&objectJitTestOffset),
      llvm::JITSymbolFlags::Exported};
  return map;
}

TRACEC_CALLS_JIT_CODE void expectLookupWorks(void (*lookup)(void **)) {
  for (int64_t i : {0, 1, 77, 255}) {
    float result = 0;
    void *args[] = {&i, &result};
    lookup(args);
    EXPECT_EQ(result, i * 3.0f * 2.0f + 0.5f) << "table[" << i << "]";
  }
}

TEST(ObjectJitTest, SectionsOfAnObjectStayTogether) {
  FarApartMapper mapper;
  ASSERT_TRUE(mapper.ok()) << "cannot reserve 24 GiB of address space";
  auto objects = lookupObjects(/*partitions=*/1);
  ASSERT_EQ(objects.size(), 1u);
  auto jit = ObjectJit::load(objects, offsetSymbol, {}, &mapper);
  ASSERT_TRUE(static_cast<bool>(jit)) << llvm::toString(jit.takeError());
  auto lookup = (*jit)->lookupPacked("lookup");
  ASSERT_TRUE(static_cast<bool>(lookup)) << llvm::toString(lookup.takeError());

  // Every block within 2 GiB of every other: what a 32-bit offset reaches.
  ASSERT_FALSE(mapper.blocks.empty());
  uintptr_t lowest = UINTPTR_MAX, highest = 0;
  for (const llvm::sys::MemoryBlock &block : mapper.blocks) {
    auto start = reinterpret_cast<uintptr_t>(block.base());
    lowest = std::min(lowest, start);
    highest = std::max(highest, start + block.allocatedSize());
  }
  ASSERT_LT(highest - lowest, uintptr_t(1) << 31)
      << mapper.blocks.size() << " blocks span " << (highest - lowest)
      << " bytes";

  expectLookupWorks(*lookup);
}

/// The default: every section of every object (the module split into up
/// to two partitions) from the JIT's own arena.
TEST(ObjectJitTest, PartitionsLinkAndRun) {
  auto objects = lookupObjects(/*partitions=*/2);
  ASSERT_FALSE(objects.empty());
  auto jit = ObjectJit::load(objects, offsetSymbol);
  ASSERT_TRUE(static_cast<bool>(jit)) << llvm::toString(jit.takeError());
  auto lookup = (*jit)->lookupPacked("lookup");
  ASSERT_TRUE(static_cast<bool>(lookup)) << llvm::toString(lookup.takeError());
  expectLookupWorks(*lookup);
}

TEST(JitArenaTest, HandsOutBlocksFromItsReservationOnly) {
  using Purpose = llvm::SectionMemoryManager::AllocationPurpose;
  const size_t page = 4096;
  JitArena arena(16 * page);
  ASSERT_TRUE(arena.reserved());
  std::error_code error;
  unsigned readWrite = llvm::sys::Memory::MF_READ | llvm::sys::Memory::MF_WRITE;
  llvm::sys::MemoryBlock code =
      arena.allocateMappedMemory(Purpose::Code, 100, nullptr, readWrite, error);
  ASSERT_FALSE(error) << error.message();
  llvm::sys::MemoryBlock data = arena.allocateMappedMemory(
      Purpose::RWData, 5 * page, &code, readWrite, error);
  ASSERT_FALSE(error) << error.message();
  EXPECT_TRUE(arena.contains(code.base(), code.allocatedSize()));
  EXPECT_TRUE(arena.contains(data.base(), data.allocatedSize()));
  EXPECT_GE(data.allocatedSize(), 5 * page);
  static_cast<char *>(data.base())[5 * page - 1] = 1; // writable

  // Full: an error, never a block from elsewhere.
  llvm::sys::MemoryBlock tooBig = arena.allocateMappedMemory(
      Purpose::ROData, 11 * page, nullptr, readWrite, error);
  EXPECT_EQ(error, std::errc::not_enough_memory);
  EXPECT_EQ(tooBig.base(), nullptr);
  // Released ranges are not handed out again.
  EXPECT_FALSE(arena.releaseMappedMemory(data));
  EXPECT_EQ(data.base(), nullptr);
  arena.allocateMappedMemory(Purpose::ROData, 11 * page, nullptr, readWrite,
                             error);
  EXPECT_EQ(error, std::errc::not_enough_memory);
  EXPECT_FALSE(arena.contains(code.base(), 17 * page));
}

} // namespace
