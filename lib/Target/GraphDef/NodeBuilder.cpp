//===- NodeBuilder.cpp - Attributes, constants and verified op creation ---===//

#include "NodeBuilder.h"

#include "tracec/Dialect/Trace/IR/InferResultTypes.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>

using namespace mlir;
using namespace tracec::graphdef;

FailureOr<Type> tracec::graphdef::convertDataType(tf::DataType dtype,
                                          MLIRContext *context, Location loc) {
  switch (dtype) {
  case tf::DT_FLOAT:
    return Type(Float32Type::get(context));
  case tf::DT_DOUBLE:
    return Type(Float64Type::get(context));
  case tf::DT_HALF:
    return Type(Float16Type::get(context));
  case tf::DT_BFLOAT16:
    return Type(BFloat16Type::get(context));
  case tf::DT_BOOL:
    return Type(IntegerType::get(context, 1));
  case tf::DT_INT32:
    return Type(IntegerType::get(context, 32));
  case tf::DT_INT64:
    return Type(IntegerType::get(context, 64));
  default:
    break;
  }
  std::string name = tf::DataType_IsValid(dtype)
                         ? tf::DataType_Name(dtype)
                         : "DataType " + std::to_string(int(dtype));
  return emitError(loc) << "dtype " << name
                        << " is not supported by the trace dialect (it has "
                           "DT_FLOAT, DT_DOUBLE, DT_HALF, DT_BFLOAT16, "
                           "DT_BOOL, DT_INT32, DT_INT64)";
}

FailureOr<RankedTensorType>
tracec::graphdef::convertShape(const tf::TensorShapeProto &shape, Type elementType,
                       Location loc, StringRef what) {
  if (shape.unknown_rank())
    return emitError(loc) << what << " has an unknown rank";
  SmallVector<int64_t> dims;
  for (const auto &dim : shape.dim()) {
    if (dim.size() < -1)
      return emitError(loc) << what << " has a negative dim size ("
                            << dim.size() << " at dim " << dims.size() << ")";
    if (dim.size() == -1)
      return emitError(loc) << what << " has an unknown dim (" << dims.size()
                            << "); give its shape";
    dims.push_back(dim.size());
  }
  return RankedTensorType::get(dims, elementType);
}

namespace {
/// Reads element i of a TensorProto's typed field or its raw content.
template <typename T, typename Field>
FailureOr<SmallVector<T>> elements(const tf::TensorProto &tensor,
                                   const Field &field, int64_t count,
                                   Location loc) {
  SmallVector<T> values;
  if (!tensor.tensor_content().empty()) {
    const std::string &bytes = tensor.tensor_content();
    if (bytes.size() != size_t(count) * sizeof(T))
      return emitError(loc) << "tensor_content has " << bytes.size()
                            << " bytes, expected " << count * sizeof(T);
    values.resize(count);
    std::memcpy(values.data(), bytes.data(), bytes.size());
    return values;
  }
  if (field.size() > count)
    return emitError(loc) << "tensor has " << field.size()
                          << " values for " << count << " elements";
  for (const auto &value : field)
    values.push_back(static_cast<T>(value));
  if (count == 0)
    return SmallVector<T>();
  // One value (or none: zeros) for many elements: a splat, kept as one.
  if (values.size() <= 1) {
    values.resize(1, T());
    return values;
  }
  // Fewer values than elements: the last one repeats (TensorFlow's rule).
  values.resize(count, values.back());
  return values;
}
} // namespace

FailureOr<DenseElementsAttr>
tracec::graphdef::convertTensor(const tf::TensorProto &tensor, Location loc) {
  MLIRContext *context = loc.getContext();
  FailureOr<Type> elementType = convertDataType(tensor.dtype(), context, loc);
  if (failed(elementType))
    return failure();
  FailureOr<RankedTensorType> type =
      convertShape(tensor.tensor_shape(), *elementType, loc, "the tensor");
  if (failed(type))
    return failure();
  // Elements are materialized: bound the count (and its overflow).
  int64_t count = 1;
  for (int64_t dim : type->getShape())
    if (llvm::MulOverflow(count, dim, count) || count > (int64_t(1) << 28))
      return emitError(loc) << "the tensor " << *type
                            << " is too large for a constant";
  switch (tensor.dtype()) {
  case tf::DT_FLOAT: {
    auto values = elements<float>(tensor, tensor.float_val(), count, loc);
    if (failed(values))
      return failure();
    return DenseElementsAttr::get(*type, ArrayRef<float>(*values));
  }
  case tf::DT_DOUBLE: {
    auto values = elements<double>(tensor, tensor.double_val(), count, loc);
    if (failed(values))
      return failure();
    return DenseElementsAttr::get(*type, ArrayRef<double>(*values));
  }
  case tf::DT_INT32: {
    auto values = elements<int32_t>(tensor, tensor.int_val(), count, loc);
    if (failed(values))
      return failure();
    return DenseElementsAttr::get(*type, ArrayRef<int32_t>(*values));
  }
  case tf::DT_INT64: {
    auto values = elements<int64_t>(tensor, tensor.int64_val(), count, loc);
    if (failed(values))
      return failure();
    return DenseElementsAttr::get(*type, ArrayRef<int64_t>(*values));
  }
  case tf::DT_BOOL: {
    auto values = elements<uint8_t>(tensor, tensor.bool_val(), count, loc);
    if (failed(values))
      return failure();
    SmallVector<bool> bits(values->begin(), values->end());
    return DenseElementsAttr::get(*type, ArrayRef<bool>(bits));
  }
  case tf::DT_HALF:
  case tf::DT_BFLOAT16: {
    // half_val holds the 16-bit patterns.
    auto values = elements<uint16_t>(tensor, tensor.half_val(), count, loc);
    if (failed(values))
      return failure();
    const llvm::fltSemantics &semantics =
        cast<FloatType>(*elementType).getFloatSemantics();
    SmallVector<APFloat> floats;
    for (uint16_t bits : *values)
      floats.emplace_back(semantics, APInt(16, bits));
    return DenseElementsAttr::get(*type, floats);
  }
  default:
    llvm_unreachable("convertDataType accepted the dtype");
  }
}

