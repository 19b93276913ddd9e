//===- CShapeFunctions.cpp - The C shape functions of dynamic entries -----===//
//
//   int model_predict_shape(int64_t x_dim0, ..., int64_t *probs_dim0, ...,
//                           char *error, size_t error_size)
//
// over the lowered @__shape_predict (trace-shape-functions): it checks that
// the arguments' dims are sizes (not negative), calls @__shape_predict with
// descriptors that carry only the dims (no data: checked, the shape
// function must not read any), and either writes the results' dynamic dims
// or formats the failed check's message into `error` with snprintf.
//
//===----------------------------------------------------------------------===//

#include "CFunctionBuilder.h"

using namespace mlir;
using namespace tracec;
using namespace tracec::aot;
using namespace tracec::aot::detail;

/// Whether `func` may read the data of the pointer arguments `pointers`:
/// conservatively, whether a pointer extracted from a descriptor they go
/// into has a use.
/// Whether a value of `type` can carry a pointer (a descriptor's sizes and
/// strides, arrays of i64, cannot).
static bool mayHoldPointer(Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return true;
  if (auto array = dyn_cast<LLVM::LLVMArrayType>(type))
    return mayHoldPointer(array.getElementType());
  if (auto structType = dyn_cast<LLVM::LLVMStructType>(type))
    return llvm::any_of(structType.getBody(), mayHoldPointer);
  return false;
}

static bool mayReadData(LLVM::LLVMFuncOp func,
                        llvm::ArrayRef<unsigned> pointers) {
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
        // Sizes and strides are what a shape function reads (the GPU
        // pipeline's host code reads them as a whole array, through an
        // alloca).
        if (mayHoldPointer(user->getResult(0).getType()))
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
static std::string printfFormat(const EntryPoint &entry,
                                llvm::StringRef message,
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

LogicalResult
tracec::aot::detail::addCShapeFunction(ModuleOp module, const EntryPoint &entry,
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
      anyNull = LLVM::OrOp::create(c.b, c.loc, anyNull,
                                   LLVM::ICmpOp::create(c.b, c.loc,
                                                        LLVM::ICmpPredicate::eq,
                                                        pointer, c.null()));
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
  Value status = LLVM::AllocaOp::create(c.b, c.loc, ptr, i64Type,
                                        c.i64(statusSize), /*alignment=*/8);
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
  Value unknown =
      LLVM::ICmpOp::create(c.b, c.loc, LLVM::ICmpPredicate::ne, code, c.i64(0));
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
