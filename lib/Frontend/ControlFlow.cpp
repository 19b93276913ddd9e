//===- ControlFlow.cpp - cond, while_loop, fori_loop as scf ops -----------===//
//
// Branches and bodies are traced into detached blocks (their result types
// are only known afterwards), then moved into the regions of the scf op.
//
//===----------------------------------------------------------------------===//

#include "Tracer.h"

#include "tracec/Frontend/ControlFlow.h"
#include "tracec/Frontend/Ops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace tracec;
using namespace tracec::detail;

namespace {
/// A block being traced, and the values its terminator will yield.
struct TracedBlock {
  std::unique_ptr<mlir::Block> block = std::make_unique<mlir::Block>();
  llvm::SmallVector<mlir::Value> results;
};
} // namespace

/// Traces `fn` into a new block with arguments of `argTypes` (or, if
/// `operands` are given and there are no argTypes, on those Values).
static TracedBlock traceBlock(const Callable &fn, mlir::TypeRange argTypes,
                              llvm::ArrayRef<Value> operands,
                              llvm::StringRef what) {
  TracedBlock traced;
  FunctionState *function = currentScope().function;
  ScopeGuard guard(function, traced.block.get());
  std::vector<Value> args(operands.begin(), operands.end());
  for (mlir::Type type : argTypes) {
    mlir::Value argument = traced.block->addArgument(type, location());
    // The induction variable of scf.for (an index) is not a tensor.
    if (llvm::isa<mlir::RankedTensorType>(type))
      args.push_back(wrap(argument));
  }
  std::vector<Value> results = callTraced(fn, args, what);
  for (const Value &result : results)
    traced.results.push_back(resolve(result));
  return traced;
}

static std::string typeList(mlir::TypeRange types) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "(";
  llvm::interleaveComma(types, os);
  os << ")";
  return text;
}

/// `value` as the i1 an scf op branches on.
static mlir::Value branchCondition(const Value &value, llvm::StringRef what) {
  resolve(value);
  if (value.rank() != 0)
    fail(locationPrefix(location()) + ": error: " + what +
         " must be a rank-0 tensor, got " + value.typeString());
  Value flag = value.dtype() == DType::i1 ? value : not_equal(value, 0);
  mlir::Type i1 = mlir::IntegerType::get(&context(), 1);
  return createOp(mlir::tensor::ExtractOp::getOperationName(), resolve(flag),
                  {}, llvm::ArrayRef<mlir::Type>{i1})
      ->getResult(0);
}

/// Terminators are verified with their parent op, once it exists.
static void terminate(mlir::Block &block, llvm::StringRef name,
                      mlir::ValueRange operands) {
  mlir::OpBuilder builder(&context());
  builder.setInsertionPointToEnd(&block);
  mlir::OperationState state(location(), name);
  state.addOperands(operands);
  builder.create(state);
}

static std::vector<Value> wrapResults(mlir::Operation *op, unsigned skip = 0) {
  std::vector<Value> results;
  for (mlir::Value result : op->getResults().drop_front(skip))
    results.push_back(wrap(result));
  return results;
}

std::vector<Value> tracec::cond(const Value &pred, const Callable &trueFn,
                                const Callable &falseFn,
                                llvm::ArrayRef<Value> operands) {
  mlir::Value flag = branchCondition(pred, "the predicate of cond");
  for (const Value &operand : operands)
    resolve(operand);
  TracedBlock thenBlock = traceBlock(trueFn, {}, operands, "cond's true branch");
  TracedBlock elseBlock =
      traceBlock(falseFn, {}, operands, "cond's false branch");
  auto thenTypes = mlir::ValueRange(thenBlock.results).getTypes();
  auto elseTypes = mlir::ValueRange(elseBlock.results).getTypes();
  if (!llvm::equal(thenTypes, elseTypes))
    fail(locationPrefix(location()) +
         ": error: the branches of cond return different types: true branch " +
         typeList(thenTypes) + " vs false branch " + typeList(elseTypes));
  llvm::SmallVector<mlir::Type> types(thenTypes);
  terminate(*thenBlock.block, mlir::scf::YieldOp::getOperationName(),
            thenBlock.results);
  terminate(*elseBlock.block, mlir::scf::YieldOp::getOperationName(),
            elseBlock.results);
  mlir::Operation *op =
      createOp(mlir::scf::IfOp::getOperationName(), flag, {},
               llvm::ArrayRef<mlir::Type>(types), 0, /*numRegions=*/2);
  op->getRegion(0).push_back(thenBlock.block.release());
  op->getRegion(1).push_back(elseBlock.block.release());
  verifyOrFail(op);
  return wrapResults(op);
}

