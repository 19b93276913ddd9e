//===- InputParser.cpp - tracec-run's --input values ----------------------===//

#include "InputParser.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstring>
#include <optional>

using namespace tracec;
using llvm::StringRef;

namespace {
/// A number of a literal: its value, and the integer it spells exactly
/// when it is one (a double holds integers exactly only up to 2^53; i64
/// arguments take the exact one).
struct Number {
  double value;
  std::optional<int64_t> exact;
};

/// A recursive-descent reader of number literals and nested lists.
class LiteralReader {
public:
  explicit LiteralReader(StringRef text) : text_(text), rest_(text) {}

  /// Reads the whole literal into `values`, recording its shape.
  llvm::Error read(std::vector<Number> &values, std::vector<int64_t> &shape) {
    if (auto error = readValue(values, shape, 0))
      return error;
    rest_ = rest_.ltrim();
    if (!rest_.empty())
      return errorHere("unexpected '" + rest_.take_front(1) + "'");
    return llvm::Error::success();
  }

private:
  llvm::Error readValue(std::vector<Number> &values,
                        std::vector<int64_t> &shape, size_t depth) {
    rest_ = rest_.ltrim();
    if (!rest_.consume_front("["))
      return readNumber(values, shape, depth);
    // Each level is a recursive call: bound them before the stack runs out.
    if (depth == kMaxRank)
      return errorHere("lists nested deeper than " + llvm::Twine(kMaxRank) +
                       " levels (a tensor of rank over " +
                       llvm::Twine(kMaxRank) + ")");
    int64_t count = 0;
    rest_ = rest_.ltrim();
    if (!rest_.consume_front("]")) {
      while (true) {
        if (auto error = readValue(values, shape, depth + 1))
          return error;
        ++count;
        rest_ = rest_.ltrim();
        if (rest_.consume_front("]"))
          break;
        if (!rest_.consume_front(","))
          return errorHere("expected ',' or ']'");
      }
    }
    return recordDim(shape, depth, count);
  }

  llvm::Error readNumber(std::vector<Number> &values,
                         std::vector<int64_t> &shape, size_t depth) {
    size_t end = rest_.find_first_of(",] \t\n");
    StringRef token = rest_.take_front(end);
    if (token.empty())
      return errorHere("expected a number or '['");
    double value;
    int64_t exact;
    std::optional<int64_t> integer;
    if (!token.getAsInteger(10, exact))
      integer = exact;
    std::string lower = token.lower();
    if (lower == "true")
      value = 1;
    else if (lower == "false")
      value = 0;
    else if (lower == "nan")
      value = NAN;
    else if (lower == "inf" || lower == "+inf")
      value = INFINITY;
    else if (lower == "-inf")
      value = -INFINITY;
    else if (token.getAsDouble(value))
      return errorHere("'" + token + "' is not a number");
    rest_ = rest_.drop_front(token.size());
    values.push_back({value, integer});
    // A number is a leaf: it fixes the nesting depth.
    if (leafDepth_ && *leafDepth_ != depth)
      return errorHere("mixes numbers and lists at the same level");
    leafDepth_ = depth;
    return llvm::Error::success();
  }

  /// Every list at one depth must have the same length.
  llvm::Error recordDim(std::vector<int64_t> &shape, size_t depth,
                        int64_t count) {
    if (leafDepth_ && depth >= *leafDepth_)
      return errorHere("mixes numbers and lists at the same level");
    if (shape.size() <= depth)
      shape.resize(depth + 1, -1);
    if (shape[depth] == -1)
      shape[depth] = count;
    else if (shape[depth] != count)
      return errorHere("ragged list: a list at depth " + llvm::Twine(depth) +
                       " has " + llvm::Twine(count) + " elements, another " +
                       llvm::Twine(shape[depth]));
    return llvm::Error::success();
  }

  llvm::Error errorHere(const llvm::Twine &message) {
    size_t column = text_.size() - rest_.size() + 1;
    // A long literal is shown by its start: the column says where.
    std::string shown = text_.size() <= kMaxShown
                            ? text_.str()
                            : text_.take_front(kMaxShown).str() + "...";
    return llvm::createStringError("bad literal '" + shown + "' at column " +
                                   llvm::Twine(column) + ": " + message);
  }

