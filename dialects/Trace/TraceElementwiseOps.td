//===- TraceElementwiseOps.td - Elementwise ops ------------*- tablegen -*-===//
//
// Unary ops, binary ops with NumPy broadcasting, comparisons, select and
// cast. Trace_UnaryOp also declares stop_gradient (TraceGradientOps.td).
//
//===----------------------------------------------------------------------===//

#ifndef TRACE_ELEMENTWISE_OPS_TD
#define TRACE_ELEMENTWISE_OPS_TD

include "Trace/TraceBase.td"
include "Trace/TraceTypes.td"

//===----------------------------------------------------------------------===//
// Elementwise unary
//===----------------------------------------------------------------------===//

class Trace_UnaryOp<string mnemonic, Type type, string what,
                    list<Trait> traits = []>
    : Trace_Op<mnemonic, !listconcat(traits,
        [Pure, Elementwise, SameOperandsAndResultType, InferTypeOpInterface,
         Trace_ReifiesShapes],
        !if(!eq(type, Trace_FloatTensor), [Trace_PromotesIntegersToFloat], []))> {
  let summary = what;
  let arguments = (ins type:$x);
  let results = (outs type:$result);
  let assemblyFormat = "$x attr-dict `:` type($x)";
  let hasFolder = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::reifyResultShapes(::mlir::OpBuilder &b,
        ::mlir::ReifiedRankedShapedTypeDims &shapes) {
      return reifySameShapeResult(b, *this, shapes);
    }
  }];
}

def Trace_NegOp : Trace_UnaryOp<"neg", Trace_NumericTensor, "-x">;
def Trace_AbsOp : Trace_UnaryOp<"abs", Trace_NumericTensor, "|x|">;
def Trace_ExpOp : Trace_UnaryOp<"exp", Trace_FloatTensor, "e^x">;
def Trace_LogOp : Trace_UnaryOp<"log", Trace_FloatTensor, "natural logarithm">;
def Trace_Log1pOp : Trace_UnaryOp<"log1p", Trace_FloatTensor, "log(1 + x)">;
def Trace_SqrtOp : Trace_UnaryOp<"sqrt", Trace_FloatTensor, "square root">;
def Trace_RsqrtOp : Trace_UnaryOp<"rsqrt", Trace_FloatTensor, "1 / sqrt(x)">;
def Trace_TanhOp : Trace_UnaryOp<"tanh", Trace_FloatTensor, "hyperbolic tangent">;
def Trace_SigmoidOp : Trace_UnaryOp<"sigmoid", Trace_FloatTensor, "1 / (1 + e^-x)">;
def Trace_ReluOp : Trace_UnaryOp<"relu", Trace_NumericTensor, "max(x, 0)">;
def Trace_GeluOp : Trace_UnaryOp<"gelu", Trace_FloatTensor,
    "x * Phi(x), the exact (erf) form">;
def Trace_ErfOp : Trace_UnaryOp<"erf", Trace_FloatTensor,
    "the error function (gelu's gradient needs it)">;
def Trace_SinOp : Trace_UnaryOp<"sin", Trace_FloatTensor, "sine">;
def Trace_CosOp : Trace_UnaryOp<"cos", Trace_FloatTensor, "cosine">;
def Trace_AsinOp : Trace_UnaryOp<"asin", Trace_FloatTensor,
    "inverse sine, in [-pi/2, pi/2] (NaN outside [-1, 1])">;
def Trace_AcosOp : Trace_UnaryOp<"acos", Trace_FloatTensor,
    "inverse cosine, in [0, pi] (NaN outside [-1, 1])">;
def Trace_AtanOp : Trace_UnaryOp<"atan", Trace_FloatTensor,
    "inverse tangent, in (-pi/2, pi/2)">;
def Trace_AsinhOp : Trace_UnaryOp<"asinh", Trace_FloatTensor,
    "inverse hyperbolic sine">;
def Trace_AcoshOp : Trace_UnaryOp<"acosh", Trace_FloatTensor,
    "inverse hyperbolic cosine (NaN below 1)">;
def Trace_AtanhOp : Trace_UnaryOp<"atanh", Trace_FloatTensor,
    "inverse hyperbolic tangent (NaN outside [-1, 1], +-inf at +-1)">;
def Trace_SignOp : Trace_UnaryOp<"sign", Trace_NumericTensor, "-1, 0 or 1">;
def Trace_FloorOp : Trace_UnaryOp<"floor", Trace_FloatTensor, "round down">;

//===----------------------------------------------------------------------===//
// Elementwise binary (NumPy broadcasting), comparisons, select, cast
//===----------------------------------------------------------------------===//

