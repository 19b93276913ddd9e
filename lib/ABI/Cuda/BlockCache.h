//===- BlockCache.h - Freed device buffers kept for reuse
//------------------===//
//
// Compiled GPU code allocates its buffers on every call and frees them at
// its end; asking the driver each time (cuMemAlloc, cuMemAllocManaged)
// costs far more than most kernels. As PyTorch's caching allocator does,
// a freed block stays in the cache, filed under its size class and kind
// (device or managed memory), and the next allocation of that class takes
// it: a steady loop of calls allocates nothing from the driver. Sizes are
// rounded up to a class (at most 25% more), so that near sizes share
// blocks. Launches are synchronous, so a freed block is idle on the
// device when it is handed out again.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_ABI_CUDA_BLOCKCACHE_H
#define TRACEC_LIB_ABI_CUDA_BLOCKCACHE_H

#include <cstddef>
#include <map>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tracec::cuda {

class BlockCache {
public:
  /// The size a request of `size` bytes allocates: 512 bytes at least,
  /// else the next of 2^k, 1.25 2^k, 1.5 2^k, 1.75 2^k.
  static size_t sizeClass(size_t size);

  /// An idle block of `size`'s class and kind, now in use, or nullptr.
  void *take(size_t size, bool managed);
  /// Files a block just allocated from the driver for a request of `size`
  /// (it has sizeClass(size) bytes), in use.
  void adopt(void *block, size_t size, bool managed);
  /// Makes a block in use idle; false if the cache did not hand it out.
  bool give(void *block);
  /// Removes the idle blocks, for the driver to free (when an allocation
  /// failed, or to hand the memory back).
  std::vector<void *> release();
  /// Bytes in idle blocks.
  size_t idleBytes();

private:
  using Kind = std::pair<size_t, bool>; // size class, managed
  std::mutex mutex;
  std::unordered_map<void *, Kind> inUse;
  std::map<Kind, std::vector<void *>> idle;
  size_t idleTotal = 0;
};

/// The process's cache (the driver's context is the process's too).
BlockCache &blockCache();

} // namespace tracec::cuda

#endif // TRACEC_LIB_ABI_CUDA_BLOCKCACHE_H
