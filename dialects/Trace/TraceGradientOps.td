//===- TraceGradientOps.td - Differentiation ops -----------*- tablegen -*-===//
//
// stop_gradient; grad, value_and_grad and vjp (reverse mode) and jvp
// (forward mode), which reference the function to differentiate by symbol
// and are replaced by trace-autodiff.
//
//===----------------------------------------------------------------------===//

#ifndef TRACE_GRADIENT_OPS_TD
#define TRACE_GRADIENT_OPS_TD

include "Trace/TraceBase.td"
include "Trace/TraceTypes.td"
include "Trace/TraceElementwiseOps.td"
include "Trace/GradientRequestOpInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"

def Trace_UnconnectedAttr : EnumAttr<Trace_Dialect, Trace_Unconnected,
                                     "unconnected"> {
  // #trace.unconnected<zero>; the default "$value" would neither parse nor
  // print in that form.
  let assemblyFormat = "`<` $value `>`";
}

def Trace_StopGradientOp : Trace_UnaryOp<"stop_gradient", Trace_Tensor,
    "the value, with no gradient flowing through it">;

// Shared by the gradient ops: the function to differentiate, the arguments
// to differentiate with respect to, and what unconnected arguments get.
// Pure on tensors; on variables (`!trace.resource` arguments) it may read
// and write them, as its callee does (trace-auto-control-deps looks into
// the callee). Such an op is ordered like any stateful op: it takes
// `after(...)` tokens (its last operands) and yields a `!trace.control`
// token as its last result, which stands for what the callee does to state.
class Trace_GradientOp<string mnemonic, string what, list<Trait> traits = []>
    : Trace_Op<mnemonic, !listconcat(traits,
        [AttrSizedOperandSegments,
         DeclareOpInterfaceMethods<SymbolUserOpInterface>,
         DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
         Trace_GradientRequestOpInterface])> {
  let summary = what;
  // GradientRequestOpInterface: defined by each op (extraClassDefinition).
  let extraClassDeclaration = [{
    ::llvm::SmallVector<::mlir::Value>
    buildSeedCotangents(::mlir::OpBuilder &builder,
                        ::mlir::TypeRange calleeResults);
    ::llvm::SmallVector<::mlir::Value>
    getResultReplacements(::mlir::ValueRange values,
                          ::mlir::ValueRange gradients);
  }];
  // Checks what needs no callee (`unconnected`); the rest is in
  // verifySymbolUses.
  let hasVerifier = 1;
}

// grad and value_and_grad differentiate a scalar loss: its cotangent is 1.
defvar Trace_ScalarLossSeed = [{
  ::llvm::SmallVector<::mlir::Value>
  $cppClass::buildSeedCotangents(::mlir::OpBuilder &builder,
                                 ::mlir::TypeRange calleeResults) {
    auto loss = ::llvm::cast<::mlir::RankedTensorType>(calleeResults.front());
    auto one = ::mlir::DenseElementsAttr::get(
        loss, builder.getFloatAttr(loss.getElementType(), 1.0));
    return {ConstantOp::create(builder, getLoc(), one).getResult()};
  }
}];

def Trace_GradOp : Trace_GradientOp<"grad",
    "gradient of a scalar function with respect to `wrt` arguments",
    [InferTypeOpAdaptorWithIsCompatible]> {
  let description = [{
    ```mlir
    %g = trace.grad @loss(%w, %x) {wrt = [0]}
        : (tensor<784x10xf32>, tensor<32x784xf32>) -> tensor<784x10xf32>
    ```
    One result per `wrt` index, of that argument's type (for a
    `!trace.resource`, of the type of the value it holds); then, when the
    op is ordered (its callee touches state), a `!trace.control` token.
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$args,
      Variadic<Trace_ControlType>:$after, DenseI64ArrayAttr:$wrt,
      DefaultValuedAttr<Trace_UnconnectedAttr,
                        "::mlir::trace::Unconnected::zero">:$unconnected);
  // Float tensors: checked by type inference, which names the argument (and
  // leaves the token optional: isCompatibleReturnTypes).
  let results = (outs Variadic<AnyTypeOf<[Trace_Tensor, Trace_ControlType]>>:$grads);
  let assemblyFormat = "$callee `(` $args `)` (`after` `(` $after^ `)`)? "
                       "attr-dict `:` functional-type($args, results)";
  let extraClassDefinition = Trace_ScalarLossSeed # [{
    ::llvm::SmallVector<::mlir::Value>
    $cppClass::getResultReplacements(::mlir::ValueRange,
                                     ::mlir::ValueRange gradients) {
      return ::llvm::to_vector(gradients);
    }
  }];
}

def Trace_ValueAndGradOp : Trace_GradientOp<"value_and_grad",
    "the value of a scalar function and its gradient"> {
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$args,
      Variadic<Trace_ControlType>:$after, DenseI64ArrayAttr:$wrt,
      DefaultValuedAttr<Trace_UnconnectedAttr,
                        "::mlir::trace::Unconnected::zero">:$unconnected);
  // The gradients are float tensors: the verifier checks them against the
  // `wrt` arguments and names the argument that is not differentiable.
  // Then, when the op is ordered, a `!trace.control` token.
  let results = (outs Trace_FloatTensor:$value,
      Variadic<AnyTypeOf<[Trace_Tensor, Trace_ControlType]>>:$grads);
  let assemblyFormat = "$callee `(` $args `)` (`after` `(` $after^ `)`)? "
                       "attr-dict `:` functional-type($args, results)";
  let builders = [
    OpBuilder<(ins "::mlir::func::FuncOp":$callee, "::mlir::ValueRange":$args,
                   "::llvm::ArrayRef<int64_t>":$wrt)>
  ];
  // The loss, then the gradients.
  let extraClassDefinition = Trace_ScalarLossSeed # [{
    ::llvm::SmallVector<::mlir::Value>
    $cppClass::getResultReplacements(::mlir::ValueRange values,
                                     ::mlir::ValueRange gradients) {
      ::llvm::SmallVector<::mlir::Value> replacements = {values.front()};
      ::llvm::append_range(replacements, gradients);
      return replacements;
    }
  }];
}

