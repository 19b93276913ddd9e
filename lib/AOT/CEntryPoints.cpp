//===- CEntryPoints.cpp - C functions over the lowered entry points -------===//
//
// The CPU pipeline lowers each memref argument to its unpacked descriptor
// (allocated and aligned pointer, offset, sizes, strides). A C caller
// passes a pointer per buffer, followed by its dynamic dims, if it has
// any: for each entry
//
//   int model_step(const float *x, float *w, float *loss)
//   int model_predict(const float *x, int64_t x_dim0, ..., float *probs,
//                     int64_t probs_dim0)
//
// checks every pointer for null (returning 1), rebuilds the descriptors
// (sizes and row-major strides) and calls the lowered @step, which is then
// internal. An entry with dynamic dims also gets `<symbol>_shape`
// (CShapeFunctions.cpp), which checks the arguments' dims and computes the
// results'. The entry runs it first: 2 when the arguments' dims disagree,
// 3 when the results' dims are not the ones it computes; either way
// before anything is written.
//
//===----------------------------------------------------------------------===//

#include "tracec/AOT/AotCompiler.h"

#include "CFunctionBuilder.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace tracec;
using namespace tracec::aot;

using namespace tracec::aot::detail;

namespace {

LogicalResult addCEntryPoint(ModuleOp module, const EntryPoint &entry,
                             StringRef loweredName) {
  auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>(loweredName);
  if (!callee || callee.isExternal())
    return emitError(module.getLoc())
           << "entry @" << entry.signature.name << " was not lowered";
  std::vector<CBuffer> buffers = buffersOf(entry);
  unsigned expected = 0;
  for (const CBuffer &buffer : buffers)
    expected += 3 + 2 * buffer.spec->shape.size();
  if (callee.getNumArguments() != expected ||
      !isa<LLVM::LLVMVoidType>(callee.getFunctionType().getReturnType()))
    return callee.emitError()
           << "lowered entry @" << entry.signature.name
           << " does not take one memref descriptor per argument and result ("
           << expected << " values): " << callee.getFunctionType();

  LLVM::LLVMFuncOp shapeFunction;
  bool dynamic = entry.signature.hasDynamicDims();
  if (dynamic) {
    std::string shapeName = ("__shape_" + loweredName).str();
    auto shape = module.lookupSymbol<LLVM::LLVMFuncOp>(shapeName);
    if (!shape || shape.isExternal())
      return callee.emitError()
             << "entry @" << entry.signature.name
             << " has dynamic dims but no shape function @" << shapeName;
    if (failed(addCShapeFunction(module, entry, shape, shapeName)))
      return failure();
    shapeFunction =
        module.lookupSymbol<LLVM::LLVMFuncOp>(entry.symbol + "_shape");
  }

  MLIRContext *context = module.getContext();
  OpBuilder top(context);
  top.setInsertionPointToEnd(module.getBody());
  auto wrapper = LLVM::LLVMFuncOp::create(top, callee.getLoc(), entry.symbol,
                                          entryType(context, buffers));
  CFunctionBuilder c(module, wrapper);
  Block *body = wrapper.addEntryBlock(c.b);
  llvm::SmallVector<Value> pointers;
  unsigned next = 0;
  for (CBuffer &buffer : buffers) {
    pointers.push_back(body->getArgument(next++));
    for (int64_t i = 0; i < numDynamicDims(*buffer.spec); ++i)
      buffer.dims.push_back(body->getArgument(next++));
  }

  c.b.setInsertionPointToEnd(body);
  Value anyNull = LLVM::ConstantOp::create(c.b, c.loc, c.b.getI1Type(),
                                           c.b.getBoolAttr(false));
  for (Value buffer : pointers)
    anyNull = LLVM::OrOp::create(c.b, c.loc, anyNull,
                                 LLVM::ICmpOp::create(c.b, c.loc,
                                                      LLVM::ICmpPredicate::eq,
                                                      buffer, c.null()));
  c.returnIf(anyNull, kNullBuffer);

  if (dynamic) {
    // The arguments' dims must agree, and the results' be the ones they
    // give, before anything runs.
    auto i64Type = c.b.getI64Type();
    llvm::SmallVector<Value> shapeOperands, computed;
    for (const CBuffer &buffer : buffers)
      if (!buffer.isResult)
        shapeOperands.append(buffer.dims.begin(), buffer.dims.end());
    for (const CBuffer &buffer : buffers)
      if (buffer.isResult)
        for (size_t i = 0; i < buffer.dims.size(); ++i) {
          Value slot = LLVM::AllocaOp::create(
              c.b, c.loc, LLVM::LLVMPointerType::get(context), i64Type,
              c.i64(1), /*alignment=*/8);
          shapeOperands.push_back(slot);
          computed.push_back(slot);
        }
    shapeOperands.append({c.null(), c.i64(0)});
    Value status =
        LLVM::CallOp::create(c.b, c.loc, shapeFunction, shapeOperands)
            .getResult();
    Value zero = LLVM::ConstantOp::create(c.b, c.loc, c.b.getI32Type(),
                                          c.b.getI32IntegerAttr(0));
    c.returnIf(
        LLVM::ICmpOp::create(c.b, c.loc, LLVM::ICmpPredicate::ne, status, zero),
        kBadDims);
    Value anyDiffers =
        LLVM::ConstantOp::create(c.b, c.loc, c.b.getI1Type(), false);
    unsigned k = 0;
    for (const CBuffer &buffer : buffers)
      if (buffer.isResult)
        for (Value dim : buffer.dims) {
          Value expectedDim =
              LLVM::LoadOp::create(c.b, c.loc, i64Type, computed[k++]);
          anyDiffers = LLVM::OrOp::create(
              c.b, c.loc, anyDiffers,
              LLVM::ICmpOp::create(c.b, c.loc, LLVM::ICmpPredicate::ne, dim,
                                   expectedDim));
        }
    if (k)
      c.returnIf(anyDiffers, kBadResultDims);
  }

  llvm::SmallVector<Value> operands;
  for (auto [pointer, buffer] : llvm::zip(pointers, buffers))
    appendDescriptor(c, pointer, sizesOf(c, buffer), operands);
  LLVM::CallOp::create(c.b, c.loc, callee, operands);
  c.returnCode(kOk);
  return success();
}

} // namespace