//===----------------------------------------------------------------------===//
// NodeBuilder
//===----------------------------------------------------------------------===//

InFlightDiagnostic NodeBuilder::error() {
  return emitError(loc) << "'" << node.op() << "' node '" << node.name()
                        << "' in function '" << function << "': ";
}

const tf::AttrValue *NodeBuilder::attr(StringRef name) const {
  auto it = node.attr().find(name.str());
  return it == node.attr().end() ? nullptr : &it->second;
}

template <typename T>
static FailureOr<T> attrOr(NodeBuilder &b, StringRef name,
                           tf::AttrValue::ValueCase kind, const char *what,
                           std::optional<T> byDefault,
                           llvm::function_ref<T(const tf::AttrValue &)> get) {
  const tf::AttrValue *value = b.attr(name);
  if (!value) {
    if (byDefault)
      return *byDefault;
    return b.error() << "missing attribute '" << name << "'";
  }
  if (value->value_case() != kind)
    return b.error() << "attribute '" << name << "' must be " << what;
  return get(*value);
}

FailureOr<int64_t> NodeBuilder::intAttr(StringRef name,
                                        std::optional<int64_t> byDefault) {
  return attrOr<int64_t>(*this, name, tf::AttrValue::kI, "an int", byDefault,
                         [](const tf::AttrValue &v) { return v.i(); });
}
FailureOr<bool> NodeBuilder::boolAttr(StringRef name,
                                      std::optional<bool> byDefault) {
  return attrOr<bool>(*this, name, tf::AttrValue::kB, "a bool", byDefault,
                      [](const tf::AttrValue &v) { return v.b(); });
}
FailureOr<float> NodeBuilder::floatAttr(StringRef name,
                                        std::optional<float> byDefault) {
  return attrOr<float>(*this, name, tf::AttrValue::kF, "a float", byDefault,
                       [](const tf::AttrValue &v) { return v.f(); });
}
FailureOr<std::string>
NodeBuilder::stringAttr(StringRef name, std::optional<StringRef> byDefault) {
  std::optional<std::string> fallback;
  if (byDefault)
    fallback = byDefault->str();
  return attrOr<std::string>(*this, name, tf::AttrValue::kS, "a string",
                             fallback,
                             [](const tf::AttrValue &v) { return v.s(); });
}
FailureOr<SmallVector<int64_t>>
NodeBuilder::intListAttr(StringRef name,
                         std::optional<ArrayRef<int64_t>> byDefault) {
  std::optional<SmallVector<int64_t>> fallback;
  if (byDefault)
    fallback = SmallVector<int64_t>(*byDefault);
  return attrOr<SmallVector<int64_t>>(
      *this, name, tf::AttrValue::kList, "a list of ints", fallback,
      [](const tf::AttrValue &v) {
        return SmallVector<int64_t>(v.list().i().begin(), v.list().i().end());
      });
}
FailureOr<Type> NodeBuilder::typeAttr(StringRef name) {
  const tf::AttrValue *value = attr(name);
  if (!value)
    return error() << "missing attribute '" << name << "'";
  if (value->value_case() != tf::AttrValue::kType)
    return error() << "attribute '" << name << "' must be a type";
  return convertDataType(value->type(), context(), loc);
}

LogicalResult NodeBuilder::checkInputs(unsigned min, unsigned max) {
  if (inputs.size() >= min && inputs.size() <= max)
    return success();
  auto diag = error() << "expected ";
  if (min == max)
    diag << min;
  else
    diag << min << " to " << max;
  return diag << " inputs, got " << inputs.size();
}

