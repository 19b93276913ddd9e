//===- TraceBase.td - The trace dialect and its shared ODS pieces -*- td -*-===//
//
// The dialect, element/tensor type constraints, enums and the base classes
// every op family derives from.
//
//===----------------------------------------------------------------------===//

#ifndef TRACE_BASE_TD
#define TRACE_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Trace_Dialect : Dialect {
  let name = "trace";
  let cppNamespace = "::mlir::trace";
  let summary = "Traced tensor functions: math, shapes, state and differentiation";
  let description = [{
    The `trace` dialect holds the graphs recorded when a function runs on
    symbolic tensors (TensorFlow's `tf.function`, JAX's `jit`). Values are
    builtin ranked tensors; variables are `!trace.resource` handles and the
    order of stateful ops is made explicit with `!trace.control` tokens.
    Every op infers its result type, verifies shapes and dtypes, and folds
    the obvious cases.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  // trace.custom_vjp and trace.checkpoint on functions
  // (DifferentiationAttributes.cpp).
  let hasOperationAttrVerify = 1;
  // The ops' run-time shape rules (ReifyRankedShapedTypeOpInterface) build
  // affine, arith and tensor ops.
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

// The dtypes of the dialect, each written once: every constraint below is
// built from these, and C++ asks `isTraceElementType` (generated from
// Trace_Element) instead of listing them again.
def Trace_Float : AnyTypeOf<[F16, BF16, F32, F64]>;
def Trace_Int : AnyTypeOf<[I32, I64]>;
def Trace_Element : AnyTypeOf<[Trace_Float, I1, Trace_Int]> {
  let cppFunctionName = "isTraceElementType";
}

def Trace_Tensor : RankedTensorOf<[Trace_Element]>;
def Trace_FloatTensor : RankedTensorOf<[Trace_Float]>;
// Floats and integers, not booleans.
def Trace_NumericTensor : RankedTensorOf<[Trace_Float, Trace_Int]>;
def Trace_IndexTensor : RankedTensorOf<[Trace_Int]>;
def Trace_BoolTensor : RankedTensorOf<[I1]>;

// An i64 attribute read as a signed value (axes may be negative).
def Trace_I64Attr : SignlessIntegerAttrBase<I64, "64-bit integer attribute"> {
  let returnType = "int64_t";
  let convertFromStorage = "$_self.getValue().getSExtValue()";
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

// What a gradient op returns for an argument its result does not depend on
// (TensorFlow's `UnconnectedGradients`, plus an `error` mode).
def Trace_Unconnected : I32EnumAttr<"Unconnected",
    "gradient of an argument the result does not depend on", [
      I32EnumAttrCase<"error", 0>,
      I32EnumAttrCase<"zero", 1>,
      I32EnumAttrCase<"none", 2>]> {
  let cppNamespace = "::mlir::trace";
  // The attribute is the dialect's EnumAttr (#trace.unconnected<zero>).
  let genSpecializedAttr = 0;
}

//===----------------------------------------------------------------------===//
// Traits
//===----------------------------------------------------------------------===//

// An op whose result costs a contraction (a sum over a dimension shared by
// two operands: matmul, convolution): expensive to recompute, so the
// `contractions` rematerialization policy of trace-autodiff saves it and
// recomputes the cheap ops around it.
def Trace_Contraction : NativeOpTrait<"Contraction"> {
  let cppNamespace = "::mlir::OpTrait::trace";
}

// How the tracer (tracec::op, and the op functions tracec-tblgen generates)
// converts operands before it builds the op, as NumPy and JAX promote:
// the operands are cast to their common dtype (bool < i32 < i64 < f16/bf16
// < f32 < f64), or all but the first (select's condition) ...
def Trace_PromotesOperands : NativeOpTrait<"PromotesOperands"> {
  let cppNamespace = "::mlir::OpTrait::trace";
}
def Trace_PromotesOperandsAfterFirst
    : NativeOpTrait<"PromotesOperandsAfterFirst"> {
  let cppNamespace = "::mlir::OpTrait::trace";
}
// ... and integer and bool operands of an op defined on floats become f32.
def Trace_PromotesIntegersToFloat : NativeOpTrait<"PromotesIntegersToFloat"> {
  let cppNamespace = "::mlir::OpTrait::trace";
}

//===----------------------------------------------------------------------===//
// Base op classes
//===----------------------------------------------------------------------===//

// The op computes its `?` result sizes from its operands' at run time with
// the same rule its result type is inferred by (TraceShapes.h).
defvar Trace_ReifiesShapes =
    DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
                              ["reifyResultShapes"]>;

// A reduction without an identity (maximum, minimum, argmax): reducing a dim
// of size 0 is an error, as in NumPy, not -inf or index 0 (TraceTraits.h).
// The op names its reduced dims in `axes` or `axis`.
def Trace_ReducesNonEmpty : NativeOpTrait<"ReducesNonEmpty"> {
  let cppNamespace = "::mlir::OpTrait::trace";
}

// Every tensor an op reads or makes fits in memory (TraceTraits.h).
def Trace_AddressableTensors : NativeOpTrait<"AddressableTensors"> {
  let cppNamespace = "::mlir::OpTrait::trace";
}

class Trace_Op<string mnemonic, list<Trait> traits = []>
    : Op<Trace_Dialect, mnemonic, !listconcat(traits, [Trace_AddressableTensors])> {
  // The name of the tracer's function for the op (tracec::<name>), where
  // NumPy's name differs from the mnemonic; see tracec-tblgen.
  string frontendName = "";
}

#endif // TRACE_BASE_TD
