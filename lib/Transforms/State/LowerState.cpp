//===- LowerState.cpp - Variables become caller-owned buffers -------------===//
//
// A dialect conversion. A `!trace.resource<tensor<S x T>>` becomes a
// `memref<S x T>`: the caller's buffer, updated in place; `!trace.control`
// becomes nothing, wherever it appears (function signatures, calls,
// returns, scf.if/for/while results, iter_args and yields):
//
//   %v, %c = trace.var.read %r after(...)
//     -> %s = memref.alloc() ; memref.copy %m, %s          (a snapshot)
//        %v = bufferization.to_tensor %s restrict writable
//   trace.var.assign %r, %x after(...)
//     -> bufferization.materialize_in_destination %x in writable %m
//   (a read whose only use is a scatter_add written back to the same
//   variable names %m itself: markInPlaceUpdates)
//   trace.var.assign_add %r, %x   (assign_sub: trace.sub)
//     -> snapshot %old; %new = trace.add %old, %x; materialize %new in %m
//   %y = trace.identity %x after(...)  -> %x
//   %c = trace.group(%a, %b)           -> nothing (a join of tokens)
//   random_uniform, random_normal, print: StateLowerings.h
//
// Why this form: a `to_tensor ... restrict` promises one-shot bufferization
// that the tensor is the only way tensor IR reaches the buffer, and a
// `materialize_in_destination ... restrict` that no other restrict op names
// it. A variable is read and written many times, so neither may name the
// caller's buffer. Reads copy it with memref ops, which one-shot
// bufferization leaves where they are, into a fresh buffer that only the
// one to_tensor names (restrict holds; writable, since nothing else sees
// it); writes copy into it at their place in the program without restrict.
//
//===----------------------------------------------------------------------===//

#include "tracec/Transforms/State/Passes.h"

#include "StateLowerings.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "tracec/ABI/tracec_dtype.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include <type_traits>

namespace mlir::trace {
#define GEN_PASS_DEF_TRACELOWERSTATE
#include "tracec/Transforms/State/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;
using namespace mlir::trace;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// The buffer type of a resource's value, or null when it has none.
static MemRefType bufferTypeOf(ResourceType resource) {
  auto tensor = dyn_cast<RankedTensorType>(resource.getValueType());
  if (!tensor || !tensor.hasStaticShape())
    return {};
  return MemRefType::get(tensor.getShape(), tensor.getElementType());
}

StateTypeConverter::StateTypeConverter() {
  // Tried last: everything else stays as it is.
  addConversion([](Type type) { return type; });
  // A null type (no static shape) makes the conversion fail.
  addConversion(
      [](ResourceType resource) -> Type { return bufferTypeOf(resource); });
  addConversion([](ControlType, SmallVectorImpl<Type> &) { return success(); });
}

std::optional<int32_t> mlir::trace::abiDTypeCode(Type element) {
  if (element.isF16())
    return TRACEC_DTYPE_F16;
  if (element.isBF16())
    return TRACEC_DTYPE_BF16;
  if (element.isF32())
    return TRACEC_DTYPE_F32;
  if (element.isF64())
    return TRACEC_DTYPE_F64;
  if (element.isInteger(1))
    return TRACEC_DTYPE_I1;
  if (element.isInteger(32))
    return TRACEC_DTYPE_I32;
  if (element.isInteger(64))
    return TRACEC_DTYPE_I64;
  return std::nullopt;
}

Value mlir::trace::pointerTo(OpBuilder &b, Location loc, Value memref) {
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value integer = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), address);
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), integer);
}