/// Checks that a loop body returned values of the carried types; the
/// first `hidden` are the loop's own (fori_loop's counter), not the user's.
static void checkCarried(mlir::TypeRange carried, mlir::TypeRange returned,
                         llvm::StringRef what, size_t hidden = 0) {
  if (llvm::equal(carried, returned))
    return;
  carried = carried.drop_front(hidden);
  returned = returned.drop_front(std::min(hidden, returned.size()));
  std::string which;
  for (size_t i = 0; i < carried.size() && i < returned.size(); ++i)
    if (carried[i] != returned[i]) {
      std::string in, out;
      llvm::raw_string_ostream(in) << carried[i];
      llvm::raw_string_ostream(out) << returned[i];
      which = " (value " + std::to_string(i) + " starts as " + in +
              " and comes back as " + out +
              ": give its initial value the type the body makes)";
      break;
    }
  fail(locationPrefix(location()) + ": error: " + what +
       " must return the loop-carried types " + typeList(carried) + ", got " +
       typeList(returned) + which);
}

std::vector<Value> tracec::while_loop(const Callable &condFn,
                                      const Callable &bodyFn,
                                      llvm::ArrayRef<Value> init) {
  llvm::SmallVector<mlir::Value> inits;
  for (const Value &value : init)
    inits.push_back(resolve(value));
  llvm::SmallVector<mlir::Type> types(mlir::ValueRange(inits).getTypes());

  TracedBlock before = traceBlock(
      [&](llvm::ArrayRef<Value> args) -> std::vector<Value> {
        std::vector<Value> results =
            callTraced(condFn, args, "while_loop's condition");
        if (results.size() != 1)
          fail(locationPrefix(location()) +
               ": error: while_loop's condition must return one value, got " +
               llvm::Twine(results.size()));
        mlir::Value flag =
            branchCondition(results[0], "while_loop's condition");
        mlir::Block *block = currentScope().block;
        llvm::SmallVector<mlir::Value> operands = {flag};
        llvm::append_range(operands, block->getArguments());
        terminate(*block, mlir::scf::ConditionOp::getOperationName(),
                  operands);
        return {};
      },
      types, {}, "while_loop's condition");
  TracedBlock after = traceBlock(bodyFn, types, {}, "while_loop's body");
  checkCarried(types, mlir::ValueRange(after.results).getTypes(),
               "while_loop's body");
  terminate(*after.block, mlir::scf::YieldOp::getOperationName(),
            after.results);
  mlir::Operation *op =
      createOp(mlir::scf::WhileOp::getOperationName(), inits, {},
               llvm::ArrayRef<mlir::Type>(types), 0, /*numRegions=*/2);
  op->getRegion(0).push_back(before.block.release());
  op->getRegion(1).push_back(after.block.release());
  verifyOrFail(op);
  return wrapResults(op);
}

std::vector<TensorSpec> tracec::output_specs(const Callable &fn) {
  TracedBlock trial = traceBlock(fn, {}, {}, "a trial trace");
  std::vector<TensorSpec> specs;
  for (mlir::Value result : trial.results) {
    Value value = wrap(result);
    TensorSpec spec;
    spec.dtype = value.dtype();
    for (int64_t dim : value.shape())
      spec.shape.push_back(mlir::ShapedType::isDynamic(dim)
                               ? TensorSpec::kDynamic
                               : dim);
    specs.push_back(std::move(spec));
  }
  return specs; // `trial.block` and all it holds go here
}

/// The scf.for of fori_loop from `lb` to `ub` (index values), `counter`
/// (a rank-0 i64 tensor) starting at lb.
static std::vector<Value> forLoop(mlir::Value lb, mlir::Value ub,
                                  const Value &counter, const Callable &bodyFn,
                                  llvm::ArrayRef<mlir::Value> inits);

