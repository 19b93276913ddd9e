//===- Op.cpp - tracec::op, and the op functions generated from ODS -------===//
//
// The one way the tracer records an op of the dialect from tensors: the
// op's traits say how operands are promoted, its type inference gives the
// result, its verifier the errors.
//
//===----------------------------------------------------------------------===//

#include "Tracer.h"

#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "tracec/Frontend/Ops.h"

using namespace tracec;
using namespace tracec::detail;
namespace trace = mlir::trace;
namespace traits = mlir::OpTrait::trace;

namespace {
/// What an op needs from tracec::op before it can be built (type inference
/// reads the operands and attributes without checking them).
struct OpSignature {
  llvm::StringLiteral name;
  unsigned numOperands; // at least that many where `variadic`
  bool variadic;
  std::vector<llvm::StringLiteral> requiredAttributes;
};
#include "tracec/Frontend/OpSignatures.inc"
} // namespace

/// The signature of op `name`, or a TraceError if tracec::op cannot build it.
static const OpSignature &opSignature(llvm::StringRef name) {
  for (const OpSignature &signature : kOpSignatures)
    if (signature.name == name)
      return signature;
  fail(locationPrefix(location()) + ": error: '" + name +
       "' is not an op that the tracer builds from tensors alone (ops whose "
       "result type is an input, such as trace.reshape and trace.cast, have "
       "functions of their own)");
}

/// Throws unless `operands` and `attributes` fit `signature`.
static void checkOpSignature(const OpSignature &signature,
                             llvm::ArrayRef<Value> operands,
                             llvm::ArrayRef<OpAttribute> attributes) {
  if (operands.size() != signature.numOperands &&
      !(signature.variadic && operands.size() >= signature.numOperands))
    fail(locationPrefix(location()) + ": error: '" + signature.name +
         "' takes " + (signature.variadic ? "at least " : "") +
         llvm::Twine(signature.numOperands) + " operands, got " +
         llvm::Twine(operands.size()));
  for (llvm::StringRef required : signature.requiredAttributes)
    if (llvm::none_of(attributes, [&](const OpAttribute &attribute) {
          return attribute.name == required;
        }))
      fail(locationPrefix(location()) + ": error: '" + signature.name +
           "' requires attribute '" + required + "'");
}

/// The rank of a dtype in the promotion lattice.
static int promotionRank(DType dtype) {
  switch (dtype) {
  case DType::i1:
    return 0;
  case DType::i32:
    return 1;
  case DType::i64:
    return 2;
  case DType::f16:
  case DType::bf16:
    return 3;
  case DType::f32:
    return 4;
  case DType::f64:
    return 5;
  }
  return 0;
}

DType tracec::promoteTypes(DType a, DType b) {
  if (a == b)
    return a;
  if ((a == DType::f16 && b == DType::bf16) ||
      (a == DType::bf16 && b == DType::f16))
    return DType::f32;
  return promotionRank(a) >= promotionRank(b) ? a : b;
}

Value detail::castTo(const Value &value, DType dtype) {
  mlir::Value x = resolve(value);
  if (value.dtype() == dtype)
    return value;
  return wrap(
      createWithBuilder<trace::CastOp>(x, elementType(dtype))->getResult(0));
}

Value tracec::cast(const Value &x, DType dtype) { return castTo(x, dtype); }

static mlir::Attribute toAttribute(const OpAttribute::Data &data) {
  mlir::Builder b(&context());
  return std::visit(
      [&](const auto &v) -> mlir::Attribute {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, int64_t>)
          return b.getI64IntegerAttr(v);
        else if constexpr (std::is_same_v<T, double>)
          return b.getF64FloatAttr(v);
        else if constexpr (std::is_same_v<T, bool>)
          return v ? b.getUnitAttr() : mlir::Attribute();
        else if constexpr (std::is_same_v<T, std::string>)
          return b.getStringAttr(v);
        else
          return b.getDenseI64ArrayAttr(v);
      },
      data);
}

