//===- TypeDirectedOps.cpp - Ops whose result type is an input ------------===//
//
// reshape, broadcast_to, size and one_hot cannot infer their result from their
// operands; print returns a control token, not a tensor. Their ODS
// builders make them.
//
//===----------------------------------------------------------------------===//

#include "Tracer.h"

#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "tracec/Frontend/Ops.h"

#include "llvm/Support/CheckedArithmetic.h"

using namespace tracec;
using namespace tracec::detail;
namespace trace = mlir::trace;

Value tracec::reshape(const Value &x, llvm::ArrayRef<int64_t> shape) {
  mlir::Value value = resolve(x);
  checkShape(trace::ReshapeOp::getOperationName(), shape,
             /*allowInferred=*/true);
  return wrap(createWithBuilder<trace::ReshapeOp>(value, shape)->getResult(0));
}

Value tracec::broadcast_to(const Value &x, llvm::ArrayRef<int64_t> shape) {
  mlir::Value value = resolve(x);
  checkShape(trace::BroadcastToOp::getOperationName(), shape);
  return wrap(
      createWithBuilder<trace::BroadcastToOp>(value, shape)->getResult(0));
}

Value tracec::size(const Value &x, llvm::ArrayRef<int64_t> axes,
                   DType dtype) {
  mlir::Value value = resolve(x);
  // The op reads an empty `axes` as no dims (a count of 1): name them all.
  llvm::SmallVector<int64_t> all;
  if (axes.empty())
    all = llvm::to_vector(llvm::seq<int64_t>(
        0, llvm::cast<mlir::RankedTensorType>(value.getType()).getRank()));
  return wrap(createWithBuilder<trace::SizeOp>(
                  value, axes.empty() ? llvm::ArrayRef<int64_t>(all) : axes,
                  elementType(dtype))
                  ->getResult(0));
}

std::vector<Value> tracec::sort(llvm::ArrayRef<Value> inputs, int64_t axis,
                                bool descending) {
  llvm::SmallVector<mlir::Value> values;
  for (const Value &input : inputs)
    values.push_back(resolve(input));
  mlir::Operation *sorted = createWithBuilder<trace::SortOp>(
      mlir::ValueRange(values), axis, descending);
  std::vector<Value> results;
  for (mlir::Value result : sorted->getResults())
    results.push_back(wrap(result));
  return results;
}

Value tracec::one_hot(const Value &indices, int64_t depth, DType dtype,
                      int64_t axis, double onValue, double offValue) {
  mlir::Value value = resolve(indices);
  if (!llvm::isa<mlir::IntegerType>(
          llvm::cast<mlir::RankedTensorType>(value.getType()).getElementType()))
    fail(locationPrefix(location()) +
         ": error: 'trace.one_hot' indices must be integers, got " +
         indices.typeString());
  auto oneHot = llvm::cast<trace::OneHotOp>(createWithBuilder<trace::OneHotOp>(
      value, depth, elementType(dtype), axis));
  mlir::OpBuilder b(&context());
  oneHot.setOnValueAttr(b.getF64FloatAttr(onValue));
  oneHot.setOffValueAttr(b.getF64FloatAttr(offValue));
  return wrap(oneHot.getResult());
}

/// A collective op: `x` in; a tensor of its type and a control token out
/// (the token orders it with the other stateful ops).
static Value collective(llvm::StringRef name, const Value &x,
                        llvm::ArrayRef<mlir::NamedAttribute> attrs) {
  mlir::Value operand = resolve(x);
  mlir::Type types[] = {operand.getType(), trace::ControlType::get(&context())};
  return wrap(createOp(name, operand, attrs, llvm::ArrayRef<mlir::Type>(types))
                  ->getResult(0));
}

/// `groups` as a collective's `groups` attribute (a 2-d i64 array, a row
/// per group), appended to `attrs`; nothing when empty (the world).
static void addGroups(llvm::StringRef name,
                      llvm::ArrayRef<std::vector<int64_t>> groups,
                      llvm::SmallVectorImpl<mlir::NamedAttribute> &attrs) {
  if (groups.empty())
    return;
  std::vector<int64_t> ranks;
  for (const std::vector<int64_t> &group : groups) {
    if (group.size() != groups.front().size())
      fail(locationPrefix(location()) + ": error: '" + name.str() +
           "' groups must all have the same size");
    ranks.insert(ranks.end(), group.begin(), group.end());
  }
  auto type =
      mlir::RankedTensorType::get({static_cast<int64_t>(groups.size()),
                                   static_cast<int64_t>(groups.front().size())},
                                  mlir::IntegerType::get(&context(), 64));
  attrs.push_back(
      mlir::NamedAttribute(mlir::StringAttr::get(&context(), "groups"),
                           mlir::DenseIntElementsAttr::get(type, ranks)));
}

Value tracec::all_reduce(const Value &x, llvm::StringRef reduction,
                         llvm::ArrayRef<std::vector<int64_t>> groups) {
  llvm::StringRef name = trace::AllReduceOp::getOperationName();
  llvm::SmallVector<mlir::NamedAttribute, 2> attrs = {
      mlir::NamedAttribute(mlir::StringAttr::get(&context(), "reduction"),
                           mlir::StringAttr::get(&context(), reduction))};
  addGroups(name, groups, attrs);
  return collective(name, x, attrs);
}