  static constexpr size_t kMaxRank = 64;
  static constexpr size_t kMaxShown = 60;

  StringRef text_, rest_;
  std::optional<size_t> leafDepth_;
};

/// Stores `value` as element `i` of `tensor`, converting to its dtype.
llvm::Error storeElement(Tensor &tensor, int64_t i, Number number) {
  void *data = tensor.rawData();
  double value = number.value;
  switch (tensor.dtype()) {
  case DType::f32: static_cast<float *>(data)[i] = value; return llvm::Error::success();
  case DType::f64: static_cast<double *>(data)[i] = value; return llvm::Error::success();
  case DType::f16:
  case DType::bf16: {
    llvm::APFloat f(value);
    bool losesInfo;
    f.convert(tensor.dtype() == DType::f16 ? llvm::APFloat::IEEEhalf()
                                           : llvm::APFloat::BFloat(),
              llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    static_cast<uint16_t *>(data)[i] =
        f.bitcastToAPInt().getZExtValue();
    return llvm::Error::success();
  }
  case DType::i1:
  case DType::i32:
  case DType::i64:
    break;
  }
  if (std::trunc(value) != value)
    return llvm::createStringError("value " + std::to_string(value) +
                                   " is not an integer, as " +
                                   dtypeName(tensor.dtype()) + " needs");
  if (tensor.dtype() == DType::i1) {
    if (value != 0 && value != 1)
      return llvm::createStringError("value " + std::to_string(value) +
                                     " is not a bool (0/1/true/false)");
    static_cast<uint8_t *>(data)[i] = value != 0;
  } else if (tensor.dtype() == DType::i32) {
    if (value < INT32_MIN || value > INT32_MAX)
      return llvm::createStringError("value " + std::to_string(value) +
                                     " does not fit i32");
    static_cast<int32_t *>(data)[i] = static_cast<int32_t>(value);
  } else if (number.exact) {
    static_cast<int64_t *>(data)[i] = *number.exact;
  } else {
    // [-2^63, 2^63): converting a double outside it is undefined.
    if (value < -0x1p63 || value >= 0x1p63)
      return llvm::createStringError("value " + std::to_string(value) +
                                     " does not fit i64");
    static_cast<int64_t *>(data)[i] = static_cast<int64_t>(value);
  }
  return llvm::Error::success();
}
/// The rank and every static dim (a `?` takes any size) agree.
bool shapeMatches(const TensorSpec &spec, llvm::ArrayRef<int64_t> shape) {
  if (shape.size() != spec.shape.size())
    return false;
  for (auto [dim, size] : llvm::zip(spec.shape, shape))
    if (dim != TensorSpec::kDynamic && dim != size)
      return false;
  return true;
}
} // namespace

llvm::Expected<Tensor> tracec::parseInputValue(StringRef value,
                                               const TensorSpec &spec) {
  if (value.consume_front("@")) {
    // NumPy has no bf16: a bf16 argument takes an f32 file, rounded.
    DType fileDType = spec.dtype == DType::bf16 ? DType::f32 : spec.dtype;
    llvm::Expected<Tensor> tensor = Tensor::loadNpy(
        value, [&](DType dtype, llvm::ArrayRef<int64_t> shape) -> llvm::Error {
          if (dtype == fileDType && shapeMatches(spec, shape))
            return llvm::Error::success();
          return llvm::createStringError(
              "expected " + spec.str() +
              (fileDType != spec.dtype ? " (as f32)" : "") + ", got " +
              formatTensorType(dtype, shape));
        });
    if (!tensor || fileDType == spec.dtype)
      return tensor;
    return tensor->convertedTo(spec.dtype);
  }

  std::vector<Number> values;
  std::vector<int64_t> shape;
  if (auto error = LiteralReader(value).read(values, shape))
    return std::move(error);
  // A literal's shape is what it spells; a bare number may also fill a
  // rank-0 argument.
  if (!shapeMatches(spec, shape)) {
    std::string got = formatTensorType(spec.dtype, shape);
    return llvm::createStringError("the literal is a " + got +
                                   " but the argument is a " + spec.str());
  }
  Tensor tensor = Tensor::zeros(spec.dtype, shape);
  for (size_t i = 0; i < values.size(); ++i)
    if (auto error = storeElement(tensor, i, values[i]))
      return std::move(error);
  return tensor;
}
