//===- DLPack.h - Tensors shared with other frameworks through DLPack ----===//
//
// DLPack (github.com/dmlc/dlpack) is how PyTorch, JAX, CuPy and NumPy hand
// each other arrays without a copy: a DLManagedTensor describes the memory
// (device, dtype, shape, strides) and carries the deleter its consumer
// calls when done. The structs below are the ABI's (v0.8, the unversioned
// DLManagedTensor that "dltensor" capsules hold), field for field, in
// tracec's namespace so that a program may include dlpack.h as well and
// cast between them.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_RUNTIME_DLPACK_H
#define TRACEC_RUNTIME_DLPACK_H

#include "tracec/Tensor/Tensor.h"

#include "llvm/Support/Error.h"

#include <cstdint>

namespace tracec::dlpack {

/// DLDeviceType's values that tracec meets.
enum DeviceType : int32_t {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLCUDAManaged = 13,
};

/// DLDataTypeCode's values.
enum TypeCode : uint8_t {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLBfloat = 4,
  kDLBool = 6,
};

struct DLDevice {
  int32_t device_type;
  int32_t device_id;
};

struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};

struct DLTensor {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  /// Elements between neighbours along each dim; null for row-major.
  int64_t *strides;
  uint64_t byte_offset;
};

struct DLManagedTensor {
  DLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(DLManagedTensor *self);
};

} // namespace tracec::dlpack

namespace tracec {

/// `tensor` as a DLPack tensor over the same memory, which it keeps alive
/// until the consumer calls the deleter. GPU memory (a GPU function's
/// results, tracec_cuda_alloc_managed; CUDA managed memory) is on device
/// kDLCUDA 0, the device the runtime uses (PyTorch and JAX take such a
/// pointer as a CUDA tensor), other memory on kDLCPU.
dlpack::DLManagedTensor *toDLPack(const Tensor &tensor);

/// A tensor over a DLPack tensor's memory: the tensor (and its copies)
/// owns `managed`, calling its deleter when the last one dies. Host and
/// CUDA managed memory are used in place; CUDA device memory, which the
/// host cannot read, is copied into managed memory (device to device),
/// and so is memory not aligned as compiled code requires. CUDA data is
/// waited for on the default stream first (where a DLPack producer asked
/// for stream 1 leaves its work). Errors, after which `managed`'s deleter
/// has been called: a dtype tracec has no counterpart for, strides that
/// are not row-major, other devices, no CUDA driver for CUDA memory.
llvm::Expected<Tensor> fromDLPack(dlpack::DLManagedTensor *managed);

} // namespace tracec

#endif // TRACEC_RUNTIME_DLPACK_H