Value mlir::trace::constantGlobal(OpBuilder &b, Location loc,
                                  SymbolTable &symbols, StringRef name,
                                  DenseElementsAttr value) {
  auto type = MemRefType::get(value.getType().getShape(),
                              value.getType().getElementType());
  // Equal constants share one global (two collectives in the same groups,
  // one message printed twice): private and read-only, nobody can tell.
  memref::GlobalOp global;
  for (auto existing : symbols.getOp()->getRegion(0).getOps<memref::GlobalOp>())
    if (existing.getConstant() && existing.isPrivate() &&
        existing.getType() == type && existing.getInitialValueAttr() == value &&
        existing.getSymName().starts_with(name)) {
      global = existing;
      break;
    }
  if (!global)
    global = createModuleSymbol<memref::GlobalOp>(
        b, symbols, loc, uniqueSymbolName(symbols, name),
        b.getStringAttr("private"), type, value, /*constant=*/true,
        /*alignment=*/nullptr);
  Value memref = memref::GetGlobalOp::create(b, loc, type, global.getSymName());
  return pointerTo(b, loc, memref);
}

Value mlir::trace::constantString(OpBuilder &b, Location loc,
                                  SymbolTable &symbols, StringRef name,
                                  StringRef text) {
  SmallVector<int8_t> bytes(text.begin(), text.end());
  bytes.push_back(0);
  return constantGlobal(
      b, loc, symbols, name,
      DenseElementsAttr::get(
          RankedTensorType::get({static_cast<int64_t>(bytes.size())},
                                b.getI8Type()),
          ArrayRef<int8_t>(bytes)));
}

std::string mlir::trace::uniqueSymbolName(SymbolTable &symbols,
                                          StringRef base) {
  std::string name = base.str();
  for (unsigned suffix = 0; symbols.lookup(name); ++suffix)
    name = (base + "_" + Twine(suffix)).str();
  return name;
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {

/// Marks a var.read lowered without a snapshot (see markInPlaceUpdates).
constexpr StringLiteral kUpdateInPlace = "trace.update_in_place";

/// A tensor holding the buffer's contents now, in a fresh buffer of its
/// own: a later write to `buffer` cannot change it.
Value snapshot(OpBuilder &b, Location loc, Value buffer, Type tensorType) {
  auto type = cast<MemRefType>(buffer.getType());
  // 64 bytes, as one-shot bufferization aligns its own allocations.
  Value copy = memref::AllocOp::create(b, loc, type, b.getI64IntegerAttr(64));
  memref::CopyOp::create(b, loc, buffer, copy);
  return bufferization::ToTensorOp::create(b, loc, tensorType, copy,
                                           /*restrict=*/true,
                                           /*writable=*/true);
}

/// Writes `value` into `buffer`, at this point of the program.
void store(OpBuilder &b, Location loc, Value value, Value buffer) {
  bufferization::MaterializeInDestinationOp::create(
      b, loc, /*result=*/Type(), value, buffer, /*restrict=*/false,
      /*writable=*/true);
}

/// The buffer a variable op's resource became (1:N adaptors: tokens have
/// become empty ranges).
FailureOr<Value> bufferOf(ValueRange resource) {
  if (resource.size() != 1 || !isa<MemRefType>(resource.front().getType()))
    return failure();
  return resource.front();
}

struct LowerVarRead : OpConversionPattern<VarReadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(VarReadOp read, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> buffer = bufferOf(adaptor.getResource());
    if (failed(buffer))
      return rewriter.notifyMatchFailure(read, "the resource is no buffer");
    // A read marked by markInPlaceUpdates names the buffer itself: its
    // only use updates rows of it and writes the result back.
    Value value =
        read->hasAttr(kUpdateInPlace)
            ? bufferization::ToTensorOp::create(
                  rewriter, read.getLoc(), read.getValue().getType(), *buffer,
                  /*restrict=*/true, /*writable=*/true)
                  .getResult()
            : snapshot(rewriter, read.getLoc(), *buffer,
                       read.getValue().getType());
    // The value, and no token.
    rewriter.replaceOpWithMultiple(
        read, SmallVector<SmallVector<Value>>{{value}, {}});
    return success();
  }
};

/// assign, assign_add (`combine` = trace.add), assign_sub (trace.sub).
template <typename UpdateOp, typename CombineOp = void>
struct LowerVarUpdate : OpConversionPattern<UpdateOp> {
  using Base = OpConversionPattern<UpdateOp>;
  using Base::Base;

  LogicalResult
  matchAndRewrite(UpdateOp update, typename Base::OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> buffer = bufferOf(adaptor.getResource());
    if (failed(buffer))
      return rewriter.notifyMatchFailure(update, "the resource is no buffer");
    Location loc = update.getLoc();
    Value value = adaptor.getValue().front();
    if constexpr (!std::is_void_v<CombineOp>) {
      Value old = snapshot(rewriter, loc, *buffer, value.getType());
      value = CombineOp::create(rewriter, loc, old, value);
    }
    store(rewriter, loc, value, *buffer);
    // No token.
    rewriter.replaceOpWithMultiple(update, SmallVector<SmallVector<Value>>(1));
    return success();
  }
};

/// identity with tokens: the value itself (program order waits now).
struct LowerIdentity : OpConversionPattern<IdentityOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(IdentityOp identity, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(identity, adaptor.getX());
    return success();
  }
};

