//===- CallAllocator.cpp - malloc/free for JIT-compiled code --------------===//

#include "CallAllocator.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace tracec;

namespace {

/// Every block is 64-byte aligned, with its header just before it.
constexpr size_t kAlignment = 64;
/// Blocks from this size up are kept when freed (glibc mmaps from 128 KiB).
constexpr size_t kCachedFrom = 64 * 1024;
constexpr int kCachedBlocks = 16;

struct Header {
  void *raw;       // what std::malloc returned
  size_t capacity; // usable bytes
};

Header *headerOf(void *block) {
  return reinterpret_cast<Header *>(static_cast<char *>(block) -
                                    sizeof(Header));
}

void *allocateNew(size_t size, size_t alignment) {
  alignment = std::max(alignment, kAlignment);
  size_t total = size + alignment + sizeof(Header);
  void *raw = std::malloc(total);
  if (!raw)
    return nullptr;
  uintptr_t start = reinterpret_cast<uintptr_t>(raw) + sizeof(Header);
  uintptr_t aligned = (start + alignment - 1) & ~(uintptr_t(alignment) - 1);
  void *block = reinterpret_cast<void *>(aligned);
  *headerOf(block) = {raw, size};
  return block;
}

/// The freed large blocks of this thread; freed with it.
struct Cache {
  void *blocks[kCachedBlocks] = {};
  int count = 0;
  ~Cache() {
    for (int i = 0; i < count; ++i)
      std::free(headerOf(blocks[i])->raw);
    // Code that runs after (another thread-exit destructor) finds it empty.
    count = 0;
  }

  /// The smallest cached block of `size` to `2 * size` bytes, taken out.
  void *take(size_t size) {
    int best = -1;
    for (int i = 0; i < count; ++i) {
      size_t capacity = headerOf(blocks[i])->capacity;
      if (capacity >= size && capacity / 2 <= size &&
          (best < 0 || capacity < headerOf(blocks[best])->capacity))
        best = i;
    }
    if (best < 0)
      return nullptr;
    void *block = blocks[best];
    blocks[best] = blocks[--count];
    return block;
  }

  void put(void *block) {
    if (count == kCachedBlocks) {
      // The oldest goes.
      std::free(headerOf(blocks[0])->raw);
      std::memmove(blocks, blocks + 1, sizeof(void *) * (count - 1));
      --count;
    }
    blocks[count++] = block;
  }
};

thread_local Cache cache;

void *allocate(size_t size, size_t alignment) {
  if (size >= kCachedFrom && alignment <= kAlignment)
    if (void *block = cache.take(size))
      return block;
  return allocateNew(size, alignment);
}

extern "C" void *callMalloc(size_t size) { return allocate(size, kAlignment); }

extern "C" void *callAlignedAlloc(size_t alignment, size_t size) {
  return allocate(size, alignment);
}

extern "C" int callPosixMemalign(void **out, size_t alignment, size_t size) {
  *out = allocate(size, alignment);
  return *out ? 0 : ENOMEM;
}

extern "C" void *callCalloc(size_t count, size_t size) {
  size_t bytes = count * size;
  if (size && bytes / size != count)
    return nullptr;
  void *block = allocate(bytes, kAlignment);
  if (block)
    std::memset(block, 0, bytes);
  return block;
}

extern "C" void callFree(void *block) {
  if (!block)
    return;
  Header *header = headerOf(block);
  if (header->capacity >= kCachedFrom)
    cache.put(block);
  else
    std::free(header->raw);
}

extern "C" void *callRealloc(void *block, size_t size) {
  if (!block)
    return callMalloc(size);
  size_t capacity = headerOf(block)->capacity;
  if (size <= capacity)
    return block;
  void *grown = callMalloc(size);
  if (!grown)
    return nullptr;
  std::memcpy(grown, block, capacity);
  callFree(block);
  return grown;
}

} // namespace

void tracec::addCallAllocatorSymbols(llvm::orc::MangleAndInterner &interner,
                                     llvm::orc::SymbolMap &symbols) {
  auto add = [&](const char *name, auto *function) {
    symbols[interner(name)] = {
        llvm::orc::ExecutorAddr::fromPtr(reinterpret_cast<void *>(function)),
        llvm::JITSymbolFlags::Exported};
  };
  add("malloc", &callMalloc);
  add("calloc", &callCalloc);
  add("realloc", &callRealloc);
  add("aligned_alloc", &callAlignedAlloc);
  add("posix_memalign", &callPosixMemalign);
  add("free", &callFree);
}
