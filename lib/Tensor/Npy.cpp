//===- Npy.cpp - NumPy .npy files <-> Tensor ------------------------------===//
//
// The format: "\x93NUMPY", version, header length, then a Python dict
// literal {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// padded so the data starts 64-byte aligned, then the raw C-order data.
//
//===----------------------------------------------------------------------===//

#include "tracec/Tensor/Tensor.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <limits>

using namespace tracec;
using llvm::StringRef;

static constexpr StringRef kMagic("\x93NUMPY", 6);

/// NumPy's descr for each dtype; bf16 has none.
static std::optional<StringRef> npyDescr(DType dtype) {
  switch (dtype) {
  case DType::f16: return StringRef("<f2");
  case DType::f32: return StringRef("<f4");
  case DType::f64: return StringRef("<f8");
  case DType::i1: return StringRef("|b1");
  case DType::i32: return StringRef("<i4");
  case DType::i64: return StringRef("<i8");
  case DType::bf16: return std::nullopt;
  }
  return std::nullopt;
}

static std::optional<DType> dtypeFromDescr(StringRef descr) {
  for (DType dtype : {DType::f16, DType::f32, DType::f64, DType::i1,
                      DType::i32, DType::i64})
    if (npyDescr(dtype) == descr)
      return dtype;
  // Single-byte types carry '|' but some writers use '<' or '='.
  if (descr == "<b1" || descr == "=b1" || descr == "?")
    return DType::i1;
  return std::nullopt;
}

/// The value of `key` in the header dict: the text up to the next top-level
/// comma (a tuple counts as one value).
static std::optional<StringRef> headerValue(StringRef header, StringRef key) {
  size_t at = header.find(("'" + key + "'").str());
  if (at == StringRef::npos)
    return std::nullopt;
  StringRef rest = header.drop_front(at + key.size() + 2).ltrim();
  if (!rest.consume_front(":"))
    return std::nullopt;
  rest = rest.ltrim();
  size_t end = rest.starts_with("(") ? rest.find(')') + 1 : rest.find(',');
  if (end == StringRef::npos || end == 0)
    return std::nullopt;
  return rest.take_front(end).trim();
}

/// The bytes of a tensor of `shape`, unless they overflow 64 bits.
static std::optional<uint64_t> byteCount(DType dtype,
                                         llvm::ArrayRef<int64_t> shape) {
  if (llvm::is_contained(shape, 0))
    return 0;
  uint64_t bytes = dtypeSize(dtype);
  for (int64_t dim : shape) {
    if (bytes > std::numeric_limits<uint64_t>::max() / uint64_t(dim))
      return std::nullopt;
    bytes *= uint64_t(dim);
  }
  return bytes;
}

static llvm::Error npyError(StringRef path, const llvm::Twine &message) {
  return llvm::createStringError(path + ": " + message);
}

llvm::Expected<Tensor>
Tensor::loadNpy(StringRef path,
                llvm::function_ref<llvm::Error(DType, llvm::ArrayRef<int64_t>)>
                    checkType) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file)
    return npyError(path, "cannot read: " + file.getError().message());
  return parseNpy((*file)->getBuffer(), path, checkType);
}

llvm::Expected<Tensor>
Tensor::parseNpy(StringRef bytes, StringRef path,
                 llvm::function_ref<llvm::Error(DType, llvm::ArrayRef<int64_t>)>
                     checkType) {
  if (!bytes.starts_with(kMagic) || bytes.size() < 10)
    return npyError(path, "not a .npy file (bad magic)");
  uint8_t major = bytes[6];
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = uint8_t(bytes[8]) | (uint8_t(bytes[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return npyError(path, "truncated header");
    headerLength = 0;
    for (int i = 0; i < 4; ++i)
      headerLength |= size_t(uint8_t(bytes[8 + i])) << (8 * i);
    headerStart = 12;
  } else {
    return npyError(path, "unsupported .npy version " + llvm::Twine(major));
  }
  if (bytes.size() < headerStart + headerLength)
    return npyError(path, "truncated header");
  StringRef header = bytes.substr(headerStart, headerLength);

  auto descr = headerValue(header, "descr");
  auto fortran = headerValue(header, "fortran_order");
  auto shapeText = headerValue(header, "shape");
  if (!descr || !fortran || !shapeText)
    return npyError(path, "malformed header: " + header.trim());
  std::optional<DType> dtype = dtypeFromDescr(descr->trim("'\""));
  if (!dtype)
    return npyError(path, "unsupported dtype " + *descr +
                              " (expected f2, f4, f8, b1, i4 or i8, "
                              "little-endian)");
  if (*fortran != "False")
    return npyError(path, "Fortran-order arrays are not supported; save a "
                          "C-order array (np.ascontiguousarray)");
  llvm::SmallVector<int64_t> shape;
  StringRef dims = shapeText->trim("()");
  llvm::SmallVector<StringRef> parts;
  dims.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef part : parts) {
    int64_t dim;
    if (part.trim().getAsInteger(10, dim) || dim < 0)
      return npyError(path, "malformed shape " + *shapeText);
    shape.push_back(dim);
  }

  if (checkType)
    if (llvm::Error error = checkType(*dtype, shape))
      return std::move(error);

  // The header may declare any shape: the data must be in the file before
  // anything is allocated for it.
  StringRef data = bytes.drop_front(headerStart + headerLength);
  std::optional<uint64_t> needed = byteCount(*dtype, shape);
  if (!needed || data.size() != *needed)
    return npyError(path, "holds " + llvm::Twine(data.size()) +
                              " data bytes but " +
                              formatTensorType(*dtype, shape) + " needs " +
                              (needed ? llvm::Twine(*needed)
                                      : llvm::Twine("more than 2^64")));
  auto tensor = empty(*dtype, shape);
  if (!tensor)
    return tensor.takeError();
  std::memcpy(tensor->rawData(), data.data(), data.size());
  return tensor;
}

llvm::Error Tensor::saveNpy(StringRef path) const {
  if (dtype_ == DType::bf16) {
    llvm::Expected<Tensor> wide = convertedTo(DType::f32);
    if (!wide)
      return wide.takeError();
    return wide->saveNpy(path);
  }
  std::optional<StringRef> descr = npyDescr(dtype_);
  if (!descr)
    return npyError(path, "no .npy dtype for " + dtypeName(dtype_));
  // NumPy's tuple syntax: "()", "(4,)", "(2, 3)".
  std::string shapeText = "(";
  for (size_t i = 0; i < shape_.size(); ++i)
    shapeText += (i ? ", " : "") + std::to_string(shape_[i]);
  shapeText += shape_.size() == 1 ? ",)" : ")";
  std::string header = "{'descr': '" + descr->str() +
                       "', 'fortran_order': False, 'shape': " + shapeText +
                       ", }";
  // Pad with spaces and a newline so magic + 4 + header is 64-aligned.
  size_t total = kMagic.size() + 4 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';

  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return npyError(path, "cannot write: " + ec.message());
  os << kMagic << char(1) << char(0) << char(header.size() & 0xff)
     << char(header.size() >> 8) << header;
  os.write(static_cast<const char *>(rawData()), sizeInBytes());
  os.close();
  if (os.has_error())
    return npyError(path, "write failed: " + os.error().message());
  return llvm::Error::success();
}