static mlir::Value indexConstant(int64_t value) {
  mlir::OpBuilder b(&context());
  return createOp(mlir::arith::ConstantOp::getOperationName(), {},
                  b.getNamedAttr("value", b.getIndexAttr(value)),
                  llvm::ArrayRef<mlir::Type>{b.getIndexType()})
      ->getResult(0);
}

std::vector<Value> tracec::fori_loop(int64_t lower, int64_t upper,
                                     const Callable &bodyFn,
                                     llvm::ArrayRef<Value> init) {
  llvm::SmallVector<mlir::Value> inits;
  for (const Value &value : init)
    inits.push_back(resolve(value));
  mlir::Value lb = indexConstant(lower);
  mlir::Value ub = indexConstant(std::max(lower, upper));
  return forLoop(lb, ub, splat(lower, DType::i64, {}), bodyFn, inits);
}

/// A rank-0 integer bound as an index value.
static mlir::Value indexBound(const Value &bound, llvm::StringRef what) {
  resolve(bound);
  if (bound.rank() != 0 ||
      (bound.dtype() != DType::i32 && bound.dtype() != DType::i64))
    fail(locationPrefix(location()) + ": error: fori_loop's " + what +
         " bound must be a rank-0 int32 or int64 tensor, got " +
         bound.typeString());
  mlir::OpBuilder b(&context());
  mlir::Value scalar =
      createOp(mlir::tensor::ExtractOp::getOperationName(), resolve(bound), {},
               llvm::ArrayRef<mlir::Type>{
                   elementType(bound.dtype())})
          ->getResult(0);
  return createOp(mlir::arith::IndexCastOp::getOperationName(), scalar, {},
                  llvm::ArrayRef<mlir::Type>{b.getIndexType()})
      ->getResult(0);
}

std::vector<Value> tracec::fori_loop(const Value &lower, const Value &upper,
                                     const Callable &bodyFn,
                                     llvm::ArrayRef<Value> init) {
  llvm::SmallVector<mlir::Value> inits;
  for (const Value &value : init)
    inits.push_back(resolve(value));
  mlir::Value lb = indexBound(lower, "lower");
  mlir::Value ub = indexBound(upper, "upper");
  // scf.for runs no iteration when ub <= lb, as range() does.
  return forLoop(lb, ub, castTo(lower, DType::i64), bodyFn, inits);
}

static std::vector<Value> forLoop(mlir::Value lb, mlir::Value ub,
                                  const Value &counter, const Callable &bodyFn,
                                  llvm::ArrayRef<mlir::Value> inits) {
  mlir::MLIRContext *ctx = &context();
  mlir::Type index = mlir::IndexType::get(ctx);
  mlir::Value step = indexConstant(1);
  // The body sees `i` as a rank-0 i64 tensor: a counter carried next to the
  // values, so the body needs no index arithmetic.
  llvm::SmallVector<mlir::Value> operands = {lb, ub, step, resolve(counter)};
  llvm::append_range(operands, inits);
  llvm::SmallVector<mlir::Type> carried = {resolve(counter).getType()};
  llvm::append_range(carried, mlir::ValueRange(inits).getTypes());

  llvm::SmallVector<mlir::Type> blockTypes = {index};
  llvm::append_range(blockTypes, carried);
  TracedBlock body = traceBlock(
      [&](llvm::ArrayRef<Value> args) -> std::vector<Value> {
        // args: the counter (i), then the values.
        std::vector<Value> results =
            callTraced(bodyFn, args, "fori_loop's body");
        std::vector<Value> yielded = {args[0] + 1};
        yielded.insert(yielded.end(), results.begin(), results.end());
        return yielded;
      },
      blockTypes, {}, "fori_loop's body");
  checkCarried(carried, mlir::ValueRange(body.results).getTypes(),
               "fori_loop's body", /*hidden=*/1);
  terminate(*body.block, mlir::scf::YieldOp::getOperationName(), body.results);
  mlir::Operation *op =
      createOp(mlir::scf::ForOp::getOperationName(), operands, {},
               llvm::ArrayRef<mlir::Type>(carried), 0, /*numRegions=*/1);
  op->getRegion(0).push_back(body.block.release());
  verifyOrFail(op);
  return wrapResults(op, /*skip=*/1);
}
