//===- Tensor.h - Host tensors passed to and returned by compiled code ----===//
//
// A tracec::Tensor is a dense, row-major array with a dtype and a shape, in
// 64-byte-aligned storage that it shares with its views. It converts from
// and to std::vector, reads and writes NumPy .npy files, and prints like
// NumPy.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_TENSOR_TENSOR_H
#define TRACEC_TENSOR_TENSOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tracec {

/// The element types of the trace dialect. f16/bf16 hold their bit
/// patterns (uint16_t); i1 holds one byte per element (0 or 1).
enum class DType : uint8_t { f16, bf16, f32, f64, i1, i32, i64 };

/// "f32", "i1", ...: the MLIR spelling.
llvm::StringRef dtypeName(DType dtype);
std::optional<DType> parseDType(llvm::StringRef name);
/// Bytes per element in memory.
size_t dtypeSize(DType dtype);
bool isFloat(DType dtype);

/// The C++ type that holds one element of a dtype, for typed access.
template <typename T> struct DTypeOf;
template <> struct DTypeOf<float> { static constexpr DType value = DType::f32; };
template <> struct DTypeOf<double> { static constexpr DType value = DType::f64; };
template <> struct DTypeOf<bool> { static constexpr DType value = DType::i1; };
template <> struct DTypeOf<int32_t> { static constexpr DType value = DType::i32; };
template <> struct DTypeOf<int64_t> { static constexpr DType value = DType::i64; };

/// A shape as MLIR prints it ("2x3", "" for a scalar) and a tensor type
/// ("tensor<2x3xf32>"): how errors describe what was expected and found.
std::string formatTensorType(DType dtype, llvm::ArrayRef<int64_t> shape);

class Tensor {
public:
  /// A zero-filled tensor. Its size must fit (tensorByteSize, ByteSize.h):
  /// a fatal error otherwise; where a shape comes from data, use
  /// `allocate`.
  static Tensor zeros(DType dtype, llvm::ArrayRef<int64_t> shape);

  /// A zero-filled tensor, or an error naming its type when it is larger
  /// than a tensor can be (more than 2^48 bytes, or a negative dim).
  static llvm::Expected<Tensor> allocate(DType dtype,
                                         llvm::ArrayRef<int64_t> shape);

  /// As `allocate`, but its elements are whatever the memory held
  /// (torch.empty, np.empty): for storage that is written whole before it
  /// is read, such as a compiled function's results, which would otherwise
  /// be written twice.
  static llvm::Expected<Tensor> empty(DType dtype,
                                      llvm::ArrayRef<int64_t> shape);

  /// Copies `values` (row-major) into a new tensor of `shape`; fails when
  /// the element count does not match.
  template <typename T>
  static llvm::Expected<Tensor> fromVector(const std::vector<T> &values,
                                           llvm::ArrayRef<int64_t> shape) {
    Tensor tensor = zeros(DTypeOf<T>::value, shape);
    if (static_cast<int64_t>(values.size()) != tensor.numElements())
      return elementCountError(values.size(), shape);
    T *out = tensor.data<T>();
    for (size_t i = 0; i < values.size(); ++i)
      out[i] = values[i];
    return tensor;
  }

  /// A tensor over memory it does not own (a NumPy array's, say): `data`
  /// must be 64-byte aligned, row-major and hold the shape's elements; the
  /// tensor and its views keep `owner` alive. Compiled code reads and writes
  /// it in place, as it does a tensor's own storage.
  static Tensor borrow(DType dtype, llvm::ArrayRef<int64_t> shape, void *data,
                       std::shared_ptr<void> owner);
  /// Whether `data` is aligned as compiled code requires (64 bytes).
  static bool isAligned(const void *data);

  /// A rank-0 tensor.
  template <typename T> static Tensor scalar(T value) {
    return *fromVector<T>({value}, {});
  }

