//===- BlockCache.h - Large tensor blocks kept for reuse ------------------===//

#ifndef TRACEC_LIB_TENSOR_BLOCKCACHE_H
#define TRACEC_LIB_TENSOR_BLOCKCACHE_H

#include <cstddef>
#include <cstdint>

namespace tracec::detail {

/// Tensors' large blocks, kept when their tensor dies for the next tensor
/// of the same size. glibc maps every block above 32 MiB afresh, and the
/// first touch of each of its pages faults: for a function that returns
/// hundreds of MB per call (per-example gradients under vmap), the faults
/// cost more than the compiled code. Blocks of at least 1 MiB are kept, up
/// to 1 GiB in all; the rest are freed.

/// A block of `bytes` (as malloc'd by the caller) freed earlier, or null.
uint8_t *takeCachedBlock(size_t bytes);
/// Keeps `base` (`bytes` long) for reuse, or frees it.
void releaseBlock(uint8_t *base, size_t bytes);

} // namespace tracec::detail

#endif // TRACEC_LIB_TENSOR_BLOCKCACHE_H
