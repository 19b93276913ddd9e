//===- Value.h - Symbolic tensors recorded by the tracer ------------------===//
//
// A tracec::Value is a symbolic tensor inside a function being traced (see
// tracec::trace): an SSA value of the `trace` dialect with a shape and a
// dtype; a dim may be dynamic (mlir::ShapedType::kDynamic, `?`) where the
// trace's inputs have dynamic dims. Arithmetic on Values records ops:
//
//   tracec::Value y = tracec::relu(tracec::matmul(x, w) + b) * 0.5;
//
// Binary ops broadcast as NumPy does; operands of different dtypes are
// promoted first (bool < i32 < i64 < f16/bf16 < f32 < f64; an integer and
// a float give the float; f16 with bf16 gives f32), and a C++ scalar takes
// the dtype of the Value it meets (JAX's weak typing): `x * 2` keeps x's
// dtype, and a fractional scalar with an integer or bool Value gives f32.
//
// A Value belongs to the trace (and the region: a cond branch, a loop body)
// that created it. It may be used in nested regions and in functions traced
// inside it (grad callees, where it becomes a captured input); using it
// after its region or trace has ended, or in another trace, throws
// TraceError.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_FRONTEND_VALUE_H
#define TRACEC_FRONTEND_VALUE_H

#include "tracec/Frontend/TraceError.h"
#include "tracec/Tensor/Tensor.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"

#include <cstdint>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace tracec {

class Value {
public:
  /// A null Value (no tensor); using it in an op throws TraceError.
  Value() = default;

  explicit operator bool() const { return bool(value_); }
  /// Throws TraceError for a null Value; shape() of one is empty.
  DType dtype() const;
  llvm::ArrayRef<int64_t> shape() const {
    return type_ ? type_.getShape() : llvm::ArrayRef<int64_t>();
  }
  int64_t rank() const { return shape().size(); }
  /// The element count; mlir::ShapedType::kDynamic if a dim is dynamic.
  int64_t numElements() const {
    if (!type_)
      return 0;
    return type_.hasStaticShape() ? type_.getNumElements()
                                  : mlir::ShapedType::kDynamic;
  }
  /// "tensor<2x3xf32>".
  std::string typeString() const;
  mlir::RankedTensorType type() const { return type_; }

  /// The underlying SSA value. It is only meaningful while its trace is
  /// being recorded; the tracer checks that before every use.
  mlir::Value getUnchecked() const { return value_; }
  /// The identity of the region that defined this Value.
  uint64_t scope() const { return scope_; }

  /// Whether this is weakly typed, as JAX's Python numbers are: a number
  /// given as an argument (a scalar constant, too), or what ops made of
  /// weak values alone. Meeting strongly typed operands it takes their
  /// dtype (`f16_array * weak_f32` is f16) instead of promoting them.
  bool isWeak() const { return weak_; }
  /// This Value, weakly typed.
  Value asWeak() const {
    Value weak = *this;
    weak.weak_ = true;
    return weak;
  }

  /// Used by the tracer: wraps `value` defined in region `scope`.
  Value(mlir::Value value, uint64_t scope);

private:
  mlir::Value value_;
  mlir::RankedTensorType type_;
  uint64_t scope_ = 0;
  bool weak_ = false;
};

/// A C++ number mixed with a Value: it becomes a constant of the Value's
/// dtype (or f32 if it is fractional and the Value is an integer or bool).
struct Scalar {
  double value;
  bool isIntegral;
  template <typename T,
            typename = std::enable_if_t<std::is_arithmetic<T>::value>>
  Scalar(T v) // NOLINT: implicit on purpose, as in `x * 2`.
      : value(static_cast<double>(v)), isIntegral(std::is_integral<T>::value) {}
};

//===----------------------------------------------------------------------===//
// Recording ops
//===----------------------------------------------------------------------===//

/// An attribute of an op recorded by tracec::op, as a plain value: an i64,
/// an f64, a unit attribute (true: present, false: absent), a string or an
/// i64 array.
struct OpAttribute {
  using Data = std::variant<int64_t, double, bool, std::string,
                            std::vector<int64_t>>;
  OpAttribute(llvm::StringRef name, int64_t v) : name(name), data(v) {}
  OpAttribute(llvm::StringRef name, int v) : name(name), data(int64_t(v)) {}
  OpAttribute(llvm::StringRef name, double v) : name(name), data(v) {}
  OpAttribute(llvm::StringRef name, bool v) : name(name), data(v) {}
  OpAttribute(llvm::StringRef name, llvm::StringRef v)
      : name(name), data(v.str()) {}
  OpAttribute(llvm::StringRef name, const char *v)
      : name(name), data(std::string(v)) {}
  OpAttribute(llvm::StringRef name, llvm::ArrayRef<int64_t> v)
      : name(name), data(std::vector<int64_t>(v)) {}
  std::string name;
  Data data;
};

