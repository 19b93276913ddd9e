//===- BlockCache.cpp - Large tensor blocks kept for reuse ----------------===//

#include "BlockCache.h"

#include <cstdlib>
#include <map>
#include <mutex>

using namespace tracec::detail;

namespace {

constexpr size_t kMinCachedBytes = size_t(1) << 20;
constexpr size_t kMaxCachedBytes = size_t(1) << 30;

struct BlockCache {
  std::mutex mutex;
  std::multimap<size_t, uint8_t *> blocks;
  size_t cachedBytes = 0;
};

BlockCache &cache() {
  // Never destroyed: tensors may die during static destruction.
  static BlockCache *blocks = new BlockCache;
  return *blocks;
}

} // namespace

uint8_t *tracec::detail::takeCachedBlock(size_t bytes) {
  if (bytes < kMinCachedBytes)
    return nullptr;
  BlockCache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  auto it = c.blocks.find(bytes);
  if (it == c.blocks.end())
    return nullptr;
  uint8_t *base = it->second;
  c.blocks.erase(it);
  c.cachedBytes -= bytes;
  return base;
}

void tracec::detail::releaseBlock(uint8_t *base, size_t bytes) {
  if (bytes >= kMinCachedBytes) {
    BlockCache &c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    if (c.cachedBytes + bytes <= kMaxCachedBytes) {
      c.blocks.emplace(bytes, base);
      c.cachedBytes += bytes;
      return;
    }
  }
  std::free(base);
}
