//===- ByteSize.h - The bytes a tensor takes, checked ---------------------===//
//
// One rule for every place a tensor's size is made — the trace dialect's
// verifier, the runtime's result buffers after a shape function, Tensor,
// the Python boundary: a tensor takes at most kMaxTensorBytes, and a size
// whose computation would wrap is an error, never a small allocation that
// compiled code then writes past.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_TENSOR_BYTESIZE_H
#define TRACEC_TENSOR_BYTESIZE_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>

namespace tracec {

/// 2^48 bytes (256 TiB): what a process can address on x86-64 and AArch64
/// with 4-level page tables.
constexpr int64_t kMaxTensorBytes = int64_t(1) << 48;

/// elementBytes times the product of `shape`; none when a dim is negative
/// or the size exceeds kMaxTensorBytes. A tensor with a 0 dim takes 0
/// bytes, whatever its other dims.
inline std::optional<int64_t> tensorByteSize(int64_t elementBytes,
                                             llvm::ArrayRef<int64_t> shape) {
  for (int64_t dim : shape) {
    if (dim < 0)
      return std::nullopt;
    if (dim == 0)
      return 0;
  }
  int64_t bytes = elementBytes;
  for (int64_t dim : shape) {
    if (bytes > kMaxTensorBytes / dim)
      return std::nullopt;
    bytes *= dim;
  }
  if (bytes > kMaxTensorBytes)
    return std::nullopt;
  return bytes;
}

} // namespace tracec

#endif // TRACEC_TENSOR_BYTESIZE_H