/// Records op `name` ("trace.exp") of the trace dialect with one tensor
/// result, its type inferred by the op. Operands are first converted as the
/// op's traits ask (Trace_PromotesOperands: to their common dtype;
/// Trace_PromotesIntegersToFloat: integers and bools to f32). What the op
/// rejects throws TraceError with the dialect's message. Every op of that
/// kind also has a function of its own, generated from its ODS definition
/// (tracec-tblgen), declared below: `exp(x)`, `matmul(a, b)`, ...
Value op(llvm::StringRef name, llvm::ArrayRef<Value> operands,
         llvm::ArrayRef<OpAttribute> attributes = {});

/// The dtype two operands are promoted to (JAX's lattice, described
/// above): bool < i32 < i64 < f16/bf16 < f32 < f64; f16 with bf16 gives f32.
DType promoteTypes(DType a, DType b);
/// The dtype `operands` meet in: strongly typed ones promote each other,
/// weakly typed ones take theirs (see Value::isWeak); `weak` is set to
/// whether a result of that dtype is weakly typed.
DType commonDType(llvm::ArrayRef<Value> operands, bool &weak);

} // namespace tracec

// One function per op, with the op's operands and attributes as parameters:
// NumPy's name (`maximum` for trace.max, `less` for trace.lt) where the
// mnemonic differs. Binary ops broadcast and promote as described above.
#include "tracec/Frontend/OpFunctions.h.inc"

namespace tracec {

/// A rank-0 constant for `scalar` meeting `other` (weak typing, as above).
Value scalarLike(Scalar scalar, const Value &other);

#define TRACEC_BINARY_SCALAR_OVERLOADS(NAME)                                   \
  inline Value NAME(const Value &lhs, Scalar rhs) {                            \
    return NAME(lhs, scalarLike(rhs, lhs));                                    \
  }                                                                            \
  inline Value NAME(Scalar lhs, const Value &rhs) {                            \
    return NAME(scalarLike(lhs, rhs), rhs);                                    \
  }
TRACEC_BINARY_SCALAR_OVERLOADS(add)
TRACEC_BINARY_SCALAR_OVERLOADS(sub)
TRACEC_BINARY_SCALAR_OVERLOADS(mul)
TRACEC_BINARY_SCALAR_OVERLOADS(div)
TRACEC_BINARY_SCALAR_OVERLOADS(pow)
TRACEC_BINARY_SCALAR_OVERLOADS(maximum)
TRACEC_BINARY_SCALAR_OVERLOADS(minimum)
TRACEC_BINARY_SCALAR_OVERLOADS(equal)
TRACEC_BINARY_SCALAR_OVERLOADS(not_equal)
TRACEC_BINARY_SCALAR_OVERLOADS(less)
TRACEC_BINARY_SCALAR_OVERLOADS(less_equal)
TRACEC_BINARY_SCALAR_OVERLOADS(greater)
TRACEC_BINARY_SCALAR_OVERLOADS(greater_equal)
#undef TRACEC_BINARY_SCALAR_OVERLOADS

//===----------------------------------------------------------------------===//
// Operators. `==` and `!=` are not overloaded (they would not give a bool);
// use equal/not_equal.
//===----------------------------------------------------------------------===//

inline Value operator+(const Value &a, const Value &b) { return add(a, b); }
inline Value operator-(const Value &a, const Value &b) { return sub(a, b); }
inline Value operator*(const Value &a, const Value &b) { return mul(a, b); }
inline Value operator/(const Value &a, const Value &b) { return div(a, b); }
inline Value operator<(const Value &a, const Value &b) { return less(a, b); }
inline Value operator<=(const Value &a, const Value &b) {
  return less_equal(a, b);
}
inline Value operator>(const Value &a, const Value &b) { return greater(a, b); }
inline Value operator>=(const Value &a, const Value &b) {
  return greater_equal(a, b);
}
inline Value operator-(const Value &x) { return neg(x); }

#define TRACEC_SCALAR_OPERATOR(OP, NAME)                                       \
  inline Value operator OP(const Value &a, Scalar b) { return NAME(a, b); }    \
  inline Value operator OP(Scalar a, const Value &b) { return NAME(a, b); }
TRACEC_SCALAR_OPERATOR(+, add)
TRACEC_SCALAR_OPERATOR(-, sub)
TRACEC_SCALAR_OPERATOR(*, mul)
TRACEC_SCALAR_OPERATOR(/, div)
TRACEC_SCALAR_OPERATOR(<, less)
TRACEC_SCALAR_OPERATOR(<=, less_equal)
TRACEC_SCALAR_OPERATOR(>, greater)
TRACEC_SCALAR_OPERATOR(>=, greater_equal)
#undef TRACEC_SCALAR_OPERATOR

inline Value &operator+=(Value &a, const Value &b) { return a = a + b; }
inline Value &operator-=(Value &a, const Value &b) { return a = a - b; }
inline Value &operator*=(Value &a, const Value &b) { return a = a * b; }
inline Value &operator/=(Value &a, const Value &b) { return a = a / b; }

} // namespace tracec

#endif // TRACEC_FRONTEND_VALUE_H