def Trace_VjpOp : Trace_GradientOp<"vjp",
    "vector-Jacobian product: results and the cotangents of `wrt` arguments"> {
  let description = [{
    ```mlir
    %y, %gx = trace.vjp @f(%x) cotangents(%dy) {wrt = [0]}
        : (tensor<3xf32>), (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
    ```
    One cotangent per result of the callee; the op returns the callee's
    results followed by one gradient per `wrt` index (and, when it is
    ordered, a `!trace.control` token: `after(%c)` follows the cotangents).
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$args,
      Variadic<Trace_FloatTensor>:$cotangents,
      Variadic<Trace_ControlType>:$after, DenseI64ArrayAttr:$wrt,
      DefaultValuedAttr<Trace_UnconnectedAttr,
                        "::mlir::trace::Unconnected::zero">:$unconnected);
  let results = (outs Variadic<AnyType>:$results);
  // `$callee ( $args ) cotangents ( $cotangents ) (after ( $after^ ))?
  //  attr-dict : ( type($args) ), ( type($cotangents) ) -> ( type($results) )`,
  // written by hand because the declarative form cannot parse an empty `()`
  // list.
  let hasCustomAssemblyFormat = 1;
  let builders = [
    OpBuilder<(ins "::mlir::func::FuncOp":$callee, "::mlir::ValueRange":$args,
                   "::mlir::ValueRange":$cotangents,
                   "::llvm::ArrayRef<int64_t>":$wrt)>
  ];
  // Seeded with its cotangent operands; yields the callee's results, then
  // the cotangents of the `wrt` arguments.
  let extraClassDefinition = [{
    ::llvm::SmallVector<::mlir::Value>
    $cppClass::buildSeedCotangents(::mlir::OpBuilder &, ::mlir::TypeRange) {
      return ::llvm::to_vector(getCotangents());
    }
    ::llvm::SmallVector<::mlir::Value>
    $cppClass::getResultReplacements(::mlir::ValueRange values,
                                     ::mlir::ValueRange gradients) {
      ::llvm::SmallVector<::mlir::Value> replacements(values);
      ::llvm::append_range(replacements, gradients);
      return replacements;
    }
  }];
}

//===----------------------------------------------------------------------===//
// Forward-mode differentiation
//===----------------------------------------------------------------------===//

def Trace_JvpOp : Trace_Op<"jvp", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    Trace_GradientRequestOpInterface]> {
  let summary = "Jacobian-vector product: results and their tangents";
  let description = [{
    JAX's `jvp`: runs `callee` on `args` and pushes the `tangents` of the
    `wrt` arguments forward (the other arguments' tangents are zero).
    ```mlir
    %y, %ty = trace.jvp @f(%x, %w) tangents(%tx) {wrt = array<i64: 0>}
        : (tensor<3xf32>, tensor<3xf32>), (tensor<3xf32>)
          -> (tensor<3xf32>, tensor<3xf32>)
    ```
    One tangent operand per `wrt` index, of that argument's type (a
    floating-point tensor; forward mode does not differentiate with respect
    to variables). The op returns the callee's results, then one tangent per
    floating-point tensor result of the callee, of its type; then, when the
    op is ordered (its callee touches state), a `!trace.control` token, and
    `after(...)` tokens follow the tangents, as for the reverse-mode ops.
    `trace-autodiff` rewrites it into a call of the generated
    `__jvp_<callee>`.
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$args,
      Variadic<Trace_FloatTensor>:$tangents,
      Variadic<Trace_ControlType>:$after, DenseI64ArrayAttr:$wrt);
  let results = (outs Variadic<AnyType>:$results);
  // `$callee ( $args ) tangents ( $tangents ) (after ( $after^ ))? attr-dict :
  //  ( type($args) ), ( type($tangents) ) -> ( type($results) )`, as vjp's.
  let hasCustomAssemblyFormat = 1;
  // wrt and the tangents' types; the callee in verifySymbolUses.
  let hasVerifier = 1;
  let builders = [
    OpBuilder<(ins "::mlir::func::FuncOp":$callee, "::mlir::ValueRange":$args,
                   "::mlir::ValueRange":$tangents,
                   "::llvm::ArrayRef<int64_t>":$wrt)>
  ];
  // GradientRequestOpInterface in forward mode: seeded with the tangents;
  // yields the callee's results, then the results' tangents. Every result
  // is connected (an argument the results do not depend on simply gives
  // zero tangents).
  let extraClassDeclaration = [{
    bool isForwardMode() { return true; }
    ::mlir::trace::Unconnected getUnconnected() {
      return ::mlir::trace::Unconnected::zero;
    }
    ::llvm::SmallVector<::mlir::Value>
    buildSeedCotangents(::mlir::OpBuilder &, ::mlir::TypeRange) {
      return ::llvm::to_vector(getTangents());
    }
    ::llvm::SmallVector<::mlir::Value>
    getResultReplacements(::mlir::ValueRange values,
                          ::mlir::ValueRange tangents) {
      ::llvm::SmallVector<::mlir::Value> replacements(values);
      ::llvm::append_range(replacements, tangents);
      return replacements;
    }
  }];
}

#endif // TRACE_GRADIENT_OPS_TD
