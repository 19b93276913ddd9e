//===- DLPack.cpp - Tensors shared with other frameworks through DLPack --===//

#include "tracec/Runtime/DLPack.h"

#include "tracec/ABI/CudaRuntime.h"
#include "tracec/ABI/tracec_cuda.h"
#include "tracec/Tensor/ByteSize.h"

#include "llvm/ADT/SmallVector.h"

#include <cstring>
#include <optional>

using namespace tracec;
using namespace tracec::dlpack;

static DLDataType dlpackDType(DType dtype) {
  uint8_t bits = dtypeSize(dtype) * 8;
  switch (dtype) {
  case DType::f16:
  case DType::f32:
  case DType::f64:
    return {kDLFloat, bits, 1};
  case DType::bf16:
    return {kDLBfloat, bits, 1};
  case DType::i1:
    return {kDLBool, bits, 1};
  case DType::i32:
  case DType::i64:
    return {kDLInt, bits, 1};
  }
  llvm_unreachable("unknown dtype");
}

static std::optional<DType> tracecDType(DLDataType type) {
  if (type.lanes != 1)
    return std::nullopt;
  for (DType dtype : {DType::f16, DType::bf16, DType::f32, DType::f64,
                      DType::i1, DType::i32, DType::i64}) {
    DLDataType candidate = dlpackDType(dtype);
    if (candidate.code == type.code && candidate.bits == type.bits)
      return dtype;
  }
  return std::nullopt;
}

static std::string describe(DLDataType type) {
  static const char *const codes[] = {"int",    "uint",    "float", "opaque",
                                      "bfloat", "complex", "bool"};
  std::string name = type.code < std::size(codes)
                         ? codes[type.code]
                         : "code " + std::to_string(type.code) + " ";
  name += std::to_string(type.bits);
  if (type.lanes != 1)
    name += "x" + std::to_string(type.lanes);
  return name;
}

namespace {
/// What a DLManagedTensor made by toDLPack owns: the tensor (its storage
/// stays alive) and the shape the DLTensor points at.
struct Exported {
  Tensor tensor;
  llvm::SmallVector<int64_t, 4> shape;
  DLManagedTensor managed;
};
} // namespace

DLManagedTensor *tracec::toDLPack(const Tensor &tensor) {
  auto *exported = new Exported{tensor, {}, {}};
  exported->shape.assign(tensor.shape().begin(), tensor.shape().end());
  void *data = const_cast<void *>(exported->tensor.rawData());
  DLDevice device =
      tracec_cuda_is_managed(data) ? DLDevice{kDLCUDA, 0} : DLDevice{kDLCPU, 0};
  exported->managed.dl_tensor = {data,
                                 device,
                                 static_cast<int32_t>(tensor.rank()),
                                 dlpackDType(tensor.dtype()),
                                 exported->shape.data(),
                                 /*strides=*/nullptr,
                                 /*byte_offset=*/0};
  exported->managed.manager_ctx = exported;
  exported->managed.deleter = [](DLManagedTensor *self) {
    delete static_cast<Exported *>(self->manager_ctx);
  };
  return &exported->managed;
}

/// Whether `strides` (elements) are those of a row-major array of
/// `shape`; a dim of one element may have any stride (PyTorch gives such
/// dims arbitrary ones).
static bool isRowMajor(llvm::ArrayRef<int64_t> shape, const int64_t *strides) {
  if (!strides)
    return true;
  int64_t expected = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] != 1 && strides[i] != expected)
      return false;
    expected *= shape[i];
  }
  return true;
}

llvm::Expected<Tensor> tracec::fromDLPack(DLManagedTensor *managed) {
  // Owns `managed` from here on: every path below either hands it to the
  // tensor or calls its deleter.
  std::shared_ptr<DLManagedTensor> owner(managed, [](DLManagedTensor *m) {
    if (m->deleter)
      m->deleter(m);
  });
  const DLTensor &source = managed->dl_tensor;
  auto fail = [](const std::string &why) {
    return llvm::createStringError("DLPack tensor: " + why);
  };
  std::optional<DType> dtype = tracecDType(source.dtype);
  if (!dtype)
    return fail("tracec has no dtype " + describe(source.dtype) +
                " (it computes in f16, bf16, f32, f64, bool, i32, i64)");
  if (source.ndim < 0)
    return fail("negative rank " + std::to_string(source.ndim));
  llvm::ArrayRef<int64_t> shape(source.shape, source.ndim);
  std::optional<int64_t> bytes = tensorByteSize(dtypeSize(*dtype), shape);
  if (!bytes)
    return fail("shape " + formatTensorType(*dtype, shape) +
                " (a negative dim, or more than 2^48 bytes)");
  if (!isRowMajor(shape, source.strides))
    return fail("a strided " + formatTensorType(*dtype, shape) +
                " (tracec takes row-major data: make it contiguous first)");
  void *data = static_cast<char *>(source.data) + source.byte_offset;

  bool onCuda = source.device.device_type == kDLCUDA ||
                source.device.device_type == kDLCUDAManaged ||
                source.device.device_type == kDLCUDAHost;
  if (!onCuda && source.device.device_type != kDLCPU)
    return fail("device type " + std::to_string(source.device.device_type) +
                " (tracec takes CPU and CUDA memory)");
  if (onCuda && source.device.device_id != 0)
    return fail("CUDA device " + std::to_string(source.device.device_id) +
                " (tracec runs on device 0)");
  if (onCuda) {
    std::string why;
    if (!cuda::driverAvailable(&why))
      return fail(why);
    cuda::beginCall();
    if (!cuda::waitForDefaultStream())
      return fail(cuda::takeError());
  }
  bool hostReadable = !onCuda || source.device.device_type != kDLCUDA ||
                      tracec_cuda_is_managed(data);
  if (hostReadable && Tensor::isAligned(data))
    return Tensor::borrow(*dtype, shape, data, owner);

  // A copy: host data into host memory, CUDA data into managed memory (it
  // stays on the device).
  if (!onCuda) {
    llvm::Expected<Tensor> copied = Tensor::empty(*dtype, shape);
    if (copied)
      std::memcpy(copied->rawData(), data, *bytes);
    return copied;
  }
  void *twin = tracec_cuda_alloc_managed(*bytes);
  if (!twin)
    return fail(cuda::takeError());
  Tensor onDevice =
      Tensor::borrow(*dtype, shape, twin,
                     std::shared_ptr<void>(twin, tracec_cuda_free_managed));
  if (*bytes && !cuda::copy(twin, data, *bytes))
    return fail(cuda::takeError());
  return onDevice;
}
