//===- ShapeFunctions.cpp - Per-entry shape functions and run-time checks -===//
//
// With dynamic dims the caller cannot know the results' sizes, nor can the
// verifier prove that sizes which must agree do. Lowering leaves both in
// the IR: result sizes come from tensor.dim, agreements are
// `cf.assert (a == b)` (checkSameSize), dims that must not be empty
// `cf.assert (a != 0)`. An assert would abort the process;
// this pass turns them into a status the caller reads instead.
//
// Convention, for every public function @f with a dynamic dim in its
// signature or a run-time check in its body:
//
//   func.func @__shape_f(<@f's arguments>, %out: memref<Nxi64>)
//
// writes out[0] = 0 when every check holds, else k + 1 for the first check
// k that fails, with the two sizes it compared in out[1] and out[2]; then
// out[3...] = the results' dynamic dims, result by result. A constant
// string @__shape_f_check_<k> holds check k's message: which argument dims
// differ, with `{0}` and `{1}` where the caller puts the two sizes, and the
// op's location. @f itself no longer checks: the caller must run
// @__shape_f first and call @f only when it returned 0 (the JIT does).
// The shape function is @f with everything that does not feed a size or a
// check folded away (sizes are resolved through
// ReifyRankedShapedTypeOpInterface), so it is a few integer ops; @f's
// effects (variable updates, prints) are among what goes.
//
//===----------------------------------------------------------------------===//

#include "tracec/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACESHAPEFUNCTIONS
#include "tracec/Conversion/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {

bool hasDynamicDims(TypeRange types) {
  return llvm::any_of(types, [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return shaped && shaped.hasRank() && !shaped.hasStaticShape();
  });
}

/// The top-level checks of `func`, in order.
SmallVector<cf::AssertOp> checksOf(func::FuncOp func) {
  SmallVector<cf::AssertOp> checks;
  for (Operation &op : func.getBody().getOps())
    if (auto check = dyn_cast<cf::AssertOp>(op))
      checks.push_back(check);
  return checks;
}

/// Folds sizes down to the arguments' dims and drops what feeds nothing.
void simplify(func::FuncOp func) {
  RewritePatternSet patterns(func.getContext());
  memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
  memref::populateResolveShapedTypeResultDimsPatterns(patterns);
  tensor::DimOp::getCanonicalizationPatterns(patterns, func.getContext());
  arith::CmpIOp::getCanonicalizationPatterns(patterns, func.getContext());
  arith::SelectOp::getCanonicalizationPatterns(patterns, func.getContext());
  (void)applyPatternsGreedily(func, std::move(patterns));
}

/// Erases the ops of `shape` that do not feed its writes to `out` (the
/// status and dims): what is left of the entry's computation, a variable's
/// update included, which would otherwise run once more per call.
void keepOnlyWhatFeeds(func::FuncOp shape, Value out) {
  Block &body = shape.getBody().front();
  llvm::SmallPtrSet<Operation *, 32> live;
  SmallVector<Operation *> worklist;
  for (Operation *user : out.getUsers())
    if (Operation *top = body.findAncestorOpInBlock(*user))
      worklist.push_back(top);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!live.insert(op).second)
      continue;
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (Operation *def = operand.getDefiningOp())
          if (Operation *top = body.findAncestorOpInBlock(*def))
            worklist.push_back(top);
    });
  }
  // Users first.
  SmallVector<Operation *> dead;
  for (Operation &op : body.without_terminator())
    if (!live.contains(&op))
      dead.push_back(&op);
  for (Operation *op : llvm::reverse(dead))
    op->erase();
}

