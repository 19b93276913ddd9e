//===- LowerPrint.cpp - trace.print -> a call of tracec_print_tensor ------===//
//
//   trace.print %x {message = "m"} : tensor<2x3xf32>
//     -> %copy = bufferization.alloc_tensor() copy(%x)    (contiguous)
//        %buf = bufferization.to_buffer %copy read_only
//        call @tracec_print_tensor(ptr(@message), 2 /*f32*/, 2,
//                                  ptr(@shape), ptr(%buf))
//
// The message ("m\0") and the shape are constant memref.globals; pointers
// are the aligned pointers of memrefs as !llvm.ptr, the C ABI of
// tracec/ABI/tracec_print.h. The copy's buffer is freed at the end of
// its block (buffer deallocation), after the call.
//
//===----------------------------------------------------------------------===//

#include "StateLowerings.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/DialectConversion.h"
#include "tracec/ABI/tracec_print.h"

using namespace mlir;
using namespace mlir::trace;

namespace {

/// The callback's declaration, added once.
func::FuncOp callback(OpBuilder &b, Location loc, SymbolTable &symbols) {
  if (auto existing = symbols.lookup<func::FuncOp>(TRACEC_PRINT_TENSOR_SYMBOL))
    return existing;
  Type ptr = LLVM::LLVMPointerType::get(b.getContext());
  auto type =
      b.getFunctionType({ptr, b.getI32Type(), b.getI64Type(), ptr, ptr}, {});
  auto func = createModuleSymbol<func::FuncOp>(
      b, symbols, loc, TRACEC_PRINT_TENSOR_SYMBOL, type);
  func.setPrivate();
  return func;
}

struct LowerPrint : OpConversionPattern<PrintOp> {
  LowerPrint(const TypeConverter &converter, MLIRContext *context,
             SymbolTable &symbols)
      : OpConversionPattern(converter, context), symbols(symbols) {}

  // 1:N adaptor: the `after` tokens have become nothing.
  LogicalResult
  matchAndRewrite(PrintOp print, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = print.getX().getType();
    std::optional<int32_t> dtype = abiDTypeCode(type.getElementType());
    if (!dtype || !type.hasStaticShape())
      return rewriter.notifyMatchFailure(print, "checkPrintLowerable fails");
    Location loc = print.getLoc();
    MLIRContext *context = rewriter.getContext();

    Value messagePtr = constantString(
        rewriter, loc, symbols, "__trace_print_message", print.getMessage());
    Value shapePtr =
        type.getRank() == 0
            ? Value(LLVM::ZeroOp::create(rewriter, loc,
                                         LLVM::LLVMPointerType::get(context)))
            : constantGlobal(rewriter, loc, symbols, "__trace_print_shape",
                             DenseElementsAttr::get(
                                 RankedTensorType::get({type.getRank()},
                                                       rewriter.getI64Type()),
                                 type.getShape()));

    Value copy = bufferization::AllocTensorOp::create(
        rewriter, loc, type, ValueRange{}, /*copy=*/adaptor.getX().front());
    Value buffer = bufferization::ToBufferOp::create(
        rewriter, loc, MemRefType::get(type.getShape(), type.getElementType()),
        copy, /*read_only=*/true);
    Value dataPtr = pointerTo(rewriter, loc, buffer);

    func::FuncOp callee = callback(rewriter, loc, symbols);
    func::CallOp::create(
        rewriter, loc, callee,
        ValueRange{messagePtr,
                   arith::ConstantIntOp::create(rewriter, loc,
                                                rewriter.getI32Type(), *dtype),
                   arith::ConstantIntOp::create(
                       rewriter, loc, rewriter.getI64Type(), type.getRank()),
                   shapePtr, dataPtr});
    // The token becomes nothing.
    rewriter.replaceOpWithMultiple(print, SmallVector<SmallVector<Value>>(1));
    return success();
  }

  SymbolTable &symbols;
};

} // namespace

LogicalResult mlir::trace::checkPrintLowerable(PrintOp print) {
  RankedTensorType type = print.getX().getType();
  if (!abiDTypeCode(type.getElementType()))
    return print.emitOpError("cannot print elements of type ")
           << type.getElementType();
  if (!type.hasStaticShape())
    return print.emitOpError("needs a statically shaped operand to be "
                             "lowered, got ")
           << type;
  return success();
}

void mlir::trace::populatePrintLoweringPatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns,
                                                SymbolTable &symbols) {
  patterns.add<LowerPrint>(converter, patterns.getContext(), symbols);
}
