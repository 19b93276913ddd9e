//===- BlockCache.cpp - Freed device buffers kept for reuse ---------------===//

#include "BlockCache.h"

using namespace tracec::cuda;

size_t BlockCache::sizeClass(size_t size) {
  if (size <= 512)
    return 512;
  size_t power = 512;
  while (power * 2 < size)
    power *= 2;
  // size is in (power, 2 power]: the next quarter step of power.
  size_t quarter = power / 4;
  return (size + quarter - 1) / quarter * quarter;
}

void *BlockCache::take(size_t size, bool managed) {
  std::lock_guard<std::mutex> lock(mutex);
  Kind kind{sizeClass(size), managed};
  auto blocks = idle.find(kind);
  if (blocks == idle.end() || blocks->second.empty())
    return nullptr;
  void *block = blocks->second.back();
  blocks->second.pop_back();
  idleTotal -= kind.first;
  inUse.emplace(block, kind);
  return block;
}

void BlockCache::adopt(void *block, size_t size, bool managed) {
  std::lock_guard<std::mutex> lock(mutex);
  inUse.emplace(block, Kind{sizeClass(size), managed});
}

bool BlockCache::give(void *block) {
  std::lock_guard<std::mutex> lock(mutex);
  auto used = inUse.find(block);
  if (used == inUse.end())
    return false;
  idle[used->second].push_back(block);
  idleTotal += used->second.first;
  inUse.erase(used);
  return true;
}

std::vector<void *> BlockCache::release() {
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<void *> blocks;
  for (auto &entry : idle)
    blocks.insert(blocks.end(), entry.second.begin(), entry.second.end());
  idle.clear();
  idleTotal = 0;
  return blocks;
}

size_t BlockCache::idleBytes() {
  std::lock_guard<std::mutex> lock(mutex);
  return idleTotal;
}

BlockCache &tracec::cuda::blockCache() {
  static BlockCache *cache = new BlockCache; // outlives static destructors
  return *cache;
}