  /// The elements, converted to T (any dtype to any of float, double,
  /// int32_t, int64_t, bool).
  template <typename T> std::vector<T> toVector() const {
    std::vector<T> values;
    values.reserve(numElements());
    for (int64_t i = 0; i < numElements(); ++i)
      values.push_back(static_cast<T>(elementAsDouble(i)));
    return values;
  }

  DType dtype() const { return dtype_; }
  llvm::ArrayRef<int64_t> shape() const { return shape_; }
  int64_t rank() const { return shape_.size(); }
  int64_t numElements() const;
  size_t sizeInBytes() const { return numElements() * dtypeSize(dtype_); }
  std::string typeString() const { return formatTensorType(dtype_, shape_); }

  void *rawData() { return storage_.get() + offset_; }
  const void *rawData() const { return storage_.get() + offset_; }
  /// Typed access; T must match the dtype.
  template <typename T> T *data() {
    checkElementType(DTypeOf<T>::value);
    return static_cast<T *>(rawData());
  }
  template <typename T> const T *data() const {
    checkElementType(DTypeOf<T>::value);
    return static_cast<const T *>(rawData());
  }

  /// Element `i` (row-major) as a double, for any dtype.
  double elementAsDouble(int64_t i) const;

  /// A view with another shape of the same element count, sharing storage.
  llvm::Expected<Tensor> reshaped(llvm::ArrayRef<int64_t> shape) const;
  /// A view of index `i` along the first dim, sharing storage.
  llvm::Expected<Tensor> operator[](int64_t i) const;
  bool sharesStorageWith(const Tensor &other) const {
    return storage_ == other.storage_;
  }
  /// A deep copy with its own storage.
  Tensor clone() const;

  /// This bf16 tensor widened to f32 (exactly), or this f32 tensor rounded
  /// to bf16 (to nearest, ties to even; NaN stays NaN): how bf16 crosses
  /// .npy files and NumPy, which have no bf16. Other pairs are an error.
  llvm::Expected<Tensor> convertedTo(DType dtype) const;

  /// NumPy-style text: "[[1. 2.]\n [3. 4.]]" (TracecABI's formatter, the
  /// one compiled trace.print uses).
  std::string toString() const;

  /// NumPy .npy files (format 1.0-3.0, little-endian, C order). bf16 has no
  /// .npy dtype: saveNpy writes it as f32 (convertedTo), loadNpy never
  /// returns it. The header's shape is checked against the
  /// file's size before anything is allocated; `checkType`, if given, sees
  /// the header's dtype and shape first, and its error is returned.
  static llvm::Expected<Tensor>
  loadNpy(llvm::StringRef path,
          llvm::function_ref<llvm::Error(DType, llvm::ArrayRef<int64_t>)>
              checkType = nullptr);
  /// loadNpy of the file's `bytes`; `name` prefixes the errors.
  static llvm::Expected<Tensor>
  parseNpy(llvm::StringRef bytes, llvm::StringRef name,
           llvm::function_ref<llvm::Error(DType, llvm::ArrayRef<int64_t>)>
               checkType = nullptr);
  llvm::Error saveNpy(llvm::StringRef path) const;

private:
  Tensor(DType dtype, llvm::ArrayRef<int64_t> shape,
         std::shared_ptr<uint8_t> storage, size_t offset)
      : dtype_(dtype), shape_(shape), storage_(std::move(storage)),
        offset_(offset) {}
  /// New storage of a size that fits (a fatal error otherwise), zeroed or
  /// not.
  static Tensor create(DType dtype, llvm::ArrayRef<int64_t> shape, bool zeroed);
  static llvm::Error elementCountError(size_t count,
                                       llvm::ArrayRef<int64_t> shape);
  void checkElementType(DType requested) const;

  DType dtype_;
  llvm::SmallVector<int64_t, 4> shape_;
  std::shared_ptr<uint8_t> storage_; // 64-byte aligned
  size_t offset_ = 0;                // bytes into storage_, for views
};

} // namespace tracec

#endif // TRACEC_TENSOR_TENSOR_H
