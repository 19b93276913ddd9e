//===- Signature.cpp - What a host-callable function takes and returns ----===//

#include "tracec/Runtime/Signature.h"

#include "tracec/Dialect/Trace/IR/TraceDialect.h"
#include "llvm/Support/raw_ostream.h"

using namespace tracec;

static_assert(TensorSpec::kDynamic == mlir::ShapedType::kDynamic);

std::string TensorSpec::str() const {
  std::string text = "tensor<";
  for (int64_t dim : shape)
    text += (dim == kDynamic ? std::string("?") : std::to_string(dim)) + "x";
  return text + dtypeName(dtype).str() + ">";
}

bool TensorSpec::matches(const Tensor &tensor) const {
  if (tensor.dtype() != dtype || tensor.rank() != (int64_t)shape.size())
    return false;
  for (auto [dim, size] : llvm::zip(shape, tensor.shape()))
    if (dim != kDynamic && dim != size)
      return false;
  return true;
}

bool Signature::hasDynamicDims() const {
  auto dynamic = [](const TensorSpec &spec) { return spec.hasDynamicDims(); };
  return llvm::any_of(inputs, dynamic) || llvm::any_of(results, dynamic);
}

std::string Signature::str() const {
  std::string text = "@" + name + "(";
  for (size_t i = 0; i < inputs.size(); ++i)
    text += (i ? ", " : "") + (inputs[i].isVariable
                                   ? "!trace.resource<" + inputs[i].str() + ">"
                                   : inputs[i].str());
  text += ") -> (";
  for (size_t i = 0; i < results.size(); ++i)
    text += (i ? ", " : "") + results[i].str();
  return text + ")";
}

static std::optional<DType> dtypeOf(mlir::Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  type.print(os);
  return parseDType(name);
}

/// The spec of a host-callable value type, or why it is not one. A
/// resource (a variable) is passed as a buffer of its value type.
static llvm::Expected<TensorSpec> specOf(mlir::Type type) {
  if (auto resource = llvm::dyn_cast<mlir::trace::ResourceType>(type)) {
    auto spec = specOf(resource.getValueType());
    if (spec)
      spec->isVariable = true;
    return spec;
  }
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  if (!tensor)
    return llvm::createStringError("type " + text +
                                   " cannot be passed from the host");
  std::optional<DType> dtype = dtypeOf(tensor.getElementType());
  if (!dtype)
    return llvm::createStringError("unsupported element type in " + text);
  return TensorSpec{*dtype, llvm::SmallVector<int64_t, 4>(tensor.getShape()),
                    /*isVariable=*/false};
}

llvm::Expected<Signature> tracec::signatureOf(mlir::func::FuncOp func) {
  Signature signature{func.getSymName().str(), {}, {}};
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    auto spec = specOf(type);
    if (!spec)
      return llvm::createStringError("argument " + std::to_string(i) + ": " +
                                     llvm::toString(spec.takeError()));
    signature.inputs.push_back(*spec);
  }
  for (auto [i, type] : llvm::enumerate(func.getResultTypes())) {
    auto spec = specOf(type);
    if (!spec)
      return llvm::createStringError("result " + std::to_string(i) + ": " +
                                     llvm::toString(spec.takeError()));
    signature.results.push_back(*spec);
  }
  return signature;
}
