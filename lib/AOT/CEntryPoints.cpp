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
// internal. An entry with dynamic dims also gets
//
//   int model_predict_shape(int64_t x_dim0, ..., int64_t *probs_dim0, ...,
//                           char *error, size_t error_size)
//
// over @__shape_predict (trace-shape-functions): it checks that the
// arguments' dims are sizes and agree, and computes the results' dynamic
// dims, or returns 2 with the message (snprintf into `error`). The entry
// runs it first: 2 when the arguments' dims disagree, 3 when the results'
// dims are not the ones it computes; either way before anything is
// written.
//
//===----------------------------------------------------------------------===//

#include "tracec/AOT/AotCompiler.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace tracec;
using namespace tracec::aot;

namespace {

/// Return codes of the C functions (the header names them).
enum Status { kOk = 0, kNullBuffer = 1, kBadDims = 2, kBadResultDims = 3 };

/// The builder of one C function's body, with the module-level helpers
/// it needs (constants, strings, snprintf).
class CFunctionBuilder {
public:
  CFunctionBuilder(ModuleOp module, LLVM::LLVMFuncOp func)
      : module(module), func(func), b(module.getContext()),
        loc(func.getLoc()) {}

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
    auto global =
        LLVM::AddressOfOp::create(b, loc, LLVM::LLVMPointerType::get(context()),
                                  name);
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

std::vector<CBuffer> buffersOf(const EntryPoint &entry) {
  std::vector<CBuffer> buffers;
  for (auto [spec, name] : llvm::zip(entry.signature.inputs, entry.argNames))
    buffers.push_back({&spec, name, false, {}});
  for (auto [spec, name] :
       llvm::zip(entry.signature.results, entry.resultNames))
    buffers.push_back({&spec, name, true, {}});
  return buffers;
}

int64_t numDynamicDims(const TensorSpec &spec) {
  return llvm::count(spec.shape, TensorSpec::kDynamic);
}

/// The sizes of `buffer`: a constant per static dim, the C function's
/// argument per dynamic one.
llvm::SmallVector<Value> sizesOf(CFunctionBuilder &c, const CBuffer &buffer) {
  llvm::SmallVector<Value> sizes;
  unsigned next = 0;
  for (int64_t size : buffer.spec->shape)
    sizes.push_back(size == TensorSpec::kDynamic ? buffer.dims[next++]
                                                 : c.i64(size));
  return sizes;
}

/// Appends the unpacked memref descriptor of a contiguous buffer `data` of
/// `sizes`: data, data, 0, sizes..., row-major strides...
void appendDescriptor(CFunctionBuilder &c, Value data,
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
LLVM::LLVMFunctionType entryType(MLIRContext *context,
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

/// Whether `func` may read the data of the pointer arguments `pointers`:
/// conservatively, whether a pointer extracted from a descriptor they go
/// into has a use.
bool mayReadData(LLVM::LLVMFuncOp func, llvm::ArrayRef<unsigned> pointers) {
  llvm::SmallVector<Value> worklist;
  for (unsigned i : pointers)
    worklist.push_back(func.getArgument(i));
  llvm::DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (Operation *user : value.getUsers()) {
      if (isa<LLVM::InsertValueOp>(user)) {
        worklist.push_back(user->getResult(0));
      } else if (isa<LLVM::ExtractValueOp>(user)) {
        // Sizes and strides are what a shape function reads.
        if (isa<LLVM::LLVMPointerType, LLVM::LLVMStructType,
                LLVM::LLVMArrayType>(user->getResult(0).getType()))
          worklist.push_back(user->getResult(0));
      } else {
        return true;
      }
    }
  }
  return false;
}

/// "@f: argument 1 (labels) dim 0 is %lld but argument 0 (x) dim 0 is
/// %lld (...)" from a trace-shape-functions message ("argument 1 dim 0 is
/// {0} but ..."): the printf format, and which of the compared sizes (0 or
/// 1) each %lld prints.
std::string printfFormat(const EntryPoint &entry, llvm::StringRef message,
                         llvm::SmallVectorImpl<unsigned> &order) {
  std::string format = "@" + entry.signature.name + ": ";
  while (!message.empty()) {
    if (message.consume_front("{0}") || message.consume_front("{1}")) {
      order.push_back(message.data()[-2] - '0');
      format += "%lld";
      continue;
    }
    if (message.starts_with("argument ")) {
      llvm::StringRef rest = message.drop_front(strlen("argument "));
      size_t digits = rest.find_first_not_of("0123456789");
      unsigned index;
      if (digits != 0 && digits != llvm::StringRef::npos &&
          !rest.take_front(digits).getAsInteger(10, index) &&
          index < entry.argNames.size() &&
          rest.drop_front(digits).starts_with(" dim ")) {
        format += "argument " + rest.take_front(digits).str() + " (" +
                  entry.argNames[index] + ")";
        message = rest.drop_front(digits);
        continue;
      }
    }
    if (message.front() == '%')
      format += '%';
    format += message.front();
    message = message.drop_front();
  }
  return format;
}

/// Adds `<symbol>_shape` over the lowered @__shape_f, `shape`.
LogicalResult addCShapeFunction(ModuleOp module, const EntryPoint &entry,
                                LLVM::LLVMFuncOp shape,
                                llvm::StringRef shapeName) {
  std::vector<CBuffer> buffers = buffersOf(entry);
  const std::vector<TensorSpec> &inputs = entry.signature.inputs;
  // One descriptor per argument (its two pointers first), then the
  // status memref<Nxi64>.
  unsigned expected = 0, resultDims = 0;
  llvm::SmallVector<unsigned> pointers;
  for (const TensorSpec &spec : inputs) {
    pointers.append({expected, expected + 1});
    expected += 3 + 2 * spec.shape.size();
  }
  expected += 5;
  for (const TensorSpec &spec : entry.signature.results)
    resultDims += numDynamicDims(spec);
  if (shape.getNumArguments() != expected)
    return shape.emitError() << "the lowered shape function @" << shapeName
                             << " does not take one memref descriptor per "
                                "argument and its status ("
                             << expected << " values)";
  if (mayReadData(shape, pointers))
    return shape.emitError()
           << "entry @" << entry.signature.name
           << ": its shape function reads the arguments' data, not only "
              "their dims, so tracec cannot export it";

  MLIRContext *context = module.getContext();
  OpBuilder top(context);
  top.setInsertionPointToEnd(module.getBody());
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto i64Type = IntegerType::get(context, 64);
  llvm::SmallVector<Type> types;
  for (const TensorSpec &spec : inputs)
    types.append(numDynamicDims(spec), i64Type);
  types.append(resultDims, ptr);
  types.append({ptr, i64Type});
  auto func = LLVM::LLVMFuncOp::create(
      top, shape.getLoc(), entry.symbol + "_shape",
      LLVM::LLVMFunctionType::get(IntegerType::get(context, 32), types));
  CFunctionBuilder c(module, func);
  Block *body = func.addEntryBlock(c.b);
  c.b.setInsertionPointToEnd(body);
  Value error = body->getArgument(body->getNumArguments() - 2);
  Value errorSize = body->getArgument(body->getNumArguments() - 1);

  // The results' dims go through pointers that must not be null.
  unsigned next = 0;
  for (CBuffer &buffer : buffers)
    if (!buffer.isResult)
      for (int64_t i = 0; i < numDynamicDims(*buffer.spec); ++i)
        buffer.dims.push_back(body->getArgument(next++));
  llvm::ArrayRef<BlockArgument> resultPointers =
      body->getArguments().slice(next, resultDims);
  if (!resultPointers.empty()) {
    Value anyNull =
        LLVM::ConstantOp::create(c.b, c.loc, c.b.getI1Type(), false);
    for (Value pointer : resultPointers)
      anyNull = LLVM::OrOp::create(
          c.b, c.loc, anyNull,
          LLVM::ICmpOp::create(c.b, c.loc, LLVM::ICmpPredicate::eq, pointer,
                               c.null()));
    Block *fail = c.newBlock(), *go = c.newBlock();
    LLVM::CondBrOp::create(c.b, c.loc, anyNull, fail, go);
    c.b.setInsertionPointToEnd(fail);
    c.fail(error, errorSize,
           "@" + entry.signature.name + ": a result dim pointer is null", {},
           kNullBuffer);
    c.b.setInsertionPointToEnd(go);
  }

  // A negative dim is no size.
  for (auto [i, buffer] : llvm::enumerate(buffers)) {
    if (buffer.isResult)
      continue;
    unsigned k = 0;
    for (auto [d, size] : llvm::enumerate(buffer.spec->shape)) {
      if (size != TensorSpec::kDynamic)
        continue;
      Value dim = buffer.dims[k++];
      Value negative = LLVM::ICmpOp::create(
          c.b, c.loc, LLVM::ICmpPredicate::slt, dim, c.i64(0));
      Block *fail = c.newBlock(), *go = c.newBlock();
      LLVM::CondBrOp::create(c.b, c.loc, negative, fail, go);
      c.b.setInsertionPointToEnd(fail);
      c.fail(error, errorSize,
             (llvm::Twine("@") + entry.signature.name + ": argument " +
              llvm::Twine(i) + " (" + buffer.name + ") dim " + llvm::Twine(d) +
              " is %lld, not a size")
                 .str(),
             {dim}, kBadDims);
      c.b.setInsertionPointToEnd(go);
    }
  }

  // @__shape_f(<descriptors of the arguments, no data>, status).
  unsigned statusSize = 3 + resultDims;
  Value one = c.i64(1);
  Value status = LLVM::AllocaOp::create(
      c.b, c.loc, ptr, i64Type, c.i64(statusSize), /*alignment=*/8);
  llvm::SmallVector<Value> operands;
  for (const CBuffer &buffer : buffers)
    if (!buffer.isResult)
      appendDescriptor(c, c.null(), sizesOf(c, buffer), operands);
  operands.append({status, status, c.i64(0), c.i64(statusSize), one});
  LLVM::CallOp::create(c.b, c.loc, shape, operands);
  auto load = [&](int64_t slot) -> Value {
    Value address = LLVM::GEPOp::create(c.b, c.loc, ptr, i64Type, status,
                                        llvm::ArrayRef<LLVM::GEPArg>{slot});
    return LLVM::LoadOp::create(c.b, c.loc, i64Type, address);
  };
  Value code = load(0), sizes[2] = {load(1), load(2)};

  // A failed check: its message, with the two sizes it compared.
  for (unsigned k = 0;; ++k) {
    auto global = module.lookupSymbol<LLVM::GlobalOp>(
        (shapeName + "_check_" + llvm::Twine(k)).str());
    if (!global)
      break;
    auto text = dyn_cast_or_null<StringAttr>(global.getValueOrNull());
    llvm::StringRef message =
        text ? text.getValue().split('\0').first : "the dims disagree";
    llvm::SmallVector<unsigned> order;
    std::string format = printfFormat(entry, message, order);
    Value failed = LLVM::ICmpOp::create(c.b, c.loc, LLVM::ICmpPredicate::eq,
                                        code, c.i64(k + 1));
    Block *fail = c.newBlock(), *go = c.newBlock();
    LLVM::CondBrOp::create(c.b, c.loc, failed, fail, go);
    c.b.setInsertionPointToEnd(fail);
    llvm::SmallVector<Value> args;
    for (unsigned which : order)
      args.push_back(sizes[which]);
    c.fail(error, errorSize, format, args, kBadDims);
    c.b.setInsertionPointToEnd(go);
  }
  Value unknown = LLVM::ICmpOp::create(c.b, c.loc, LLVM::ICmpPredicate::ne,
                                       code, c.i64(0));
  Block *fail = c.newBlock(), *go = c.newBlock();
  LLVM::CondBrOp::create(c.b, c.loc, unknown, fail, go);
  c.b.setInsertionPointToEnd(fail);
  c.fail(error, errorSize,
         "@" + entry.signature.name + ": the arguments' dims disagree", {},
         kBadDims);
  c.b.setInsertionPointToEnd(go);

  for (auto [i, pointer] : llvm::enumerate(resultPointers))
    LLVM::StoreOp::create(c.b, c.loc, load(3 + i), pointer);
  {
    // An empty message on success.
    Value noBuffer = LLVM::OrOp::create(
        c.b, c.loc,
        LLVM::ICmpOp::create(c.b, c.loc, LLVM::ICmpPredicate::eq, error,
                             c.null()),
        LLVM::ICmpOp::create(c.b, c.loc, LLVM::ICmpPredicate::eq, errorSize,
                             c.i64(0)));
    Block *clear = c.newBlock(), *done = c.newBlock();
    LLVM::CondBrOp::create(c.b, c.loc, noBuffer, done, clear);
    c.b.setInsertionPointToEnd(clear);
    Value zero = LLVM::ConstantOp::create(c.b, c.loc, c.b.getI8Type(),
                                          c.b.getI8IntegerAttr(0));
    LLVM::StoreOp::create(c.b, c.loc, zero, error);
    LLVM::BrOp::create(c.b, c.loc, done);
    c.b.setInsertionPointToEnd(done);
  }
  c.returnCode(kOk);
  return success();
}

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
      return callee.emitError() << "entry @" << entry.signature.name
                                << " has dynamic dims but no shape function @"
                                << shapeName;
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
  Value anyNull =
      LLVM::ConstantOp::create(c.b, c.loc, c.b.getI1Type(), c.b.getBoolAttr(false));
  for (Value buffer : pointers)
    anyNull = LLVM::OrOp::create(
        c.b, c.loc, anyNull,
        LLVM::ICmpOp::create(c.b, c.loc, LLVM::ICmpPredicate::eq, buffer,
                             c.null()));
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
    c.returnIf(LLVM::ICmpOp::create(c.b, c.loc, LLVM::ICmpPredicate::ne,
                                    status, zero),
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
