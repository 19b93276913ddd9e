//===- FrontendOpsGen.cpp - The tracer's op functions from ODS ------------===//
//
// -gen-frontend-op-decls / -gen-frontend-op-defs: one C++ function per op
// of the trace dialect that the tracer can build from tensors alone:
//
//   Value add(const Value &lhs, const Value &rhs);
//   Value reduce_sum(const Value &x, llvm::ArrayRef<int64_t> axes,
//                    bool keepdims = false);
//
// Each forwards to tracec::op(name, operands, attributes), which promotes
// operands as the op's traits say and infers the result type. Its
// parameters are the op's operands and attributes in ODS order; optional
// operands are left out (they carry run-time shapes inside the dialect),
// defaults come from DefaultValuedAttr, an OptionalAttr array defaults to
// empty, which leaves the attribute out. The function is named `frontendName`
// (Trace_Op), the mnemonic unless set. Ops with regions, several results,
// operands or results that are not tensors (control tokens, resources), no type
// inference or an attribute that is not a plain value (an i64, f64, unit,
// string or i64 array) are built by hand.
//
//===----------------------------------------------------------------------===//

#include "mlir/TableGen/GenInfo.h"
#include "mlir/TableGen/Operator.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/TableGen/Record.h"
#include "llvm/TableGen/TableGenBackend.h"

using namespace mlir::tblgen;
using llvm::raw_ostream;
using llvm::Record;
using llvm::RecordKeeper;
using llvm::StringRef;