// The result shape is the NumPy broadcast of the operand shapes; operand
// element types must match (no implicit promotion). Comparisons return i1.
class Trace_BroadcastingOp<string mnemonic, Type type, Type resultType,
                           string what, bit isComparison>
    : Trace_Op<mnemonic, [Pure, InferTypeOpAdaptor, Trace_ReifiesShapes,
                          Trace_PromotesOperands]> {
  let summary = what;
  let arguments = (ins type:$lhs, type:$rhs);
  let results = (outs resultType:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return inferBroadcastResult(loc, getOperationName(),
          {adaptor.getLhs().getType(), adaptor.getRhs().getType()},
          /*isComparison=*/}] # !if(isComparison, "true", "false") # [{, types);
    }
    ::llvm::LogicalResult $cppClass::reifyResultShapes(::mlir::OpBuilder &b,
        ::mlir::ReifiedRankedShapedTypeDims &shapes) {
      return reifyBroadcastResult(b, *this, shapes);
    }
  }];
}

class Trace_BinaryOp<string mnemonic, string what>
    : Trace_BroadcastingOp<mnemonic, Trace_NumericTensor, Trace_NumericTensor,
                           what, 0>;
class Trace_CompareOp<string mnemonic, string what>
    : Trace_BroadcastingOp<mnemonic, Trace_Tensor, Trace_BoolTensor, what, 1>;

def Trace_AddOp : Trace_BinaryOp<"add", "lhs + rhs">;
def Trace_SubOp : Trace_BinaryOp<"sub", "lhs - rhs">;
def Trace_MulOp : Trace_BinaryOp<"mul", "lhs * rhs">;
def Trace_DivOp : Trace_BinaryOp<"div",
    "lhs / rhs (integers: truncating division; x / 0 is 0 and INT_MIN / -1 "
    "is INT_MIN, as in NumPy, never a trap)">;
def Trace_RemOp : Trace_BinaryOp<"rem",
    "remainder of the truncating division, with the sign of lhs (C's fmod; "
    "integers: x rem 0 is 0, never a trap)"> {
  let description = [{
    `lhs - trunc(lhs / rhs) * rhs`, computed exactly (C's `fmod`, LLVM's
    `frem`, NumPy's `fmod`, TensorFlow's `TruncateMod`). NumPy's `%` and
    `//` (floor semantics) are built from it and `div` in the Python
    package, as JAX builds them from `lax.rem`. A float `x rem 0` is NaN;
    an integer one is 0, as NumPy's, and `INT_MIN rem -1` is 0.
  }];
}
def Trace_PowOp : Trace_BinaryOp<"pow", "lhs ^ rhs">;
def Trace_MaxOp : Trace_BinaryOp<"max", "elementwise maximum (NaN wins)"> {
  let frontendName = "maximum";
}
def Trace_MinOp : Trace_BinaryOp<"min", "elementwise minimum (NaN wins)"> {
  let frontendName = "minimum";
}

def Trace_Atan2Op : Trace_BroadcastingOp<"atan2", Trace_FloatTensor,
    Trace_FloatTensor, "the angle of the point (rhs, lhs): atan(lhs / rhs) "
    "in the right quadrant, in [-pi, pi] (C's atan2(lhs, rhs))", 0>;

def Trace_EqOp : Trace_CompareOp<"eq", "lhs == rhs"> {
  let frontendName = "equal";
}
def Trace_NeOp : Trace_CompareOp<"ne", "lhs != rhs"> {
  let frontendName = "not_equal";
}
def Trace_LtOp : Trace_CompareOp<"lt", "lhs < rhs"> {
  let frontendName = "less";
}
def Trace_LeOp : Trace_CompareOp<"le", "lhs <= rhs"> {
  let frontendName = "less_equal";
}
def Trace_GtOp : Trace_CompareOp<"gt", "lhs > rhs"> {
  let frontendName = "greater";
}
def Trace_GeOp : Trace_CompareOp<"ge", "lhs >= rhs"> {
  let frontendName = "greater_equal";
}

def Trace_SelectOp : Trace_Op<"select", [Pure, InferTypeOpAdaptor,
                                          Trace_ReifiesShapes,
                                          Trace_PromotesOperandsAfterFirst]> {
  let summary = "cond ? on_true : on_false, broadcasting all three";
  let arguments = (ins Trace_BoolTensor:$cond, Trace_Tensor:$on_true,
                       Trace_Tensor:$on_false);
  let results = (outs Trace_Tensor:$result);
  let assemblyFormat = [{
    $cond `,` $on_true `,` $on_false attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
}

// No `Elementwise` trait: its generic shape check would run before, and
// hide, the verifier's "shape must be preserved" message.
def Trace_CastOp : Trace_Op<"cast", [Pure, Trace_ReifiesShapes]> {
  let summary = "convert the element type (float<->int truncates toward zero)";
  let description = [{
    `%y = trace.cast %x : tensor<4xf32> to tensor<4xi32>`; bool casts give
    0/1, casts to bool test for non-zero.
  }];
  let arguments = (ins Trace_Tensor:$x);
  let results = (outs Trace_Tensor:$result);
  let assemblyFormat = "$x attr-dict `:` type($x) `to` type($result)";
  let builders = [
    OpBuilder<(ins "::mlir::Value":$x, "::mlir::Type":$elementType)>
  ];
  let hasFolder = 1;
  let hasVerifier = 1;
}

#endif // TRACE_ELEMENTWISE_OPS_TD
