//===- TraceConvPoolOps.td - Convolution and pooling -------*- tablegen -*-===//
//
// conv2d, max_pool2d and avg_pool2d (NHWC activations, HWCF filters), their
// backprop ops (TensorFlow's Conv2DBackpropInput/Filter, MaxPoolGrad,
// AvgPoolGrad) and max_pool2d_select, max_pool2d_grad's transpose (the
// tangent of max_pool2d; with it the pooling ops are closed under
// differentiation).
//
//===----------------------------------------------------------------------===//

#ifndef TRACE_CONV_POOL_OPS_TD
#define TRACE_CONV_POOL_OPS_TD

include "Trace/TraceBase.td"
include "Trace/TraceTypes.td"

// `padding` is explicit: [top, bottom, left, right].
def Trace_Conv2DOp : Trace_Op<"conv2d",
                              [Pure, InferTypeOpAdaptor, Trace_ReifiesShapes,
                               Trace_Contraction, Trace_PromotesOperands]> {
  let summary = "2-D convolution, NHWC input and HWCF filter";
  let arguments = (ins Trace_FloatTensor:$input, Trace_FloatTensor:$filter,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations);
  let results = (outs Trace_FloatTensor:$result);
  let assemblyFormat =
      "$input `,` $filter attr-dict `:` functional-type(operands, results)";
}

class Trace_Pool2DOp<string mnemonic, string what>
    : Trace_Op<mnemonic, [Pure, InferTypeOpAdaptor, Trace_ReifiesShapes]> {
  let summary = what;
  let arguments = (ins Trace_FloatTensor:$input, DenseI64ArrayAttr:$window,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding);
  let results = (outs Trace_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return inferPoolResult(loc, getOperationName(),
          adaptor.getInput().getType(), adaptor.getWindow(),
          adaptor.getStrides(), adaptor.getPadding(), types);
    }
    ::llvm::LogicalResult $cppClass::reifyResultShapes(::mlir::OpBuilder &b,
        ::mlir::ReifiedRankedShapedTypeDims &shapes) {
      return reifiedAs(b, getResult(),
          reifyWindowResult(b, getLoc(), getInput(),
              ::mlir::tensor::getMixedSize(b, getLoc(), getInput(), 3),
              ::mlir::getAsIndexOpFoldResult(b.getContext(), getWindow()),
              getStrides(), getPadding(), {1, 1}),
          shapes);
    }
  }];
}

def Trace_MaxPool2DOp : Trace_Pool2DOp<"max_pool2d",
    "max over NHWC windows (padding never wins)">;
def Trace_AvgPool2DOp : Trace_Pool2DOp<"avg_pool2d",
    "mean over NHWC windows, counting only non-padding elements">;

//===----------------------------------------------------------------------===//
// Neural network backprop ops (TensorFlow's Conv2DBackpropInput/Filter,
// MaxPoolGrad, AvgPoolGrad): the gradients of the ops above, which take the
// forward op's attributes and the static shape of the operand they return
// the cotangent of. conv2d_backprop_input and avg_pool2d_grad take that
// shape either as `input_shape` or, where it has `?` dims, from a `like`
// operand (the forward input, whose run-time shape the result takes).
//===----------------------------------------------------------------------===//