namespace {

/// One parameter of a generated function.
struct Parameter {
  std::string type, name, defaultValue, attribute; // attribute: "" for operands
  bool variadic = false;
  /// An OptionalAttr array: passed only when not empty.
  bool optionalArray = false;
  /// An attribute the op cannot be built without.
  bool required = false;
};

/// The C++ parameter type of a plain-valued attribute, or "" if it is not
/// one.
std::string parameterType(const Attribute &attr) {
  StringRef def = attr.getBaseAttr().getAttrDefName();
  StringRef storage = attr.getBaseAttr().getStorageType();
  if (storage == "::mlir::DenseI64ArrayAttr")
    return "::llvm::ArrayRef<int64_t>";
  if (def == "Trace_I64Attr" || def == "I64Attr")
    return "int64_t";
  if (def == "F64Attr")
    return "double";
  if (storage == "::mlir::UnitAttr")
    return "bool";
  if (storage == "::mlir::StringAttr")
    return "::llvm::StringRef";
  return "";
}

/// Whether values of the constraint are tracec::Values (ranked tensors, not
/// control tokens or resources).
bool isTensor(const NamedTypeConstraint &value) {
  StringRef type = value.constraint.getCppType();
  return type == "::mlir::RankedTensorType" || type == "::mlir::TensorType";
}

/// The op's function parameters, or nullopt if it is built by hand.
std::optional<std::vector<Parameter>> parameters(const Operator &op) {
  if (op.getNumResults() != 1 || !isTensor(op.getResult(0)) ||
      !llvm::all_of(op.getOperands(), isTensor) ||
      op.getNumVariableLengthResults() || op.getNumRegions() ||
      op.getNumSuccessors() ||
      !op.getTrait("::mlir::InferTypeOpInterface::Trait") ||
      op.getTrait("::mlir::OpTrait::AttrSizedOperandSegments"))
    return std::nullopt;
  std::vector<Parameter> params;
  for (const NamedTypeConstraint &operand : op.getOperands()) {
    if (operand.isOptional())
      continue;
    Parameter p;
    p.variadic = operand.isVariadic();
    p.type = p.variadic ? "::llvm::ArrayRef<Value>" : "const Value &";
    p.name = llvm::convertToCamelFromSnakeCase(operand.name);
    params.push_back(p);
  }
  for (const NamedAttribute &named : op.getAttributes()) {
    const Attribute &attr = named.attr;
    if (attr.isDerivedAttr())
      continue;
    Parameter p;
    p.type = parameterType(attr);
    if (p.type.empty())
      return std::nullopt;
    p.name = llvm::convertToCamelFromSnakeCase(named.name);
    p.attribute = named.name.str();
    if (attr.hasDefaultValue())
      p.defaultValue = attr.getDefaultValue().str();
    else if (p.type == "bool")
      p.defaultValue = "false";
    else if (attr.isOptional()) {
      if (p.type != "::llvm::ArrayRef<int64_t>")
        return std::nullopt; // no "absent" value for a scalar
      p.defaultValue = "{}";
      p.optionalArray = true;
    } else {
      p.required = true;
    }
    params.push_back(p);
  }
  // C++ defaults only in a trailing run.
  for (auto it = params.rbegin(); it != params.rend(); ++it)
    if (it->defaultValue.empty()) {
      for (auto before = it; before != params.rend(); ++before)
        before->defaultValue.clear();
      break;
    }
  return params;
}

std::string functionName(const Operator &op) {
  StringRef name = op.getDef().getValueAsString("frontendName");
  return name.empty()
             ? op.getOperationName().substr(op.getDialectName().size() + 1)
             : name.str();
}

/// The generated ops' definitions, by function name.
std::vector<const Record *> generatedOps(const RecordKeeper &records) {
  std::vector<const Record *> defs;
  for (const Record *def : records.getAllDerivedDefinitions("Trace_Op"))
    if (parameters(Operator(def)))
      defs.push_back(def);
  llvm::sort(defs, [](const Record *a, const Record *b) {
    return functionName(Operator(a)) < functionName(Operator(b));
  });
  return defs;
}

void emitSignature(raw_ostream &os, const Operator &op, bool declaration) {
  os << "Value " << (declaration ? "" : "tracec::") << functionName(op) << "(";
  llvm::interleaveComma(*parameters(op), os, [&](const Parameter &p) {
    os << p.type << (p.type.back() == '&' ? "" : " ") << p.name;
    if (declaration && !p.defaultValue.empty())
      os << " = " << p.defaultValue;
  });
  os << ")";
}

bool emitDecls(const RecordKeeper &records, raw_ostream &os) {
  llvm::emitSourceFileHeader("The tracer's op functions", os, records);
  os << "namespace tracec {\n\n";
  for (const Record *def : generatedOps(records)) {
    Operator op(def);
    os << "/// `" << op.getOperationName() << "`: " << op.getSummary() << "\n";
    emitSignature(os, op, /*declaration=*/true);
    os << ";\n";
  }
  os << "\n} // namespace tracec\n";
  return false;
}

bool emitDefs(const RecordKeeper &records, raw_ostream &os) {
  llvm::emitSourceFileHeader("The tracer's op functions", os, records);
  for (const Record *def : generatedOps(records)) {
    Operator op(def);
    std::vector<Parameter> params = *parameters(op);
    emitSignature(os, op, /*declaration=*/false);
    os << " {\n  std::vector<Value> operands;\n";
    for (const Parameter &p : params) {
      if (!p.attribute.empty())
        continue;
      if (p.variadic)
        os << "  operands.insert(operands.end(), " << p.name << ".begin(), "
           << p.name << ".end());\n";
      else
        os << "  operands.push_back(" << p.name << ");\n";
    }
    os << "  std::vector<OpAttribute> attributes;\n";
    for (const Parameter &p : params) {
      if (p.attribute.empty())
        continue;
      os << "  ";
      if (p.optionalArray)
        os << "if (!" << p.name << ".empty())\n    ";
      os << "attributes.emplace_back(\"" << p.attribute << "\", " << p.name
         << ");\n";
    }
    os << "  return op(\"" << op.getOperationName()
       << "\", operands, attributes);\n}\n\n";
  }
  return false;
}

/// For each generated op: its operand count (at least that many if one is
/// variadic) and the attributes it requires, which tracec::op checks before
/// it builds the op (type inference reads them).
bool emitSignatures(const RecordKeeper &records, raw_ostream &os) {
  llvm::emitSourceFileHeader("The signatures of the tracer's ops", os, records);
  os << "static const OpSignature kOpSignatures[] = {\n";
  for (const Record *def : generatedOps(records)) {
    Operator op(def);
    std::vector<Parameter> params = *parameters(op);
    unsigned operands = 0;
    bool variadic = false;
    std::vector<std::string> required;
    for (const Parameter &p : params) {
      if (p.attribute.empty()) {
        variadic |= p.variadic;
        operands += !p.variadic;
      } else if (p.required) {
        required.push_back("\"" + p.attribute + "\"");
      }
    }
    os << "    {\"" << op.getOperationName() << "\", " << operands << ", "
       << (variadic ? "true" : "false") << ", {";
    llvm::interleaveComma(required, os);
    os << "}},\n";
  }
  os << "};\n";
  return false;
}

mlir::GenRegistration signaturesGen("gen-frontend-op-signatures",
                                    "The signatures of the tracer's ops",
                                    emitSignatures);
mlir::GenRegistration declsGen("gen-frontend-op-decls",
                               "The tracer's op function declarations",
                               emitDecls);
mlir::GenRegistration defsGen("gen-frontend-op-defs",
                              "The tracer's op function definitions", emitDefs);

} // namespace
