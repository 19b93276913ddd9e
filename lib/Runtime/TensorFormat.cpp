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
#include <functional>

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
  // Nested brackets, row-major; the last dim's rows on one line each.
  std::string text;
  int64_t next = 0;
  std::function<void(int64_t)> emit = [&](int64_t dim) {
    text += "[";
    for (int64_t j = 0; j < shape_[dim]; ++j) {
      if (dim + 1 == rank()) {
        text += (j ? " " : "") + elements[next++];
        continue;
      }
      if (j)
        text += std::string(rank() - dim - 1, '\n') + std::string(dim + 1, ' ');
      emit(dim + 1);
    }
    text += "]";
  };
  emit(0);
  return text;
}