struct TraceShapeFunctionsPass
    : trace::impl::TraceShapeFunctionsBase<TraceShapeFunctionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> entries;
    for (auto func : module.getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal() &&
          (hasDynamicDims(func.getArgumentTypes()) ||
           hasDynamicDims(func.getResultTypes()) || !checksOf(func).empty()))
        entries.push_back(func);
    for (func::FuncOp entry : entries)
      if (failed(buildShapeFunction(entry)))
        return signalPassFailure();
  }

  LogicalResult buildShapeFunction(func::FuncOp entry) {
    MLIRContext *context = &getContext();
    OpBuilder builder(entry);
    builder.setInsertionPointAfter(entry);
    std::string name = ("__shape_" + entry.getSymName()).str();
    if (SymbolTable::lookupSymbolIn(getOperation(), name))
      return entry.emitOpError()
             << "cannot add its shape function: @" << name << " exists";
    auto returns = llvm::to_vector(entry.getOps<func::ReturnOp>());
    if (returns.size() != 1)
      return entry.emitOpError()
             << "has dynamic dims but not one return: no shape function";

    int64_t dynamicResults = 0;
    for (Type type : entry.getResultTypes())
      if (auto tensor = dyn_cast<RankedTensorType>(type))
        dynamicResults += tensor.getNumDynamicDims();
    auto outType = MemRefType::get({3 + dynamicResults}, builder.getI64Type());

    auto shape = cast<func::FuncOp>(builder.clone(*entry));
    shape.setSymName(name);
    for (NamedAttribute attr : llvm::to_vector(shape->getDiscardableAttrs()))
      shape->removeAttr(attr.getName());
    shape.setResAttrsAttr(nullptr);
    Block &body = shape.getBody().front();
    Value out = body.addArgument(outType, entry.getLoc());
    SmallVector<Type> argTypes(entry.getArgumentTypes());
    argTypes.push_back(outType);
    shape.setFunctionType(FunctionType::get(context, argTypes, {}));
    if (ArrayAttr argAttrs = shape.getArgAttrsAttr()) {
      SmallVector<Attribute> attrs(argAttrs.getValue());
      attrs.push_back(DictionaryAttr::get(context));
      shape.setArgAttrsAttr(ArrayAttr::get(context, attrs));
    }

    // Checks, first failure wins: status, lhs, rhs.
    Location loc = entry.getLoc();
    auto ret = *shape.getOps<func::ReturnOp>().begin();
    builder.setInsertionPoint(ret);
    Type i64 = builder.getI64Type();
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantIntOp::create(builder, loc, i64, v);
    };
    auto toI64 = [&](Value v) -> Value {
      return arith::IndexCastOp::create(builder, loc, i64, v);
    };
    auto index = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, v);
    };
    // Sizes first resolved to the arguments' dims, so a message can name
    // them.
    simplify(shape);
    Value status = constant(0), lhs = constant(0), rhs = constant(0);
    // Checks that folded to true (a size compared with itself) go.
    for (cf::AssertOp check : checksOf(shape))
      if (matchPattern(check.getArg(), m_One()))
        check.erase();
    SmallVector<cf::AssertOp> checks = checksOf(shape);
    for (auto [k, check] : llvm::enumerate(checks)) {
      auto compare = check.getArg().getDefiningOp<arith::CmpIOp>();
      bool agree =
          compare && compare.getPredicate() == arith::CmpIPredicate::eq;
      bool nonEmpty = compare &&
                      compare.getPredicate() == arith::CmpIPredicate::ne &&
                      matchPattern(compare.getRhs(), m_Zero());
      if (!agree && !nonEmpty)
        return check.emitOpError("is not a size check (a == b or a != 0)");
      Value ok = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne,
                                       status, constant(0));
      Value first = arith::OrIOp::create(builder, loc, ok, check.getArg());
      status =
          arith::SelectOp::create(builder, loc, first, status, constant(k + 1));
      lhs = arith::SelectOp::create(builder, loc, first, lhs,
                                    toI64(compare.getLhs()));
      rhs = arith::SelectOp::create(builder, loc, first, rhs,
                                    toI64(compare.getRhs()));
      addMessage(name + "_check_" + std::to_string(k),
                 describe(compare.getLhs(), "{0}") +
                     (agree ? " but " + describe(compare.getRhs(), "{1}")
                            : std::string()) +
                     " (" + check.getMsg().str() + ")",
                 loc);
    }
    memref::StoreOp::create(builder, loc, status, out, index(0));
    memref::StoreOp::create(builder, loc, lhs, out, index(1));
    memref::StoreOp::create(builder, loc, rhs, out, index(2));
    int64_t slot = 3;
    for (Value result : ret.getOperands()) {
      auto tensor = dyn_cast<RankedTensorType>(result.getType());
      if (!tensor)
        continue;
      for (int64_t d = 0; d < tensor.getRank(); ++d)
        if (tensor.isDynamicDim(d)) {
          Value size = tensor::DimOp::create(builder, loc, result, d);
          memref::StoreOp::create(builder, loc, toI64(size), out,
                                  index(slot++));
        }
    }
    func::ReturnOp::create(builder, loc);
    ret.erase();
    for (cf::AssertOp check : checks)
      check.erase();
    simplify(shape);
    keepOnlyWhatFeeds(shape, out);

    // The entry trusts its shape function.
    for (cf::AssertOp check : checksOf(entry))
      check.erase();
    return success();
  }

  /// "argument 1 dim 0 is {0}" where `size` is a dim of an argument, else
  /// "a size is {0}" ({0}: where the caller puts the number).
  static std::string describe(Value size, StringRef placeholder) {
    if (auto dim = size.getDefiningOp<tensor::DimOp>())
      if (auto arg = dyn_cast<BlockArgument>(dim.getSource()))
        if (std::optional<int64_t> d = dim.getConstantIndex())
          return ("argument " + Twine(arg.getArgNumber()) + " dim " +
                  Twine(*d) + " is " + placeholder)
              .str();
    if (std::optional<int64_t> value = getConstantIntValue(size))
      return ("a size is " + Twine(*value)).str();
    return ("a size is " + placeholder).str();
  }

  /// A NUL-terminated constant string the caller finds by name.
  void addMessage(StringRef symbol, StringRef text, Location loc) {
    ModuleOp module = getOperation();
    OpBuilder builder(module.getBodyRegion());
    builder.setInsertionPointToEnd(module.getBody());
    std::string value = text.str();
    value.push_back('\0');
    auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), value.size());
    LLVM::GlobalOp::create(builder, loc, type, /*isConstant=*/true,
                           LLVM::Linkage::External, symbol,
                           builder.getStringAttr(value));
  }
};

} // namespace
