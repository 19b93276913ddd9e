//===- CEntryPoints.cpp - C functions over the lowered entry points -------===//
//
// The CPU pipeline lowers each memref argument to its unpacked descriptor
// (allocated and aligned pointer, offset, sizes, strides). Shapes are
// static, so a C caller needs to pass only the pointer: for each entry
//
//   int model_step(const float *x, float *w, float *loss)
//
// checks every pointer for null (returning 1), rebuilds the descriptors
// from constants and calls the lowered @step, which is then internal.
//
//===----------------------------------------------------------------------===//

#include "tracec/AOT/AotCompiler.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace tracec;
using namespace tracec::aot;

/// Appends the unpacked memref descriptor of a contiguous buffer `data` of
/// `shape`: data, data, 0, sizes..., row-major strides...
static void appendDescriptor(OpBuilder &b, Location loc, Value data,
                             llvm::ArrayRef<int64_t> shape,
                             llvm::SmallVectorImpl<Value> &operands) {
  auto index = [&](int64_t value) -> Value {
    return LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                    b.getI64IntegerAttr(value));
  };
  operands.append({data, data, index(0)});
  for (int64_t size : shape)
    operands.push_back(index(size));
  llvm::SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  for (int64_t stride : strides)
    operands.push_back(index(stride));
}

static LogicalResult addCEntryPoint(ModuleOp module, const EntryPoint &entry,
                                    StringRef loweredName) {
  auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>(loweredName);
  if (!callee || callee.isExternal())
    return emitError(module.getLoc())
           << "entry @" << entry.signature.name << " was not lowered";
  llvm::SmallVector<TensorSpec> buffers(entry.signature.inputs.begin(),
                                        entry.signature.inputs.end());
  buffers.append(entry.signature.results.begin(),
                 entry.signature.results.end());
  unsigned expected = 0;
  for (const TensorSpec &spec : buffers)
    expected += 3 + 2 * spec.shape.size();
  if (callee.getNumArguments() != expected ||
      !isa<LLVM::LLVMVoidType>(callee.getFunctionType().getReturnType()))
    return callee.emitError()
           << "lowered entry @" << entry.signature.name
           << " does not take one memref descriptor per argument and result ("
           << expected << " values): " << callee.getFunctionType();

  MLIRContext *context = module.getContext();
  Location loc = callee.getLoc();
  OpBuilder b(context);
  b.setInsertionPointToEnd(module.getBody());
  auto ptrType = LLVM::LLVMPointerType::get(context);
  auto type = LLVM::LLVMFunctionType::get(
      b.getI32Type(), llvm::SmallVector<Type>(buffers.size(), ptrType));
  auto wrapper = LLVM::LLVMFuncOp::create(b, loc, entry.symbol, type);
  Block *check = wrapper.addEntryBlock(b);
  Block *fail = b.createBlock(&wrapper.getBody());
  Block *call = b.createBlock(&wrapper.getBody());
  auto returnCode = [&](int value) {
    Value code = LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                          b.getI32IntegerAttr(value));
    LLVM::ReturnOp::create(b, loc, code);
  };

  b.setInsertionPointToEnd(check);
  Value null = LLVM::ZeroOp::create(b, loc, ptrType);
  Value anyNull =
      LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(false));
  for (Value buffer : check->getArguments()) {
    Value isNull =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, buffer, null);
    anyNull = LLVM::OrOp::create(b, loc, anyNull, isNull);
  }
  LLVM::CondBrOp::create(b, loc, anyNull, fail, call);

  b.setInsertionPointToEnd(fail);
  returnCode(1);

  b.setInsertionPointToEnd(call);
  llvm::SmallVector<Value> operands;
  for (auto [buffer, spec] : llvm::zip(check->getArguments(), buffers))
    appendDescriptor(b, loc, buffer, spec.shape, operands);
  LLVM::CallOp::create(b, loc, callee, operands);
  returnCode(0);
  return success();
}

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
    if (!symbols.insert(entry.symbol).second ||
        module.lookupSymbol(entry.symbol))
      return emitError(module.getLoc())
             << "C symbol " << entry.symbol << " of entry @"
             << entry.signature.name << " is already defined";
    auto lowered = loweredNames.find(entry.signature.name);
    if (failed(addCEntryPoint(module, entry,
                              lowered == loweredNames.end()
                                  ? StringRef(entry.signature.name)
                                  : StringRef(lowered->second))))
      return failure();
  }
  return success();
}