/// A join of tokens: nothing (its tokens are gone too).
struct LowerGroup : OpConversionPattern<GroupOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GroupOp group, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithMultiple(group, SmallVector<SmallVector<Value>>(1));
    return success();
  }
};

/// scf.execute_region with its result types converted (a token result is
/// dropped): upstream's structural conversions cover the other scf ops.
struct ConvertExecuteRegionTypes : OpConversionPattern<scf::ExecuteRegionOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(scf::ExecuteRegionOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    SmallVector<SmallVector<Type>> perResult;
    for (Type type : op.getResultTypes()) {
      if (failed(getTypeConverter()->convertTypes(type, perResult.emplace_back())))
        return failure();
      llvm::append_range(types, perResult.back());
    }
    auto newOp = scf::ExecuteRegionOp::create(rewriter, op.getLoc(), types);
    rewriter.inlineRegionBefore(op.getRegion(), newOp.getRegion(),
                                newOp.getRegion().end());
    SmallVector<SmallVector<Value>> replacements;
    unsigned position = 0;
    for (const SmallVector<Type> &converted : perResult) {
      replacements.emplace_back(
          newOp.getResults().slice(position, converted.size()));
      position += converted.size();
    }
    rewriter.replaceOpWithMultiple(op, replacements);
    return success();
  }
};

} // namespace

void mlir::trace::populateVariableLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<LowerVarRead, LowerVarUpdate<VarAssignOp>,
               LowerVarUpdate<VarAssignAddOp, AddOp>,
               LowerVarUpdate<VarAssignSubOp, SubOp>, LowerIdentity, LowerGroup>(
      converter, patterns.getContext());
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {

/// What the patterns cannot lower, diagnosed up front.
LogicalResult checkLowerable(ModuleOp module) {
  bool failedAny = false;
  for (auto func : module.getOps<func::FuncOp>()) {
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
      auto resource = dyn_cast<ResourceType>(type);
      if (!resource || bufferTypeOf(resource))
        continue;
      Location loc =
          func.isExternal() ? func.getLoc() : func.getArgument(i).getLoc();
      emitError(loc) << "argument " << i << " of @" << func.getSymName() << ": "
                     << resource
                     << " needs a statically shaped tensor value to become a "
                        "buffer";
      failedAny = true;
    }
    if (llvm::any_of(func.getResultTypes(),
                     [](Type t) { return isa<ResourceType>(t); })) {
      func.emitError("returning a resource is not supported");
      failedAny = true;
    }
  }
  module.walk([&](Operation *op) {
    LogicalResult lowerable = success();
    if (auto print = dyn_cast<PrintOp>(op))
      lowerable = checkPrintLowerable(print);
    else if (isa<RandomUniformOp, RandomNormalOp>(op))
      lowerable = checkRandomLowerable(op);
    if (failed(lowerable))
      failedAny = true;
  });
  return failure(failedAny);
}

