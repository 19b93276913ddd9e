//===- CFunctionBuilder.h - Building the C functions of an AOT model ------===//
//
// What CEntryPoints.cpp (the entries) and CShapeFunctions.cpp (their shape
// functions) share: a builder for C function bodies in the LLVM dialect,
// the buffers of an entry as its C function passes them, and memref
// descriptors rebuilt from a pointer and sizes.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_AOT_CFUNCTIONBUILDER_H
#define TRACEC_LIB_AOT_CFUNCTIONBUILDER_H

#include "tracec/AOT/EntryPoints.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

namespace tracec::aot::detail {

using namespace mlir;

/// Return codes of the C functions (the header names them).
enum Status {
  kOk = 0,
  kNullBuffer = 1,
  kBadDims = 2,
  kBadResultDims = 3,
  kUnsupportedCpu = 4, // CpuDispatch.h
};

/// The builder of one C function's body, with the module-level helpers
/// it needs (constants, strings, snprintf).
class CFunctionBuilder {
public:
  CFunctionBuilder(ModuleOp module, LLVM::LLVMFuncOp func)
      : module(module), func(func), b(module.getContext()), loc(func.getLoc()) {
  }

  Value i64(int64_t value) {
    return LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                    b.getI64IntegerAttr(value));
  }
  Value null() {
    return LLVM::ZeroOp::create(b, loc, LLVM::LLVMPointerType::get(context()));
  }
  void returnCode(int value) {
    Value code = LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                          b.getI32IntegerAttr(value));
    LLVM::ReturnOp::create(b, loc, code);
  }
  Block *newBlock() {
    OpBuilder::InsertionGuard guard(b);
    return b.createBlock(&func.getBody());
  }
  /// Branches to a new block that returns `code` if `failed`, and goes on
  /// in another new block otherwise.
  void returnIf(Value failed, int code) {
    Block *fail = newBlock(), *next = newBlock();
    LLVM::CondBrOp::create(b, loc, failed, fail, next);
    b.setInsertionPointToEnd(fail);
    returnCode(code);
    b.setInsertionPointToEnd(next);
  }
  /// The address of a constant NUL-terminated string private to the module.
  Value string(llvm::StringRef text) {
    std::string value = text.str();
    value.push_back('\0');
    std::string name;
    for (unsigned i = 0;; ++i) {
      name = (func.getSymName() + ".str" + llvm::Twine(i)).str();
      if (!module.lookupSymbol(name))
        break;
    }
    OpBuilder top(context());
    top.setInsertionPointToEnd(module.getBody());
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), value.size());
    LLVM::GlobalOp::create(top, loc, type, /*isConstant=*/true,
                           LLVM::Linkage::Internal, name,
                           b.getStringAttr(value));
    auto global = LLVM::AddressOfOp::create(
        b, loc, LLVM::LLVMPointerType::get(context()), name);
    return global;
  }
  /// snprintf(error, errorSize, format, args...) where `error` is not null
  /// and `errorSize` not 0, then returns `code`.
  void fail(Value error, Value errorSize, llvm::StringRef format,
            ValueRange args, int code) {
    Value noBuffer = LLVM::OrOp::create(
        b, loc,
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, error, null()),
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, errorSize,
                             i64(0)));
    Block *print = newBlock(), *done = newBlock();
    LLVM::CondBrOp::create(b, loc, noBuffer, done, print);
    b.setInsertionPointToEnd(print);
    llvm::SmallVector<Value> operands{error, errorSize, string(format)};
    operands.append(args.begin(), args.end());
    LLVM::CallOp::create(b, loc, snprintf(), operands);
    LLVM::BrOp::create(b, loc, done);
    b.setInsertionPointToEnd(done);
    returnCode(code);
  }

  MLIRContext *context() { return module.getContext(); }

  ModuleOp module;
  LLVM::LLVMFuncOp func;
  OpBuilder b;
  Location loc;

private:
  LLVM::LLVMFuncOp snprintf() {
    if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>("snprintf"))
      return existing;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto ptr = LLVM::LLVMPointerType::get(context());
    auto type = LLVM::LLVMFunctionType::get(
        b.getI32Type(), {ptr, b.getI64Type(), ptr}, /*isVarArg=*/true);
    return LLVM::LLVMFuncOp::create(b, loc, "snprintf", type);
  }
};

/// One buffer of an entry's C function.
struct CBuffer {
  const TensorSpec *spec;
  llvm::StringRef name;
  bool isResult;
  /// The C function's arguments carrying the dynamic dims, in order.
  llvm::SmallVector<Value> dims;
};

inline std::vector<CBuffer> buffersOf(const EntryPoint &entry) {
  std::vector<CBuffer> buffers;
  for (auto [spec, name] : llvm::zip(entry.signature.inputs, entry.argNames))
    buffers.push_back({&spec, name, false, {}});
  for (auto [spec, name] :
       llvm::zip(entry.signature.results, entry.resultNames))
    buffers.push_back({&spec, name, true, {}});
  return buffers;
}

inline int64_t numDynamicDims(const TensorSpec &spec) {
  return llvm::count(spec.shape, TensorSpec::kDynamic);
}

/// The sizes of `buffer`: a constant per static dim, the C function's
/// argument per dynamic one.
inline llvm::SmallVector<Value> sizesOf(CFunctionBuilder &c,
                                        const CBuffer &buffer) {
  llvm::SmallVector<Value> sizes;
  unsigned next = 0;
  for (int64_t size : buffer.spec->shape)
    sizes.push_back(size == TensorSpec::kDynamic ? buffer.dims[next++]
                                                 : c.i64(size));
  return sizes;
}

/// Appends the unpacked memref descriptor of a contiguous buffer `data` of
/// `sizes`: data, data, 0, sizes..., row-major strides...
inline void appendDescriptor(CFunctionBuilder &c, Value data,
                             llvm::ArrayRef<Value> sizes,
                             llvm::SmallVectorImpl<Value> &operands) {
  operands.append({data, data, c.i64(0)});
  operands.append(sizes.begin(), sizes.end());
  llvm::SmallVector<Value> strides(sizes.size());
  // Static strides stay constants (as the lowered code expects them).
  std::optional<int64_t> stride = 1;
  Value dynamicStride;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    strides[d] = stride ? c.i64(*stride) : dynamicStride;
    llvm::APInt size;
    if (stride && matchPattern(sizes[d], m_ConstantInt(&size))) {
      stride = *stride * size.getSExtValue();
      continue;
    }
    dynamicStride = LLVM::MulOp::create(c.b, c.loc, strides[d], sizes[d]);
    stride.reset();
  }
  operands.append(strides.begin(), strides.end());
}

/// The C function's type: a pointer per buffer followed by its dynamic
/// dims; returns a status.
inline LLVM::LLVMFunctionType entryType(MLIRContext *context,
                                        llvm::ArrayRef<CBuffer> buffers) {
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto i64 = IntegerType::get(context, 64);
  llvm::SmallVector<Type> types;
  for (const CBuffer &buffer : buffers) {
    types.push_back(ptr);
    types.append(numDynamicDims(*buffer.spec), i64);
  }
  return LLVM::LLVMFunctionType::get(IntegerType::get(context, 32), types);
}

/// Adds the C function `<entry.symbol>_shape` over the lowered shape
/// function `shape` (@__shape_f, named `shapeName`).
LogicalResult addCShapeFunction(ModuleOp module, const EntryPoint &entry,
                                LLVM::LLVMFuncOp shape,
                                llvm::StringRef shapeName);

} // namespace tracec::aot::detail

#endif // TRACEC_LIB_AOT_CFUNCTIONBUILDER_H