/// The dtype `operands` meet in: the strongly typed ones promote each other
/// (JAX's lattice) and weakly typed ones take their dtype, unless a weak
/// float meets only integers or bools (f32) or a weak integer is wider than
/// the strong integers or bools (it widens them rather than wrap: JAX
/// raises an overflow there). `weak`: whether the result is weakly typed,
/// as JAX's is when the weak operands decide its dtype.
DType tracec::commonDType(llvm::ArrayRef<Value> operands, bool &weak) {
  std::optional<DType> strong, weakJoin;
  for (const Value &operand : operands) {
    std::optional<DType> &join = operand.isWeak() ? weakJoin : strong;
    join = join ? promoteTypes(*join, operand.dtype()) : operand.dtype();
  }
  if (!strong) {
    weak = true;
    return *weakJoin;
  }
  DType common = *strong;
  if (weakJoin && isFloat(*weakJoin) && !isFloat(common))
    common = DType::f32;
  else if (weakJoin && !isFloat(*weakJoin) && !isFloat(common))
    common = promoteTypes(common, *weakJoin);
  weak = common != *strong;
  return common;
}

namespace {
/// An op's operands after promotion, and whether its result is weakly
/// typed if it has their dtype.
struct PromotedOperands {
  std::vector<Value> values;
  bool weak = false;
};
} // namespace

/// The operands converted as the op's traits ask.
static PromotedOperands promoteOperands(mlir::RegisteredOperationName name,
                                        llvm::ArrayRef<Value> operands) {
  PromotedOperands promoted;
  promoted.values.assign(operands.begin(), operands.end());
  for (const Value &operand : operands)
    resolve(operand);
  std::vector<Value> &values = promoted.values;
  // Weak in, weak out: `sin` of a weak number, a sum of one.
  promoted.weak =
      !operands.empty() && llvm::all_of(operands, [](const Value &operand) {
        return operand.isWeak();
      });
  if (name.hasTrait<traits::PromotesIntegersToFloat>())
    for (Value &operand : values)
      if (!isFloat(operand.dtype()))
        operand = operand.isWeak() ? castTo(operand, DType::f32).asWeak()
                                   : castTo(operand, DType::f32);
  size_t first = name.hasTrait<traits::PromotesOperands>()             ? 0
                 : name.hasTrait<traits::PromotesOperandsAfterFirst>() ? 1
                                                                       : ~0u;
  if (first >= values.size())
    return promoted;
  DType common = commonDType(llvm::ArrayRef<Value>(values).drop_front(first),
                             promoted.weak);
  for (size_t i = first; i < values.size(); ++i)
    values[i] = castTo(values[i], common);
  return promoted;
}

Value tracec::op(llvm::StringRef name, llvm::ArrayRef<Value> operands,
                 llvm::ArrayRef<OpAttribute> attributes) {
  checkOpSignature(opSignature(name), operands, attributes);
  std::optional<mlir::RegisteredOperationName> registered =
      mlir::RegisteredOperationName::lookup(name, &context());
  assert(registered && "a generated op is registered");
  PromotedOperands promoted = promoteOperands(*registered, operands);
  llvm::SmallVector<mlir::Value> values;
  for (const Value &operand : promoted.values)
    values.push_back(resolve(operand));
  llvm::SmallVector<mlir::NamedAttribute> named;
  for (const OpAttribute &attribute : attributes)
    if (mlir::Attribute attr = toAttribute(attribute.data))
      named.push_back(mlir::NamedAttribute(
          mlir::StringAttr::get(&context(), attribute.name), attr));
  Value result = wrap(createOp(name, values, named)->getResult(0));
  // A result of another dtype (a comparison's, an argmax's) is strong.
  bool sameDType = !promoted.values.empty() &&
                   result.dtype() == promoted.values.back().dtype();
  return promoted.weak && sameDType ? result.asWeak() : result;
}

#include "tracec/Frontend/OpFunctions.cpp.inc"
