//===- Jvp.cpp - jvp of traced callables (forward mode) -------------------===//
//
// The callable is traced into a private func.func of the module and a
// trace.jvp op references it; trace-autodiff generates its __jvp function
// when the module is compiled. Captured Values and variables become extra
// arguments, which get no tangents.
//
//===----------------------------------------------------------------------===//

#include "Tracer.h"

#include "tracec/Dialect/Trace/IR/DifferentiableOpInterface.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"
#include "tracec/Frontend/Gradients.h"

using namespace tracec;
using namespace tracec::detail;
namespace trace = mlir::trace;

std::vector<Value> tracec::jvp(const Callable &f, llvm::ArrayRef<Value> primals,
                               llvm::ArrayRef<Value> tangents,
                               JvpOptions options) {
  std::vector<Value> set(tangents.begin(), tangents.end());
  return jvps(f, primals, {set}, std::move(options)).front();
}

std::vector<std::vector<Value>>
tracec::jvps(const Callable &f, llvm::ArrayRef<Value> primals,
             llvm::ArrayRef<std::vector<Value>> tangentSets,
             JvpOptions options) {
  llvm::StringRef opName = trace::JvpOp::getOperationName();
  llvm::SmallVector<mlir::Value> args;
  for (const Value &primal : primals)
    args.push_back(resolve(primal));
  std::vector<int64_t> argnums = options.argnums;
  if (argnums.empty())
    for (size_t i = 0; i < primals.size(); ++i)
      argnums.push_back(i);
  for (int64_t index : argnums) {
    if (index < 0 || index >= (int64_t)primals.size())
      fail(locationPrefix(location()) + ": error: '" + opName + "' argnum " +
           llvm::Twine(index) + " is out of range for " +
           llvm::Twine(primals.size()) + " arguments");
    if (!trace::carriesTangent(args[index].getType()))
      fail(locationPrefix(location()) + ": error: '" + opName + "' argument " +
           llvm::Twine(index) +
           " has no tangent: only floating-point tensors do");
  }
  for (const std::vector<Value> &tangents : tangentSets)
    if (tangents.size() != argnums.size())
      fail(locationPrefix(location()) + ": error: '" + opName + "' got " +
           llvm::Twine(tangents.size()) + " tangents for " +
           llvm::Twine(argnums.size()) + " differentiated arguments");

  TracedCallee callee =
      traceCallee(options.name, mlir::ValueRange(args).getTypes(), f, {});
  mlir::FunctionType calleeType = callee.func.getFunctionType();
  for (ExtraArgument &extra : callee.extras)
    args.push_back(extra.outer);

  llvm::SmallVector<mlir::Type> types(calleeType.getResults());
  for (mlir::Type type : calleeType.getResults())
    if (trace::carriesTangent(type))
      types.push_back(type);
  mlir::OpBuilder b(&context());
  llvm::SmallVector<mlir::NamedAttribute> attrs = {
      b.getNamedAttr(
          "callee", mlir::FlatSymbolRefAttr::get(callee.func.getSymNameAttr())),
      b.getNamedAttr("wrt", b.getDenseI64ArrayAttr(llvm::SmallVector<int64_t>(
                                argnums.begin(), argnums.end()))),
      b.getNamedAttr("operandSegmentSizes",
                     b.getDenseI32ArrayAttr(
                         {(int32_t)args.size(), (int32_t)argnums.size(),
                          /*after=*/0}))};

  // One trace.jvp per tangent set, all of the one traced function.
  std::vector<std::vector<Value>> all;
  for (const std::vector<Value> &tangents : tangentSets) {
    // Tangents take their primal's dtype (JAX requires it; converting is
    // the friendlier choice for Python scalars and literals).
    llvm::SmallVector<mlir::Value> operands(args);
    for (auto [k, index] : llvm::enumerate(argnums)) {
      auto type = llvm::cast<mlir::RankedTensorType>(args[index].getType());
      resolve(tangents[k]);
      Value converted = castTo(tangents[k], dtypeOf(type.getElementType()));
      operands.push_back(resolve(converted));
    }
    mlir::Operation *op =
        createOp(opName, operands, attrs, llvm::ArrayRef<mlir::Type>(types));
    verifyOrFail(op, /*symbolUses=*/true);
    std::vector<Value> results;
    for (mlir::Value result : op->getResults())
      results.push_back(wrap(result));
    all.push_back(std::move(results));
  }
  return all;
}