Value tracec::broadcast(const Value &x, int64_t root,
                        llvm::ArrayRef<std::vector<int64_t>> groups) {
  llvm::StringRef name = trace::BroadcastOp::getOperationName();
  mlir::OpBuilder b(&context());
  llvm::SmallVector<mlir::NamedAttribute, 2> attrs = {
      b.getNamedAttr("root", b.getI64IntegerAttr(root))};
  addGroups(name, groups, attrs);
  return collective(name, x, attrs);
}

Value tracec::comm_rank(llvm::ArrayRef<std::vector<int64_t>> groups) {
  llvm::StringRef name = trace::CommRankOp::getOperationName();
  llvm::SmallVector<mlir::NamedAttribute, 1> attrs;
  addGroups(name, groups, attrs);
  mlir::Type types[] = {
      mlir::RankedTensorType::get({}, mlir::IntegerType::get(&context(), 32))};
  return wrap(createOp(name, mlir::ValueRange{}, attrs,
                       llvm::ArrayRef<mlir::Type>(types))
                  ->getResult(0));
}

/// A collective that tiles `x` along `axis` over `worldSize` processes into
/// a result of `shape`.
static Value tilingCollective(llvm::StringRef name, const Value &x,
                              llvm::ArrayRef<mlir::NamedAttribute> attributes,
                              llvm::ArrayRef<int64_t> shape) {
  mlir::Value operand = resolve(x);
  auto type = llvm::cast<mlir::RankedTensorType>(operand.getType());
  mlir::Type types[] = {
      mlir::RankedTensorType::get(shape, type.getElementType()),
      trace::ControlType::get(&context())};
  return wrap(
      createOp(name, operand, attributes, llvm::ArrayRef<mlir::Type>(types))
          ->getResult(0));
}

/// `axis` of `x` (negative counts from the end) as an index, checked with
/// the world size.
static int64_t tiledAxis(llvm::StringRef name, const Value &x, int64_t axis,
                         int64_t worldSize) {
  int64_t rank = x.rank();
  if (axis < -rank || axis >= rank)
    fail(locationPrefix(location()) + ": error: '" + name.str() + "' axis " +
         std::to_string(axis) + " is out of range for " + x.typeString());
  if (worldSize < 1)
    fail(locationPrefix(location()) + ": error: '" + name.str() +
         "' world size must be at least 1, got " + std::to_string(worldSize));
  return axis < 0 ? axis + rank : axis;
}

Value tracec::all_gather(const Value &x, int64_t axis, int64_t worldSize,
                         llvm::ArrayRef<std::vector<int64_t>> groups) {
  llvm::StringRef name = trace::AllGatherOp::getOperationName();
  axis = tiledAxis(name, x, axis, worldSize);
  mlir::OpBuilder b(&context());
  llvm::SmallVector<int64_t> shape(x.shape());
  std::optional<int64_t> tiled = llvm::checkedMul(shape[axis], worldSize);
  if (!tiled)
    fail(locationPrefix(location()) + ": error: '" + name.str() + "' dim " +
         std::to_string(axis) + " of " + x.typeString() + " times world size " +
         std::to_string(worldSize) + " overflows");
  shape[axis] = *tiled;
  llvm::SmallVector<mlir::NamedAttribute, 3> attributes = {
      b.getNamedAttr("axis", b.getI64IntegerAttr(axis)),
      b.getNamedAttr("world_size", b.getI64IntegerAttr(worldSize))};
  addGroups(name, groups, attributes);
  return tilingCollective(name, x, attributes, shape);
}

Value tracec::reduce_scatter(const Value &x, llvm::StringRef reduction,
                             int64_t axis, int64_t worldSize,
                             llvm::ArrayRef<std::vector<int64_t>> groups) {
  llvm::StringRef name = trace::ReduceScatterOp::getOperationName();
  axis = tiledAxis(name, x, axis, worldSize);
  llvm::SmallVector<int64_t> shape(x.shape());
  if (shape[axis] % worldSize != 0)
    fail(locationPrefix(location()) + ": error: '" + name.str() + "' axis " +
         std::to_string(axis) + " of " + x.typeString() +
         " does not split into " + std::to_string(worldSize) + " equal slices");
  shape[axis] /= worldSize;
  mlir::OpBuilder b(&context());
  llvm::SmallVector<mlir::NamedAttribute, 4> attributes = {
      b.getNamedAttr("reduction", b.getStringAttr(reduction)),
      b.getNamedAttr("axis", b.getI64IntegerAttr(axis)),
      b.getNamedAttr("world_size", b.getI64IntegerAttr(worldSize))};
  addGroups(name, groups, attributes);
  return tilingCollective(name, x, attributes, shape);
}

void tracec::print(const Value &x, llvm::StringRef message) {
  mlir::Value value = resolve(x);
  mlir::OpBuilder b(&context());
  llvm::SmallVector<mlir::NamedAttribute> attrs;
  if (!message.empty())
    attrs.push_back(b.getNamedAttr("message", b.getStringAttr(message)));
  mlir::Type control = trace::ControlType::get(&context());
  createOp(trace::PrintOp::getOperationName(), value, attrs,
           llvm::ArrayRef<mlir::Type>{control});
}
