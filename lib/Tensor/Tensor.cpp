//===- Tensor.cpp - Host tensors ------------------------------------------===//

#include "tracec/Tensor/Tensor.h"
#include "tracec/Tensor/ByteSize.h"

#include "BlockCache.h"

#include "tracec/ABI/tracec_format.h"
#include "tracec/ABI/tracec_print.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <cstring>

using namespace tracec;
using llvm::ArrayRef;
using llvm::StringRef;

static constexpr size_t kAlignment = 64;

static_assert(TRACEC_DTYPE_F16 == static_cast<int>(DType::f16) &&
                  TRACEC_DTYPE_BF16 == static_cast<int>(DType::bf16) &&
                  TRACEC_DTYPE_F32 == static_cast<int>(DType::f32) &&
                  TRACEC_DTYPE_F64 == static_cast<int>(DType::f64) &&
                  TRACEC_DTYPE_I1 == static_cast<int>(DType::i1) &&
                  TRACEC_DTYPE_I32 == static_cast<int>(DType::i32) &&
                  TRACEC_DTYPE_I64 == static_cast<int>(DType::i64),
              "the C dtype codes follow tracec::DType");

StringRef tracec::dtypeName(DType dtype) {
  switch (dtype) {
  case DType::f16: return "f16";
  case DType::bf16: return "bf16";
  case DType::f32: return "f32";
  case DType::f64: return "f64";
  case DType::i1: return "i1";
  case DType::i32: return "i32";
  case DType::i64: return "i64";
  }
  llvm_unreachable("unknown dtype");
}

std::optional<DType> tracec::parseDType(StringRef name) {
  for (DType dtype : {DType::f16, DType::bf16, DType::f32, DType::f64,
                      DType::i1, DType::i32, DType::i64})
    if (dtypeName(dtype) == name)
      return dtype;
  return std::nullopt;
}

size_t tracec::dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::f16:
  case DType::bf16: return 2;
  case DType::f32:
  case DType::i32: return 4;
  case DType::f64:
  case DType::i64: return 8;
  case DType::i1: return 1;
  }
  llvm_unreachable("unknown dtype");
}

bool tracec::isFloat(DType dtype) {
  return dtype == DType::f16 || dtype == DType::bf16 || dtype == DType::f32 ||
         dtype == DType::f64;
}

std::string tracec::formatTensorType(DType dtype, ArrayRef<int64_t> shape) {
  std::string text = "tensor<";
  for (int64_t dim : shape)
    text += std::to_string(dim) + "x";
  return text + dtypeName(dtype).str() + ">";
}