LogicalResult NodeBuilder::checkListInputs(unsigned min, unsigned others) {
  FailureOr<int64_t> n = intAttr("N");
  if (failed(n))
    return failure();
  if (*n < int64_t(min))
    return error() << "attr N is " << *n << ", must be at least " << min;
  // Compared without adding to N, which may be as large as int64 goes.
  if (int64_t(inputs.size()) - int64_t(others) != *n)
    return error() << "attr N is " << *n << ", so " << others
                   << " inputs more than N are expected, got "
                   << inputs.size();
  return success();
}

RankedTensorType NodeBuilder::inputType(unsigned i) {
  return dyn_cast<RankedTensorType>(inputs[i].getType());
}

FailureOr<DenseElementsAttr> NodeBuilder::constantInput(unsigned i,
                                                        StringRef what) {
  DenseElementsAttr attr;
  if (!matchPattern(inputs[i], m_Constant(&attr)))
    return error() << "input " << i << " (" << what
                   << ") must be a constant";
  return attr;
}

FailureOr<SmallVector<int64_t>> NodeBuilder::constantInts(unsigned i,
                                                          StringRef what) {
  FailureOr<DenseElementsAttr> attr = constantInput(i, what);
  if (failed(attr))
    return failure();
  if (!attr->getElementType().isInteger())
    return error() << "input " << i << " (" << what
                   << ") must be an integer tensor";
  SmallVector<int64_t> values;
  for (const APInt &value : attr->getValues<APInt>())
    values.push_back(value.getSExtValue());
  return values;
}

FailureOr<double> NodeBuilder::constantScalar(unsigned i, StringRef what) {
  FailureOr<DenseElementsAttr> attr = constantInput(i, what);
  if (failed(attr))
    return failure();
  if (attr->getNumElements() != 1)
    return error() << "input " << i << " (" << what << ") must be a scalar";
  Type type = attr->getElementType();
  if (isa<FloatType>(type))
    return (*attr->getValues<APFloat>().begin()).convertToDouble();
  if (type.isInteger(1))
    return double(*attr->getValues<bool>().begin());
  return double((*attr->getValues<APInt>().begin()).getSExtValue());
}

FailureOr<Operation *> NodeBuilder::insertVerified(Operation *op) {
  builder.insert(op);
  if (failed(verify(op, /*verifyRecursively=*/false))) {
    OperationName name = op->getName(); // the op is gone after erase()
    op->erase();
    return error() << "the " << name
                   << " it maps to does not verify (see above)";
  }
  return op;
}

FailureOr<Operation *> NodeBuilder::createOp(StringRef name,
                                             ValueRange operands,
                                             ArrayRef<NamedAttribute> attributes,
                                             unsigned numResults) {
  OperationState state(loc, name);
  state.addOperands(operands);
  state.addAttributes(attributes);
  Operation *op = mlir::trace::createWithInferredTypes(state, numResults);
  if (!op)
    return error() << "cannot build " << name << " from these inputs";
  return insertVerified(op);
}

FailureOr<Value> NodeBuilder::create(StringRef name, ValueRange operands,
                                     ArrayRef<NamedAttribute> attributes) {
  FailureOr<Operation *> op = createOp(name, operands, attributes);
  if (failed(op))
    return failure();
  return foldResult(*op);
}

Value NodeBuilder::foldResult(Operation *op) {
  SmallVector<OpFoldResult, 1> folded;
  if (op->getNumResults() != 1 || failed(op->fold(folded)) || folded.empty())
    return op->getResult(0);
  Value result = dyn_cast<Value>(folded[0]);
  if (!result) {
    auto attr = dyn_cast<DenseElementsAttr>(llvm::cast<Attribute>(folded[0]));
    if (!attr)
      return op->getResult(0);
    result = constant(attr);
  }
  op->erase();
  return result;
}

Value NodeBuilder::constant(DenseElementsAttr attr) {
  return mlir::trace::ConstantOp::create(builder, loc, attr).getResult();
}

Value NodeBuilder::scalar(double value, Type elementType) {
  auto type = RankedTensorType::get({}, elementType);
  if (auto floatType = dyn_cast<FloatType>(elementType)) {
    APFloat f(value);
    bool lost;
    f.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
              &lost);
    return constant(DenseElementsAttr::get(type, f));
  }
  if (elementType.isInteger(1))
    return constant(DenseElementsAttr::get(type, value != 0));
  return constant(DenseElementsAttr::get(
      type, APInt(elementType.getIntOrFloatBitWidth(), int64_t(value),
                  /*isSigned=*/true)));
}

FailureOr<Value> NodeBuilder::reshape(Value x, ArrayRef<int64_t> shape) {
  if (llvm::cast<RankedTensorType>(x.getType()).getShape() == shape)
    return x;
  return buildValue<mlir::trace::ReshapeOp>(x, shape);
}

FailureOr<Value> NodeBuilder::cast(Value x, Type elementType) {
  if (llvm::cast<RankedTensorType>(x.getType()).getElementType() == elementType)
    return x;
  return buildValue<mlir::trace::CastOp>(x, elementType);
}
