//===- TraceReductionOps.td - Reductions -------------------*- tablegen -*-===//
//
// reduce_{sum,mean,max,min,prod,logsumexp} over `axes`, argmax, softmax and
// log_softmax (with direct, numerically stable gradients).
//
//===----------------------------------------------------------------------===//

#ifndef TRACE_REDUCTION_OPS_TD
#define TRACE_REDUCTION_OPS_TD

include "Trace/TraceBase.td"
include "Trace/TraceTypes.td"

// `axes` may be negative (counted from the end) and must be unique; with
// `keepdims` the reduced dims stay as size 1.
class Trace_ReductionOp<string mnemonic, Type type, string what,
                        list<Trait> traits = []>
    : Trace_Op<mnemonic, !listconcat([Pure, InferTypeOpAdaptor,
                                      Trace_ReifiesShapes], traits,
        !if(!eq(type, Trace_FloatTensor), [Trace_PromotesIntegersToFloat], []))> {
  let summary = what;
  let arguments = (ins type:$x, DenseI64ArrayAttr:$axes, UnitAttr:$keepdims);
  let results = (outs type:$result);
  let assemblyFormat = "$x attr-dict `:` type($x) `->` type($result)";
  let hasFolder = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return inferReductionResult(loc, getOperationName(),
          adaptor.getX().getType(), adaptor.getAxes(), adaptor.getKeepdims(),
          types);
    }
    ::llvm::LogicalResult $cppClass::reifyResultShapes(::mlir::OpBuilder &b,
        ::mlir::ReifiedRankedShapedTypeDims &shapes) {
      return reifyReductionResult(b, *this, getX(), getAxes(), getKeepdims(),
                                  shapes);
    }
  }];
}

def Trace_ReduceSumOp : Trace_ReductionOp<"reduce_sum", Trace_NumericTensor, "sum">;
def Trace_ReduceMeanOp : Trace_ReductionOp<"reduce_mean", Trace_FloatTensor, "mean">;
def Trace_ReduceMaxOp : Trace_ReductionOp<"reduce_max", Trace_NumericTensor,
    "maximum", [Trace_ReducesNonEmpty]>;
def Trace_ReduceMinOp : Trace_ReductionOp<"reduce_min", Trace_NumericTensor,
    "minimum", [Trace_ReducesNonEmpty]>;
def Trace_ReduceProdOp : Trace_ReductionOp<"reduce_prod", Trace_NumericTensor, "product">;
def Trace_ReduceLogSumExpOp : Trace_ReductionOp<"reduce_logsumexp",
    Trace_FloatTensor, "log(sum(exp(x))), with the maximum subtracted first"> {
  let description = [{
    Lowered as `m + log(sum(exp(x - m)))` with `m` the maximum over `axes`
    (0 where it is infinite), so large elements do not overflow; all
    elements -inf give -inf.
  }];
  let hasFolder = 0;
}

def Trace_ArgmaxOp : Trace_Op<"argmax", [Pure, InferTypeOpAdaptor,
                                          Trace_ReifiesShapes,
                                          Trace_ReducesNonEmpty]> {
  let summary = "index (i64) of the first maximum along `axis`";
  let arguments = (ins Trace_NumericTensor:$x, Trace_I64Attr:$axis);
  let results = (outs RankedTensorOf<[I64]>:$result);
  let assemblyFormat = "$x attr-dict `:` type($x) `->` type($result)";
}

class Trace_SoftmaxOp<string mnemonic, string what>
    : Trace_Op<mnemonic, [Pure, SameOperandsAndResultType, InferTypeOpInterface,
                          Trace_ReifiesShapes]> {
  let summary = what;
  let description = [{
    Normalizes along `axis` (default -1). Lowered and differentiated in the
    numerically stable form (the maximum is subtracted first).
  }];
  let arguments = (ins Trace_FloatTensor:$x,
                       DefaultValuedAttr<Trace_I64Attr, "-1">:$axis);
  let results = (outs Trace_FloatTensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::reifyResultShapes(::mlir::OpBuilder &b,
        ::mlir::ReifiedRankedShapedTypeDims &shapes) {
      return reifySameShapeResult(b, *this, shapes);
    }
  }];
}

def Trace_SoftmaxOp : Trace_SoftmaxOp<"softmax", "exp(x) / sum(exp(x))">;
def Trace_LogSoftmaxOp : Trace_SoftmaxOp<"log_softmax", "x - log(sum(exp(x)))">;

#endif // TRACE_REDUCTION_OPS_TD
