//===- GradientOps.cpp - grad, value_and_grad, vjp ------------------------===//
//
// The ops only state what to differentiate; trace-autodiff generates the
// forward/backward functions. Here: result types and the checks that need
// the callee (found through the symbol table).
//
//===----------------------------------------------------------------------===//

#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "tracec/Dialect/Trace/IR/DifferentiableOpInterface.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::trace;

#include "tracec/Dialect/Trace/IR/GradientRequestOpInterface.cpp.inc"

/// The message for a `wrt` argument that has no gradient.
static constexpr StringLiteral kNotDifferentiable =
    ": only floating-point tensors (or variables holding them) have "
    "gradients";

/// `types` without the trailing `!trace.control` token of an ordered gradient
/// op.
static TypeRange withoutControl(TypeRange types) {
  if (!types.empty() && isa<ControlType>(types.back()))
    return types.drop_back();
  return types;
}

/// Appends the gradient types of the `wrt` arguments to `types`.
static LogicalResult inferGradientTypes(std::optional<Location> loc,
                                        StringRef opName, TypeRange argTypes,
                                        ArrayRef<int64_t> wrt,
                                        SmallVectorImpl<Type> &types) {
  for (int64_t index : wrt) {
    if (index < 0 || index >= static_cast<int64_t>(argTypes.size()))
      return emitOptionalError(loc, opPrefix(opName), " wrt index ", index,
                               " is out of range: the callee is given ",
                               argTypes.size(), " arguments");
    if (!carriesGradient(argTypes[index]))
      return emitOptionalError(
          loc, opPrefix(opName),
          " cannot differentiate with respect to argument ", index,
          " of type ", argTypes[index], kNotDifferentiable);
    types.push_back(cotangentType(argTypes[index]));
  }
  return success();
}

/// Checks what every gradient op needs of its callee and arguments; returns
/// the callee.
static FailureOr<func::FuncOp>
verifyGradientCallee(Operation *op, FlatSymbolRefAttr calleeName,
                     ValueRange args, ArrayRef<int64_t> wrt,
                     bool needsScalarResult,
                     SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<func::FuncOp>(op, calleeName);
  if (!callee)
    return op->emitOpError("callee ")
           << calleeName << " does not name a func.func in this module";
  if (callee.isExternal())
    return op->emitOpError("callee ")
           << calleeName
           << " is a declaration: there is no body to differentiate";
  FunctionType type = callee.getFunctionType();
  if (type.getNumInputs() != args.size())
    return op->emitOpError("callee ")
           << calleeName << " takes " << type.getNumInputs()
           << " arguments but " << args.size() << " are given";
  for (auto [i, arg] : llvm::enumerate(args))
    if (arg.getType() != type.getInput(i))
      return op->emitOpError("argument ")
             << i << " has type " << arg.getType() << " but " << calleeName
             << " expects " << type.getInput(i);
  if (wrt.empty())
    return op->emitOpError("wrt must name at least one argument");
  llvm::SmallBitVector seen(args.size());
  for (int64_t index : wrt) {
    if (index < 0 || index >= static_cast<int64_t>(args.size()))
      return op->emitOpError("wrt index ")
             << index << " is out of range: " << calleeName << " has "
             << args.size() << " arguments";
    if (seen.test(index))
      return op->emitOpError("wrt index ") << index << " is repeated";
    seen.set(index);
    if (!carriesGradient(args[index].getType()))
      return op->emitOpError("cannot differentiate with respect to argument ")
             << index << " of type " << args[index].getType()
             << kNotDifferentiable;
  }
  if (needsScalarResult) {
    auto result = type.getNumResults() == 1
                      ? dyn_cast<RankedTensorType>(type.getResult(0))
                      : RankedTensorType();
    if (!result || result.getRank() != 0 ||
        !isa<FloatType>(result.getElementType()))
      return op->emitOpError("callee ")
             << calleeName << " must return one scalar float tensor to be "
             << "differentiated without cotangents, but returns ("
             << type.getResults()
             << "); use trace.vjp to give cotangents for other results";
  }
  return callee;
}

/// The results after the callee's own must be the `wrt` gradients.
static LogicalResult verifyGradientResults(Operation *op, ValueRange args,
                                           ArrayRef<int64_t> wrt,
                                           TypeRange grads) {
  SmallVector<Type> expected;
  (void)inferGradientTypes(std::nullopt, "", args.getTypes(), wrt, expected);
  if (TypeRange(expected) != grads)
    return op->emitOpError("gradient results must have the types of the wrt "
                           "arguments (")
           << TypeRange(expected) << "), got (" << grads << ")";
  return success();
}