LogicalResult tracec::aot::addCEntryPoints(
    ModuleOp module, llvm::ArrayRef<EntryPoint> entries,
    const llvm::StringMap<std::string> &loweredNames) {
  // Everything the module defines becomes internal first: LLVM may then
  // inline the lowered entries into their C functions and drop the rest.
  for (auto func : module.getOps<LLVM::LLVMFuncOp>())
    if (!func.isExternal())
      func.setLinkage(LLVM::Linkage::Internal);
  for (auto global : module.getOps<LLVM::GlobalOp>())
    if (global.getValueOrNull() || !global.getInitializerRegion().empty())
      global.setLinkage(LLVM::Linkage::Internal);

  llvm::StringSet<> symbols;
  for (const EntryPoint &entry : entries) {
    llvm::SmallVector<std::string, 2> names{entry.symbol};
    if (entry.signature.hasDynamicDims())
      names.push_back(entry.symbol + "_shape");
    for (const std::string &name : names)
      if (!symbols.insert(name).second || module.lookupSymbol(name))
        return emitError(module.getLoc())
               << "C symbol " << name << " of entry @" << entry.signature.name
               << " is already defined";
  }
  for (const EntryPoint &entry : entries) {
    auto lowered = loweredNames.find(entry.signature.name);
    if (failed(addCEntryPoint(module, entry,
                              lowered == loweredNames.end()
                                  ? StringRef(entry.signature.name)
                                  : StringRef(lowered->second))))
      return failure();
  }
  return success();
}
