//===- TensorFormat.cpp - Printing tensors the way NumPy does -------------===//
//
// NumPy's defaults (np.set_printoptions: precision 8, floatmode 'maxprec'):
// each float is the shortest decimal, with at most 8 fraction digits, that
// reads back as the same value of its dtype; columns align on the decimal
// point; scientific notation is used when a magnitude is >= 1e8 or < 1e-4,
// or when the largest and smallest differ by more than 1000x.
//
//===----------------------------------------------------------------------===//

#include "tracec/Runtime/Tensor.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>

using namespace tracec;

namespace {

constexpr int kMaxPrecision = 8;

/// `text` parsed back into `dtype`'s precision, as a double.
double roundTrip(const std::string &text, DType dtype) {
  switch (dtype) {
  case DType::f32: return std::strtof(text.c_str(), nullptr);
  case DType::f16:
  case DType::bf16: {
    llvm::APFloat value(dtype == DType::f16 ? llvm::APFloat::IEEEhalf()
                                            : llvm::APFloat::BFloat());
    (void)value.convertFromString(text, llvm::APFloat::rmNearestTiesToEven);
    bool losesInfo;
    value.convert(llvm::APFloat::IEEEdouble(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    return value.convertToDouble();
  }
  default: return std::strtod(text.c_str(), nullptr);
  }
}

std::string printf(const char *format, int digits, double value) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format(format, digits, value);
  return text;
}

/// The fewest digits (up to 8) after the point, in fixed ('f') or
/// scientific ('e') notation, that read back as `value`.
int shortestDigits(double value, DType dtype, bool scientific) {
  const char *format = scientific ? "%.*e" : "%.*f";
  for (int digits = 0; digits < kMaxPrecision; ++digits)
    if (roundTrip(printf(format, digits, value), dtype) == value)
      return digits;
  return kMaxPrecision;
}

/// Trailing zeros of the fraction go ("2.50" -> "2.5", "1.00" -> "1.").
std::string trimFraction(std::string text) {
  size_t point = text.find('.');
  if (point == std::string::npos)
    return text + ".";
  size_t last = text.find_last_not_of('0');
  return text.substr(0, std::max(last, point) + 1);
}

std::vector<std::string> formatFloats(const Tensor &tensor) {
  DType dtype = tensor.dtype();
  double maxAbs = 0, minAbs = INFINITY;
  for (int64_t i = 0; i < tensor.numElements(); ++i) {
    double a = std::fabs(tensor.elementAsDouble(i));
    if (std::isfinite(a) && a != 0) {
      maxAbs = std::max(maxAbs, a);
      minAbs = std::min(minAbs, a);
    }
  }
  bool scientific = maxAbs >= 1e8 || (maxAbs > 0 && (minAbs < 1e-4 ||
                                                     maxAbs / minAbs > 1e3));
  // Scientific notation uses one precision for all elements.
  int sharedDigits = 0;
  if (scientific)
    for (int64_t i = 0; i < tensor.numElements(); ++i) {
      double v = tensor.elementAsDouble(i);
      if (std::isfinite(v))
        sharedDigits = std::max(sharedDigits, shortestDigits(v, dtype, true));
    }

  std::vector<std::string> elements;
  for (int64_t i = 0; i < tensor.numElements(); ++i) {
    double v = tensor.elementAsDouble(i);
    if (std::isnan(v)) {
      elements.push_back("nan");
    } else if (std::isinf(v)) {
      elements.push_back(v > 0 ? "inf" : "-inf");
    } else if (scientific) {
      std::string text = printf("%.*e", sharedDigits, v);
      if (sharedDigits == 0) // NumPy keeps the point: "1.e-05"
        text.insert(text.find('e'), ".");
      elements.push_back(text);
    } else {
      elements.push_back(trimFraction(
          printf("%.*f", shortestDigits(v, dtype, false), v)));
    }
  }
  return elements;
}

std::vector<std::string> formatIntegers(const Tensor &tensor) {
  std::vector<std::string> elements;
  const auto *data = static_cast<const uint8_t *>(tensor.rawData());
  for (int64_t i = 0; i < tensor.numElements(); ++i) {
    switch (tensor.dtype()) {
    case DType::i1:
      elements.push_back(data[i] ? "True" : "False");
      break;
    case DType::i32: {
      int32_t v;
      std::memcpy(&v, data + 4 * i, 4);
      elements.push_back(std::to_string(v));
      break;
    }
    default: {
      int64_t v;
      std::memcpy(&v, data + 8 * i, 8);
      elements.push_back(std::to_string(v));
      break;
    }
    }
  }
  return elements;
}

/// Pads the elements to one width; positional floats align on the decimal
/// point ("[ 1.   2.5]").
void alignElements(std::vector<std::string> &elements) {
  size_t intWidth = 0, fracWidth = 0, width = 0;
  auto positional = [](const std::string &e) {
    return e.find('.') != std::string::npos && e.find('e') == std::string::npos;
  };
  for (const std::string &e : elements) {
    if (positional(e)) {
      size_t point = e.find('.');
      intWidth = std::max(intWidth, point);
      fracWidth = std::max(fracWidth, e.size() - point - 1);
    }
  }
  for (std::string &e : elements) {
    if (positional(e)) {
      size_t point = e.find('.');
      e = std::string(intWidth - point, ' ') + e +
          std::string(fracWidth - (e.size() - point - 1), ' ');
    }
    width = std::max(width, e.size());
  }
  for (std::string &e : elements)
    e = std::string(width - e.size(), ' ') + e;
}

/// NumPy's _formatArray: nested brackets, rows wrapped at 75 columns with a
/// hanging indent, and arrays of more than 1000 elements summarized with
/// "..." after the first and before the last 3 items of each long axis.
class ArrayFormatter {
public:
  ArrayFormatter(llvm::ArrayRef<int64_t> shape,
                 const std::vector<std::string> &elements)
      : shape_(shape), elements_(elements) {
    int64_t count = 1;
    for (int64_t dim : shape)
      count *= dim;
    summarize_ = count > kSummaryThreshold;
  }

  std::string format() {
    std::vector<int64_t> index;
    return recurse(index, " ", kLineWidth);
  }

private:
  static constexpr int kLineWidth = 75;
  static constexpr int64_t kSummaryThreshold = 1000;
  static constexpr int64_t kEdgeItems = 3;

  /// Appends `word` to `line`, first moving `line` into `s` if the word
  /// would not fit (unless the line holds nothing but the indent).
  static void extend(std::string &s, std::string &line, const std::string &word,
                     size_t width, const std::string &prefix) {
    if (line.size() + word.size() > width && line.size() > prefix.size()) {
      s += llvm::StringRef(line).rtrim().str() + "\n";
      line = prefix;
    }
    line += word;
  }

  std::string element(llvm::ArrayRef<int64_t> index) const {
    int64_t linear = 0;
    for (size_t d = 0; d < index.size(); ++d)
      linear = linear * shape_[d] + index[d];
    return elements_[linear];
  }

  std::string recurse(std::vector<int64_t> &index, const std::string &hanging,
                      int width) {
    size_t axis = index.size();
    size_t left = shape_.size() - axis;
    if (left == 0)
      return element(index);
    std::string nextHanging = hanging + " ";
    int nextWidth = width - 1; // room for the closing ']'
    int64_t length = shape_[axis];
    bool summary = summarize_ && 2 * kEdgeItems < length;
    int64_t leading = summary ? kEdgeItems : 0;
    int64_t trailing = summary ? kEdgeItems : length;
    auto item = [&](int64_t i) {
      index.push_back(i);
      std::string text = recurse(index, nextHanging, nextWidth);
      index.pop_back();
      return text;
    };

    std::string s;
    if (left == 1) {
      size_t elementWidth = width - 1;
      std::string line = hanging;
      for (int64_t i = 0; i < leading; ++i) {
        extend(s, line, item(i), elementWidth, hanging);
        line += " ";
      }
      if (summary) {
        extend(s, line, "...", elementWidth, hanging);
        line += " ";
      }
      for (int64_t i = trailing; i > 1; --i) {
        extend(s, line, item(length - i), elementWidth, hanging);
        line += " ";
      }
      extend(s, line, item(length - 1), elementWidth, hanging);
      s += line;
    } else {
      std::string rowSeparator(left - 1, '\n');
      for (int64_t i = 0; i < leading; ++i)
        s += hanging + item(i) + rowSeparator;
      if (summary)
        s += hanging + "..." + rowSeparator;
      for (int64_t i = trailing; i > 1; --i)
        s += hanging + item(length - i) + rowSeparator;
      s += hanging + item(length - 1);
    }
    return "[" + s.substr(hanging.size()) + "]";
  }

  llvm::ArrayRef<int64_t> shape_;
  const std::vector<std::string> &elements_;
  bool summarize_;
};

} // namespace

std::string Tensor::toString() const {
  std::vector<std::string> elements =
      isFloat(dtype_) ? formatFloats(*this) : formatIntegers(*this);
  if (rank() == 0) {
    // A 0-d float prints as "29.0" where an array element is "29.".
    std::string text = elements[0];
    return text.back() == '.' ? text + "0" : text;
  }
  alignElements(elements);
  return ArrayFormatter(shape_, elements).format();
}