/// Every `unconnected` mode verifies: which arguments are unconnected is
/// known only when trace-autodiff differentiates the callee. With `none`
/// (TensorFlow's UnconnectedGradients.NONE: their gradients are None) the
/// results standing for them must be unused; trace-autodiff reports a use.
/// The rest needs the callee (verifySymbolUses).
static LogicalResult verifyUnconnected(Operation *, Unconnected) {
  return success();
}

//===----------------------------------------------------------------------===//
// grad
//===----------------------------------------------------------------------===//

LogicalResult GradOp::verify() {
  return verifyUnconnected(*this, getUnconnected());
}

LogicalResult GradOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  return inferGradientTypes(loc, getOperationName(),
                            adaptor.getArgs().getTypes(), adaptor.getWrt(),
                            types);
}

/// The gradients, then optionally the token (which inference leaves out: an
/// op gets it when trace-auto-control-deps orders it).
bool GradOp::isCompatibleReturnTypes(TypeRange l, TypeRange r) {
  return withoutControl(l) == withoutControl(r);
}

LogicalResult GradOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyGradientCallee(*this, getCalleeAttr(), getArgs(), getWrt(),
                              /*needsScalarResult=*/true, symbolTable);
}

//===----------------------------------------------------------------------===//
// value_and_grad
//===----------------------------------------------------------------------===//

void ValueAndGradOp::build(OpBuilder &builder, OperationState &state,
                           func::FuncOp callee, ValueRange args,
                           ArrayRef<int64_t> wrt) {
  SmallVector<Type> grads;
  (void)inferGradientTypes(std::nullopt, "", args.getTypes(), wrt, grads);
  Type value = callee.getFunctionType().getNumResults() == 1
                   ? callee.getFunctionType().getResult(0)
                   : Type();
  build(builder, state, value, grads, SymbolRefAttr::get(callee), args,
        /*after=*/ValueRange(), builder.getDenseI64ArrayAttr(wrt),
        UnconnectedAttr::get(builder.getContext(), Unconnected::zero));
}

LogicalResult ValueAndGradOp::verify() {
  return verifyUnconnected(*this, getUnconnected());
}

LogicalResult
ValueAndGradOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  FailureOr<func::FuncOp> callee =
      verifyGradientCallee(*this, getCalleeAttr(), getArgs(), getWrt(),
                           /*needsScalarResult=*/true, symbolTable);
  if (failed(callee))
    return failure();
  Type value = callee->getFunctionType().getResult(0);
  if (getValue().getType() != value)
    return emitOpError("value result has type ")
           << getValue().getType() << " but " << getCalleeAttr()
           << " returns " << value;
  return verifyGradientResults(*this, getArgs(), getWrt(),
                               withoutControl(getGrads().getTypes()));
}

//===----------------------------------------------------------------------===//
// vjp
//===----------------------------------------------------------------------===//

void VjpOp::build(OpBuilder &builder, OperationState &state,
                  func::FuncOp callee, ValueRange args, ValueRange cotangents,
                  ArrayRef<int64_t> wrt) {
  SmallVector<Type> results(callee.getFunctionType().getResults());
  (void)inferGradientTypes(std::nullopt, "", args.getTypes(), wrt, results);
  build(builder, state, results, SymbolRefAttr::get(callee), args, cotangents,
        /*after=*/ValueRange(), builder.getDenseI64ArrayAttr(wrt),
        UnconnectedAttr::get(builder.getContext(), Unconnected::zero));
}

LogicalResult VjpOp::verify() {
  return verifyUnconnected(*this, getUnconnected());
}

LogicalResult VjpOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  FailureOr<func::FuncOp> callee =
      verifyGradientCallee(*this, getCalleeAttr(), getArgs(), getWrt(),
                           /*needsScalarResult=*/false, symbolTable);
  if (failed(callee))
    return failure();
  TypeRange calleeResults = callee->getFunctionType().getResults();
  for (auto [i, type] : llvm::enumerate(calleeResults))
    if (!carriesGradient(type) || isa<ResourceType>(type))
      return emitOpError("result ")
             << i << " of " << getCalleeAttr() << " has type " << type
             << ", but only floating-point tensor results have cotangents";
  if (getCotangents().getTypes() != calleeResults)
    return emitOpError("needs one cotangent per result of ")
           << getCalleeAttr() << ", of the result's type: expected ("
           << calleeResults << "), got (" << getCotangents().getTypes() << ")";
  TypeRange results = withoutControl(getResults().getTypes());
  if (results.size() < calleeResults.size() ||
      results.take_front(calleeResults.size()) != calleeResults)
    return emitOpError("must first return the results of ")
           << getCalleeAttr() << " (" << calleeResults << "), got ("
           << results << ")";
  return verifyGradientResults(*this, getArgs(), getWrt(),
                               results.drop_front(calleeResults.size()));
}