/// A sparse update of a variable,
///   %t = var.read %r; %n = scatter_add %t, %i, %u; var.assign %r, %n
/// in one block, where the read's value has no other use, the scatter's
/// result no other use than the assign, and no other op between the read
/// and the assign touches %r: the snapshot would be copied whole only to
/// be written back whole. The read is marked to name the variable's buffer
/// directly, so that one-shot bufferization adds the rows in place and the
/// write-back copies a buffer onto itself (folded away): O(rows touched),
/// not O(table).
void markInPlaceUpdates(ModuleOp module) {
  module.walk([](VarReadOp read) {
    Value value = read.getValue();
    if (!value.hasOneUse())
      return;
    auto scatter = dyn_cast<ScatterAddOp>(*value.getUsers().begin());
    if (!scatter || scatter.getOperand() != value ||
        !scatter.getResult().hasOneUse())
      return;
    auto assign = dyn_cast<VarAssignOp>(*scatter.getResult().getUsers().begin());
    if (!assign || assign.getResource() != read.getResource() ||
        assign->getBlock() != read->getBlock() ||
        scatter->getBlock() != read->getBlock())
      return;
    Block *block = read->getBlock();
    for (Operation *user : read.getResource().getUsers()) {
      Operation *inBlock = block->findAncestorOpInBlock(*user);
      if (!inBlock || inBlock == read || inBlock == assign)
        continue;
      if (read->isBeforeInBlock(inBlock) && inBlock->isBeforeInBlock(assign))
        return;
    }
    read->setAttr(kUpdateInPlace, UnitAttr::get(read.getContext()));
  });
}

struct LowerStatePass : mlir::trace::impl::TraceLowerStateBase<LowerStatePass> {
  using TraceLowerStateBase::TraceLowerStateBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkLowerable(module)))
      return signalPassFailure();
    markInPlaceUpdates(module);
    markMpiImplementation(module);

    MLIRContext *context = &getContext();
    StateTypeConverter converter;
    ConversionTarget target(*context);
    // Ops are legal once no state type is left in their operands, results
    // and regions; functions once their signature and body are converted;
    // scf ops as populateSCFStructuralTypeConversionsAndLegality says.
    target.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return converter.isLegal(op); });
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp func) {
      return converter.isSignatureLegal(func.getFunctionType()) &&
             converter.isLegal(&func.getBody());
    });
    // Stateful ops never stay: one that cannot be lowered is an error.
    target.addIllegalOp<VarReadOp, VarAssignOp, VarAssignAddOp, VarAssignSubOp,
                        PrintOp, RandomUniformOp, RandomNormalOp,
                        StatelessRandomUniformOp, StatelessRandomNormalOp,
                        StatelessRandomBitsOp, AllReduceOp, BroadcastOp,
                        CommRankOp, CommSizeOp>();

    SymbolTable symbols(module);
    SmallVector<Operation *> approximate;
    RewritePatternSet patterns(context);
    populateVariableLoweringPatterns(converter, patterns);
    populatePrintLoweringPatterns(converter, patterns, symbols);
    populateRandomLoweringPatterns(converter, patterns, symbols, approximate);
    populateCollectiveLoweringPatterns(converter, patterns, symbols,
                                       overlapCollectives);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    patterns.add<ConvertExecuteRegionTypes>(converter, context);
    target.addDynamicallyLegalOp<scf::ExecuteRegionOp>(
        [&](scf::ExecuteRegionOp op) { return converter.isLegal(op); });
    // Upstream leaves the yields of ops it does not convert alone.
    target.addDynamicallyLegalOp<scf::YieldOp>(
        [&](scf::YieldOp op) { return converter.isLegal(op); });
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    if (failed(approximateRandomMath(approximate)))
      return signalPassFailure();
  }
};

} // namespace
