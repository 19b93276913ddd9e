//===- JitArena.cpp - Linked code and data within reach of each other -----===//

#include "JitArena.h"

#include "llvm/Support/Process.h"

#include <sys/mman.h>

using namespace tracec;

JitArena::JitArena(size_t capacity) {
  void *reserved = mmap(nullptr, capacity, PROT_NONE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (reserved == MAP_FAILED)
    return;
  base_ = static_cast<char *>(reserved);
  capacity_ = capacity;
}

JitArena::~JitArena() {
  if (base_)
    munmap(base_, capacity_);
}

bool JitArena::contains(const void *address, size_t size) const {
  auto *start = static_cast<const char *>(address);
  return base_ && start >= base_ && size <= capacity_ &&
         start - base_ <= static_cast<ptrdiff_t>(capacity_ - size);
}

llvm::sys::MemoryBlock
JitArena::allocateMappedMemory(llvm::SectionMemoryManager::AllocationPurpose,
                               size_t bytes, const llvm::sys::MemoryBlock *,
                               unsigned flags, std::error_code &error) {
  static const size_t pageSize = llvm::sys::Process::getPageSizeEstimate();
  size_t size = (bytes + pageSize - 1) / pageSize * pageSize;
  char *start;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!base_ || size < bytes || size > capacity_ - used_) {
      error = std::make_error_code(std::errc::not_enough_memory);
      return {};
    }
    start = base_ + used_;
    used_ += size;
  }
  llvm::sys::MemoryBlock block(start, size);
  error = llvm::sys::Memory::protectMappedMemory(block, flags);
  return error ? llvm::sys::MemoryBlock() : block;
}

std::error_code
JitArena::protectMappedMemory(const llvm::sys::MemoryBlock &block,
                              unsigned flags) {
  return llvm::sys::Memory::protectMappedMemory(block, flags);
}

std::error_code JitArena::releaseMappedMemory(llvm::sys::MemoryBlock &block) {
  if (block.base() &&
      mmap(block.base(), block.allocatedSize(), PROT_NONE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1,
           0) == MAP_FAILED)
    return std::error_code(errno, std::generic_category());
  block = llvm::sys::MemoryBlock();
  return {};
}