// d input of conv2d: dy (the conv2d output's cotangent) scattered back
// through the filter. `dy` must have the conv2d output shape of
// `input_shape` with the filter.
def Trace_Conv2DBackpropInputOp : Trace_Op<"conv2d_backprop_input",
                                           [Pure, InferTypeOpAdaptor,
                                            Trace_ReifiesShapes,
                                            Trace_Contraction]> {
  let summary = "gradient of conv2d with respect to its input";
  let arguments = (ins Trace_FloatTensor:$filter, Trace_FloatTensor:$dy,
      Optional<Trace_Tensor>:$like,
      OptionalAttr<DenseI64ArrayAttr>:$input_shape,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations);
  let results = (outs Trace_FloatTensor:$result);
  let assemblyFormat = [{
    $filter `,` $dy (`like` $like^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let extraClassDeclaration = [{
    /// The shape each operand must have, as far as the result type, the
    /// attributes and the other operands fix it (`?` where they do not):
    /// the shape rule run backwards, which makes `?` operand dims static.
    ::llvm::SmallVector<::llvm::SmallVector<int64_t>> getKnownOperandShapes();
  }];
}

// d filter of conv2d: the correlation of the input with dy, summed over the
// batch and the output positions.
def Trace_Conv2DBackpropFilterOp : Trace_Op<"conv2d_backprop_filter",
                                            [Pure, InferTypeOpAdaptor,
                                             Trace_ReifiesShapes,
                                             Trace_Contraction]> {
  let summary = "gradient of conv2d with respect to its filter";
  let arguments = (ins Trace_FloatTensor:$input, Trace_FloatTensor:$dy,
      DenseI64ArrayAttr:$filter_shape,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations);
  let results = (outs Trace_FloatTensor:$result);
  let assemblyFormat =
      "$input `,` $dy attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    /// The shape each operand must have, as far as the result type, the
    /// attributes and the other operands fix it (`?` where they do not):
    /// the shape rule run backwards, which makes `?` operand dims static.
    ::llvm::SmallVector<::llvm::SmallVector<int64_t>> getKnownOperandShapes();
  }];
}

// d input of max_pool2d: each window's dy goes to the window's maximum
// element, the FIRST one in row-major window order on ties (a NaN counts as
// the largest value); padding never receives.
def Trace_MaxPool2DGradOp : Trace_Op<"max_pool2d_grad",
                                     [Pure, InferTypeOpAdaptor,
                                      Trace_ReifiesShapes]> {
  let summary = "gradient of max_pool2d with respect to its input";
  let arguments = (ins Trace_FloatTensor:$input, Trace_FloatTensor:$dy,
      DenseI64ArrayAttr:$window,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding);
  let results = (outs Trace_FloatTensor:$result);
  let assemblyFormat =
      "$input `,` $dy attr-dict `:` functional-type(operands, results)";
  let extraClassDeclaration = [{
    /// The shape each operand must have, as far as the result type, the
    /// attributes and the other operands fix it (`?` where they do not):
    /// the shape rule run backwards, which makes `?` operand dims static.
    ::llvm::SmallVector<::llvm::SmallVector<int64_t>> getKnownOperandShapes();
  }];
}

// d input of avg_pool2d: each window's dy divided by the window's number of
// non-padding elements, spread over those elements.
def Trace_AvgPool2DGradOp : Trace_Op<"avg_pool2d_grad",
                                     [Pure, InferTypeOpAdaptor,
                                      Trace_ReifiesShapes]> {
  let summary = "gradient of avg_pool2d with respect to its input";
  let arguments = (ins Trace_FloatTensor:$dy, Optional<Trace_Tensor>:$like,
      OptionalAttr<DenseI64ArrayAttr>:$input_shape, DenseI64ArrayAttr:$window,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding);
  let results = (outs Trace_FloatTensor:$result);
  let assemblyFormat = [{
    $dy (`like` $like^)? attr-dict `:` type($dy) (`,` type($like)^)? `->`
    type($result)
  }];
  let extraClassDeclaration = [{
    /// The shape each operand must have, as far as the result type, the
    /// attributes and the other operands fix it (`?` where they do not):
    /// the shape rule run backwards, which makes `?` operand dims static.
    ::llvm::SmallVector<::llvm::SmallVector<int64_t>> getKnownOperandShapes();
  }];
}

// For every max_pool2d window of `input`, the value of `t` at the window's
// maximum of `input` (the FIRST one in row-major window order on ties, a NaN
// counting as the largest value; padding is never picked), i.e.
// max_pool2d_grad transposed: <max_pool2d_grad(x, dy), t> ==
// <dy, max_pool2d_select(x, t)>.
def Trace_MaxPool2DSelectOp : Trace_Op<"max_pool2d_select",
                                       [Pure, InferTypeOpAdaptor,
                                        Trace_ReifiesShapes]> {
  let summary = "`t` at each max_pool2d window's argmax of `input`";
  let description = [{
    `t` has `input`'s shape; the result has max_pool2d's shape. With
    `t = input` it is max_pool2d itself.
    ```mlir
    %s = trace.max_pool2d_select %x, %t {window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32>
    ```
    Tangent (forward mode): t_result = max_pool2d_select(input, t_t) (the
    argmax is piecewise constant in `input`); it is also max_pool2d's
    tangent: t_y = max_pool2d_select(x, t_x).
  }];
  let arguments = (ins Trace_FloatTensor:$input, Trace_FloatTensor:$t,
      DenseI64ArrayAttr:$window,
      DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
      DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding);
  let results = (outs Trace_FloatTensor:$result);
  let assemblyFormat =
      "$input `,` $t attr-dict `:` functional-type(operands, results)";
}

#endif // TRACE_CONV_POOL_OPS_TD