/// `( type, ... )`, possibly empty.
static ParseResult parseParenTypeList(OpAsmParser &parser,
                                      SmallVectorImpl<Type> &types) {
  if (parser.parseLParen())
    return failure();
  if (succeeded(parser.parseOptionalRParen()))
    return success();
  if (parser.parseTypeList(types))
    return failure();
  return parser.parseRParen();
}

/// The form shared by vjp and jvp: the declarative
///   $callee `(` $args `)` keyword `(` $values `)` (`after` `(` $after^ `)`)?
///   attr-dict `:`
///   `(` type($args) `)` `,` `(` type($values) `)` `->` `(` type($results) `)`
/// except that each type list may be empty, which the declarative format
/// cannot say.
template <typename OpTy>
static ParseResult parseCalleeArgsAndValues(OpAsmParser &parser,
                                            OperationState &result,
                                            StringRef keyword) {
  FlatSymbolRefAttr callee;
  SmallVector<OpAsmParser::UnresolvedOperand> args, values;
  SmallVector<Type> argTypes, valueTypes, resultTypes;
  if (parser.parseAttribute(callee))
    return failure();
  auto &properties = result.getOrAddProperties<typename OpTy::Properties>();
  properties.callee = callee;

  SMLoc argsLoc = parser.getCurrentLocation();
  if (parser.parseOperandList(args, OpAsmParser::Delimiter::Paren) ||
      parser.parseKeyword(keyword))
    return failure();
  SMLoc valuesLoc = parser.getCurrentLocation();
  if (parser.parseOperandList(values, OpAsmParser::Delimiter::Paren))
    return failure();
  SmallVector<OpAsmParser::UnresolvedOperand> after;
  SMLoc afterLoc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword("after")) &&
      parser.parseOperandList(after, OpAsmParser::Delimiter::Paren))
    return failure();

  // The parser already starts its messages with "custom op 'trace.vjp'".
  SMLoc attrLoc = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDict(result.attributes) ||
      failed(result.name.verifyInherentAttrs(
          result.attributes, [&] { return parser.emitError(attrLoc); })))
    return failure();

  if (parser.parseColon() || parseParenTypeList(parser, argTypes) ||
      parser.parseComma() || parseParenTypeList(parser, valueTypes) ||
      parser.parseArrow() || parseParenTypeList(parser, resultTypes))
    return failure();

  llvm::copy(ArrayRef<int32_t>({static_cast<int32_t>(args.size()),
                                static_cast<int32_t>(values.size()),
                                static_cast<int32_t>(after.size())}),
             properties.operandSegmentSizes.begin());
  result.addTypes(resultTypes);
  Type control = ControlType::get(parser.getContext());
  if (parser.resolveOperands(args, argTypes, argsLoc, result.operands) ||
      parser.resolveOperands(values, valueTypes, valuesLoc, result.operands) ||
      parser.resolveOperands(after, control, afterLoc, result.operands))
    return failure();
  return success();
}

/// Prints what parseCalleeArgsAndValues parses, leaving out the `elided`
/// attributes (those the form spells itself, or at their default).
static void printCalleeArgsAndValues(OpAsmPrinter &printer, Operation *op,
                                     FlatSymbolRefAttr callee, ValueRange args,
                                     StringRef keyword, ValueRange values,
                                     ValueRange after,
                                     ArrayRef<StringRef> elided) {
  printer << ' ';
  printer.printAttributeWithoutType(callee);
  printer << '(' << args << ") " << keyword << '(' << values << ')';
  if (!after.empty())
    printer << " after(" << after << ')';
  printer.printOptionalAttrDict(op->getAttrs(), elided);
  printer << " : (" << args.getTypes() << "), (" << values.getTypes()
          << ") -> (" << op->getResultTypes() << ')';
}

ParseResult VjpOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseCalleeArgsAndValues<VjpOp>(parser, result, "cotangents");
}

