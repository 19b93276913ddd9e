//===- JitArena.h - Linked code and data within reach of each other -------===//
//
// RuntimeDyld reaches an object's constants, its stubs' GOT slots and
// other objects' symbols with 32-bit PC-relative offsets, and truncates an
// offset that does not fit without an error. SectionMemoryManager maps
// sections separately: even with its reservation per object, the GOT
// slots of calls to external functions (which it does not count) get a
// fresh mapping wherever the kernel puts it. Under AddressSanitizer, whose
// reservations crowd the address space, that was terabytes away and calls
// jumped through a wrong slot into unmapped memory. A JitArena hands out
// every section of one JIT from a single reservation smaller than 2 GiB,
// so every such offset fits; when it is full, allocation fails (a clear
// error) rather than mapping far away.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_RUNTIME_JITARENA_H
#define TRACEC_LIB_RUNTIME_JITARENA_H

#include "llvm/ExecutionEngine/SectionMemoryManager.h"

#include <cstddef>
#include <mutex>

/// For a function that calls JIT code through a pointer: UBSan's
/// -fsanitize=function reads the 8 bytes before the callee for a type
/// signature that compiled code does not carry, and a function at the start
/// of an arena has no readable bytes before it.
#if defined(__clang__)
#define TRACEC_CALLS_JIT_CODE __attribute__((no_sanitize("function")))
#else
#define TRACEC_CALLS_JIT_CODE
#endif

namespace tracec {

class JitArena : public llvm::SectionMemoryManager::MemoryMapper {
public:
  /// Reserves `capacity` bytes of address space (no memory: pages are
  /// committed as sections are allocated); capacity must stay below 2 GiB.
  explicit JitArena(size_t capacity = size_t(1) << 30);
  ~JitArena() override;
  JitArena(const JitArena &) = delete;
  JitArena &operator=(const JitArena &) = delete;

  /// Whether the reservation succeeded; if not, every allocation fails.
  bool reserved() const { return base_ != nullptr; }
  /// Whether [address, address + size) lies in the reservation.
  bool contains(const void *address, size_t size = 1) const;

  llvm::sys::MemoryBlock
  allocateMappedMemory(llvm::SectionMemoryManager::AllocationPurpose purpose,
                       size_t bytes, const llvm::sys::MemoryBlock *near,
                       unsigned flags, std::error_code &error) override;
  std::error_code protectMappedMemory(const llvm::sys::MemoryBlock &block,
                                      unsigned flags) override;
  /// Returns the pages to the system; the range is not handed out again.
  std::error_code releaseMappedMemory(llvm::sys::MemoryBlock &block) override;

private:
  char *base_ = nullptr;
  size_t capacity_ = 0;
  size_t used_ = 0;
  std::mutex mutex_;
};

} // namespace tracec

#endif // TRACEC_LIB_RUNTIME_JITARENA_H