static int64_t product(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

int64_t Tensor::numElements() const { return product(shape_); }

/// New storage of `shape`, or an error naming its type when it is larger
/// than a tensor can be.
static llvm::Expected<Tensor>
checkedCreate(DType dtype, ArrayRef<int64_t> shape,
              llvm::function_ref<Tensor()> create) {
  if (!tensorByteSize(dtypeSize(dtype), shape))
    return llvm::createStringError(formatTensorType(dtype, shape) +
                                   " is larger than a tensor can be (at "
                                   "most 2^48 bytes)");
  return create();
}

llvm::Expected<Tensor> Tensor::allocate(DType dtype, ArrayRef<int64_t> shape) {
  return checkedCreate(dtype, shape, [&] { return zeros(dtype, shape); });
}

llvm::Expected<Tensor> Tensor::empty(DType dtype, ArrayRef<int64_t> shape) {
  return checkedCreate(dtype, shape,
                       [&] { return create(dtype, shape, /*zeroed=*/false); });
}

Tensor Tensor::zeros(DType dtype, ArrayRef<int64_t> shape) {
  return create(dtype, shape, /*zeroed=*/true);
}

Tensor Tensor::create(DType dtype, ArrayRef<int64_t> shape, bool zeroed) {
  std::optional<int64_t> checked = tensorByteSize(dtypeSize(dtype), shape);
  if (!checked)
    llvm::report_fatal_error(llvm::Twine("tracec::Tensor: ") +
                             formatTensorType(dtype, shape) +
                             " is larger than a tensor can be");
  size_t bytes = *checked;
  // A zero-size tensor still gets a valid (non-null) pointer. malloc and
  // aligning by hand, not aligned_alloc: glibc's memalign splits a larger
  // chunk and frees the remainders, which costs more than a small call of
  // a compiled function (tensors are made for every result of every call).
  size_t rounded = std::max<size_t>(
      (bytes + kAlignment - 1) / kAlignment * kAlignment, kAlignment);
  size_t allocated = rounded + kAlignment - 1;
  uint8_t *base = detail::takeCachedBlock(allocated);
  if (!base)
    base = static_cast<uint8_t *>(std::malloc(allocated));
  if (!base)
    llvm::report_bad_alloc_error("tracec::Tensor: out of memory");
  auto *memory = reinterpret_cast<uint8_t *>(
      (reinterpret_cast<uintptr_t>(base) + kAlignment - 1) / kAlignment *
      kAlignment);
  if (zeroed)
    std::memset(memory, 0, rounded);
  return Tensor(dtype, shape,
                std::shared_ptr<uint8_t>(memory,
                                         [base, allocated](uint8_t *) {
                                           detail::releaseBlock(base,
                                                                allocated);
                                         }),
                0);
}

Tensor Tensor::borrow(DType dtype, ArrayRef<int64_t> shape, void *data,
                      std::shared_ptr<void> owner) {
  assert(isAligned(data) && "borrowed tensor data must be 64-byte aligned");
  // The aliasing constructor: the owner's reference count, data's address.
  return Tensor(dtype, shape,
                std::shared_ptr<uint8_t>(std::move(owner),
                                         static_cast<uint8_t *>(data)),
                0);
}

bool Tensor::isAligned(const void *data) {
  return reinterpret_cast<uintptr_t>(data) % kAlignment == 0;
}

llvm::Error Tensor::elementCountError(size_t count, ArrayRef<int64_t> shape) {
  return llvm::createStringError(
      "cannot make a tensor of shape [" +
      [&] {
        std::string s;
        for (size_t i = 0; i < shape.size(); ++i)
          s += (i ? ", " : "") + std::to_string(shape[i]);
        return s;
      }() +
      "] (" + std::to_string(product(shape)) + " elements) from " +
      std::to_string(count) + " values");
}

void Tensor::checkElementType(DType requested) const {
  if (requested != dtype_)
    llvm::report_fatal_error(llvm::Twine("tracec::Tensor: typed access as ") +
                             dtypeName(requested) + " to a " +
                             dtypeName(dtype_) + " tensor");
}

double Tensor::elementAsDouble(int64_t i) const {
  const uint8_t *base = static_cast<const uint8_t *>(rawData());
  switch (dtype_) {
  case DType::f16:
  case DType::bf16: {
    uint16_t bits;
    std::memcpy(&bits, base + 2 * i, 2);
    llvm::APFloat value(dtype_ == DType::f16 ? llvm::APFloat::IEEEhalf()
                                             : llvm::APFloat::BFloat(),
                        llvm::APInt(16, bits));
    bool losesInfo;
    value.convert(llvm::APFloat::IEEEdouble(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    return value.convertToDouble();
  }
  case DType::f32: return reinterpret_cast<const float *>(base)[i];
  case DType::f64: return reinterpret_cast<const double *>(base)[i];
  case DType::i1: return base[i] ? 1.0 : 0.0;
  case DType::i32: return reinterpret_cast<const int32_t *>(base)[i];
  case DType::i64:
    return static_cast<double>(reinterpret_cast<const int64_t *>(base)[i]);
  }
  llvm_unreachable("unknown dtype");
}

llvm::Expected<Tensor> Tensor::reshaped(ArrayRef<int64_t> shape) const {
  if (product(shape) != numElements())
    return llvm::createStringError("cannot view " + typeString() + " as " +
                                   formatTensorType(dtype_, shape) +
                                   ": the element counts differ");
  return Tensor(dtype_, shape, storage_, offset_);
}

llvm::Expected<Tensor> Tensor::operator[](int64_t i) const {
  if (rank() == 0)
    return llvm::createStringError("cannot index a scalar tensor");
  if (i < 0 || i >= shape_[0])
    return llvm::createStringError("index " + std::to_string(i) +
                                   " is out of range for dim 0 of " +
                                   typeString());
  ArrayRef<int64_t> inner = ArrayRef<int64_t>(shape_).drop_front();
  size_t stride = product(inner) * dtypeSize(dtype_);
  return Tensor(dtype_, inner, storage_, offset_ + i * stride);
}

Tensor Tensor::clone() const {
  Tensor copy = create(dtype_, shape_, /*zeroed=*/false);
  std::memcpy(copy.rawData(), rawData(), sizeInBytes());
  return copy;
}

std::string Tensor::toString() const {
  std::unique_ptr<char, decltype(&std::free)> text(
      tracec_format_tensor(static_cast<int32_t>(dtype_), rank(),
                           shape_.data(), rawData()),
      &std::free);
  if (!text)
    llvm::report_bad_alloc_error("tracec::Tensor::toString: out of memory");
  return text.get();
}

llvm::Expected<Tensor> Tensor::convertedTo(DType dtype) const {
  int64_t count = numElements();
  if (dtype_ == DType::bf16 && dtype == DType::f32) {
    Tensor result = zeros(DType::f32, shape_);
    const uint16_t *from = static_cast<const uint16_t *>(rawData());
    uint32_t *to = static_cast<uint32_t *>(result.rawData());
    for (int64_t i = 0; i < count; ++i)
      to[i] = uint32_t(from[i]) << 16;
    return result;
  }
  if (dtype_ == DType::f32 && dtype == DType::bf16) {
    Tensor result = zeros(DType::bf16, shape_);
    const uint32_t *from = static_cast<const uint32_t *>(rawData());
    uint16_t *to = static_cast<uint16_t *>(result.rawData());
    for (int64_t i = 0; i < count; ++i) {
      uint32_t bits = from[i];
      bool nan = (bits & 0x7fffffffu) > 0x7f800000u;
      // Adding 0x7fff plus the kept lsb rounds to nearest, ties to even;
      // a NaN keeps its sign and top payload bits, made quiet.
      to[i] = nan ? uint16_t((bits >> 16) | 0x40)
                  : uint16_t((bits + 0x7fffu + ((bits >> 16) & 1)) >> 16);
    }
    return result;
  }
  return llvm::createStringError(llvm::Twine("cannot convert a ") +
                                 dtypeName(dtype_) + " tensor to " +
                                 dtypeName(dtype) +
                                 " (only bf16 <-> f32 crosses NumPy)");
}