void VjpOp::print(OpAsmPrinter &printer) {
  SmallVector<StringRef, 3> elided = {getOperandSegmentSizesAttrName(),
                                      getCalleeAttrName()};
  if (getUnconnected() == Unconnected::zero)
    elided.push_back(getUnconnectedAttrName());
  printCalleeArgsAndValues(printer, *this, getCalleeAttr(), getArgs(),
                           "cotangents", getCotangents(), getAfter(), elided);
}

/// A gradient op runs its callee on `args`: pure on tensors, but it may read
/// and write the variables among them, as the callee does.
static void getCalleeEffects(
    MutableOperandRange args,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &arg : args) {
    if (!isa<ResourceType>(arg.get().getType()))
      continue;
    effects.emplace_back(MemoryEffects::Read::get(), &arg);
    effects.emplace_back(MemoryEffects::Write::get(), &arg);
  }
}

void GradOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getCalleeEffects(getArgsMutable(), effects);
}

void ValueAndGradOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getCalleeEffects(getArgsMutable(), effects);
}

void VjpOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getCalleeEffects(getArgsMutable(), effects);
}

//===----------------------------------------------------------------------===//
// jvp (forward mode)
//===----------------------------------------------------------------------===//

/// The callee's results, then one tangent per floating-point tensor result.
static SmallVector<Type> jvpResultTypes(TypeRange calleeResults) {
  SmallVector<Type> types(calleeResults);
  for (Type type : calleeResults)
    if (carriesTangent(type))
      types.push_back(type);
  return types;
}

void JvpOp::build(OpBuilder &builder, OperationState &state,
                  func::FuncOp callee, ValueRange args, ValueRange tangents,
                  ArrayRef<int64_t> wrt) {
  build(builder, state, jvpResultTypes(callee.getFunctionType().getResults()),
        SymbolRefAttr::get(callee), args, tangents, /*after=*/ValueRange(),
        builder.getDenseI64ArrayAttr(wrt));
}

LogicalResult JvpOp::verify() {
  ArrayRef<int64_t> wrt = getWrt();
  if (wrt.empty())
    return emitOpError("wrt must name at least one argument");
  llvm::SmallBitVector seen(getArgs().size());
  for (int64_t index : wrt) {
    if (index < 0 || index >= static_cast<int64_t>(getArgs().size()))
      return emitOpError("wrt index ")
             << index << " is out of range: " << getArgs().size()
             << " arguments are given";
    if (seen.test(index))
      return emitOpError("wrt index ") << index << " is repeated";
    seen.set(index);
    Type type = getArgs()[index].getType();
    if (isa<ResourceType>(type))
      return emitOpError("cannot differentiate with respect to argument ")
             << index << " of type " << type
             << ": forward mode takes no tangents of variables (pass the "
                "value read from the variable instead)";
    if (!carriesTangent(type))
      return emitOpError("cannot differentiate with respect to argument ")
             << index << " of type " << type
             << ": only floating-point tensors have tangents";
  }
  if (getTangents().size() != wrt.size())
    return emitOpError("needs one tangent per wrt argument: ")
           << wrt.size() << " wrt arguments, " << getTangents().size()
           << " tangents";
  for (auto [k, index] : llvm::enumerate(wrt)) {
    Type expected = getArgs()[index].getType();
    Type got = getTangents()[k].getType();
    if (got != expected)
      return emitOpError("tangent ")
             << k << " must have the type of argument " << index << " ("
             << expected << "), got " << got;
  }
  return success();
}

LogicalResult JvpOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  FailureOr<func::FuncOp> callee =
      verifyGradientCallee(*this, getCalleeAttr(), getArgs(), getWrt(),
                           /*needsScalarResult=*/false, symbolTable);
  if (failed(callee))
    return failure();
  SmallVector<Type> expected =
      jvpResultTypes(callee->getFunctionType().getResults());
  if (TypeRange(expected) != withoutControl(getResultTypes()))
    return emitOpError("must return the results of ")
           << getCalleeAttr()
           << ", then one tangent per floating-point tensor result: "
              "expected ("
           << TypeRange(expected) << "), got (" << getResultTypes() << ")";
  return success();
}

// `@f(%x) tangents(%tx) {wrt = ...} : (types), (types) -> (types)`, as vjp.
ParseResult JvpOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseCalleeArgsAndValues<JvpOp>(parser, result, "tangents");
}

void JvpOp::print(OpAsmPrinter &printer) {
  printCalleeArgsAndValues(
      printer, *this, getCalleeAttr(), getArgs(), "tangents", getTangents(),
      getAfter(), {getOperandSegmentSizesAttrName(), getCalleeAttrName()});
}

void JvpOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getCalleeEffects(getArgsMutable(), effects);
}
