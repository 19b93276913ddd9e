//===- Vmap.cpp - vmap of traced callables --------------------------------===//
//
// The callable is traced at one example (the mapped dims removed) into a
// private func.func of the module, and a trace.vmap op references it;
// trace-vmap generates its batched function when the module is compiled.
// Captured Values and the values of variables it reads (read just before
// the op) become extra, unmapped arguments.
//
//===----------------------------------------------------------------------===//

#include "Tracer.h"

#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "tracec/Frontend/State.h"
#include "tracec/Frontend/Vmap.h"

using namespace tracec;
using namespace tracec::detail;
namespace trace = mlir::trace;

std::vector<Value> tracec::vmap(const Callable &f, llvm::ArrayRef<Value> args,
                                llvm::ArrayRef<int64_t> inAxes,
                                llvm::ArrayRef<int64_t> outAxes) {
  llvm::StringRef opName = trace::VmapOp::getOperationName();
  std::string where = locationPrefix(location()) + ": error: '" +
                      opName.str() + "' ";
  if (inAxes.size() != args.size())
    fail(where + "got " + llvm::Twine(inAxes.size()) + " in_axes for " +
         llvm::Twine(args.size()) + " arguments");
  llvm::SmallVector<mlir::Value> operands;
  llvm::SmallVector<mlir::Type> exampleTypes;
  llvm::SmallVector<int64_t> axes;
  std::optional<int64_t> size;
  for (auto [i, arg] : llvm::enumerate(args)) {
    mlir::Value operand = resolve(arg);
    auto type = llvm::cast<mlir::RankedTensorType>(operand.getType());
    int64_t axis = inAxes[i];
    if (axis < -1 || axis >= type.getRank())
      fail(where + "in_axes[" + llvm::Twine(i) + "] = " + llvm::Twine(axis) +
           " is out of range for argument " + llvm::Twine(i) + " of rank " +
           llvm::Twine(type.getRank()));
    llvm::SmallVector<int64_t> shape(type.getShape());
    if (axis >= 0) {
      int64_t dim = type.getDimSize(axis);
      if (mlir::ShapedType::isDynamic(dim))
        fail(where + "argument " + llvm::Twine(i) +
             " is mapped over a dynamic dim: the batch size must be static");
      if (size && *size != dim)
        fail(where + "mapped dims differ in size: argument " + llvm::Twine(i) +
             " has size " + llvm::Twine(dim) + " along dim " +
             llvm::Twine(axis) + ", an earlier argument " +
             llvm::Twine(*size));
      size = dim;
      shape.erase(shape.begin() + axis);
    }
    operands.push_back(operand);
    exampleTypes.push_back(type.clone(shape));
    axes.push_back(axis);
  }
  if (!size)
    fail(where + "maps no argument: at least one in_axes entry must name a "
                 "dim");

  TracedCallee callee = traceCallee("", exampleTypes, f, {},
                                    "the mapped function", /*hoistReads=*/true);
  for (ExtraArgument &extra : callee.extras) {
    operands.push_back(extra.readValue ? resolve(read(*extra.variable))
                                       : extra.outer);
    axes.push_back(-1);
  }
  llvm::ArrayRef<mlir::Type> exampleResults =
      callee.func.getFunctionType().getResults();
  if (outAxes.size() != 1 && outAxes.size() != exampleResults.size())
    fail(where + "got " + llvm::Twine(outAxes.size()) + " out_axes for " +
         llvm::Twine(exampleResults.size()) + " results");
  llvm::SmallVector<int64_t> resultAxes;
  llvm::SmallVector<mlir::Type> resultTypes;
  for (auto [j, type] : llvm::enumerate(exampleResults)) {
    auto tensor = llvm::cast<mlir::RankedTensorType>(type);
    int64_t axis = outAxes[outAxes.size() == 1 ? 0 : j];
    if (axis < 0 || axis > tensor.getRank())
      fail(where + "out_axes entry " + llvm::Twine(axis) +
           " is out of range for result " + llvm::Twine(j) + " of rank " +
           llvm::Twine(tensor.getRank() + 1));
    llvm::SmallVector<int64_t> shape(tensor.getShape());
    shape.insert(shape.begin() + axis, *size);
    resultAxes.push_back(axis);
    resultTypes.push_back(tensor.clone(shape));
  }

  mlir::OpBuilder b(&context());
  llvm::SmallVector<mlir::NamedAttribute> attrs = {
      b.getNamedAttr("callee",
                     mlir::FlatSymbolRefAttr::get(callee.func.getSymNameAttr())),
      b.getNamedAttr("in_axes", b.getDenseI64ArrayAttr(axes)),
      b.getNamedAttr("out_axes", b.getDenseI64ArrayAttr(resultAxes))};
  mlir::Operation *op = createOp(opName, operands, attrs,
                                 llvm::ArrayRef<mlir::Type>(resultTypes));
  verifyOrFail(op, /*symbolUses=*/true);
  std::vector<Value> results;
  for (mlir::Value result : op->getResults())
    results.push_back(wrap(result));
  return results;
}
