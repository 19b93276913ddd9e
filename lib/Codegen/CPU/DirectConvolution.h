//===- DirectConvolution.h - conv_2d_nhwc_hwcf as register tiles ----------===//
//
// A convolution of static shape computed where it stands: no im2col matrix,
// no packed copy of the input. See DirectConvolution.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_CODEGEN_CPU_DIRECTCONVOLUTION_H
#define TRACEC_CODEGEN_CPU_DIRECTCONVOLUTION_H

#include "tracec/Codegen/CPU/CpuTarget.h"
#include "tracec/Dialect/Trace/IR/TraceOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace tracec {

/// Replaces `conv` (f32 or f64, static shapes, on tensors) by loops whose
/// step is one outer product of a register tile: R output pixels of a row
/// times n0 output channels, accumulated over the window taps and input
/// channels in vector registers and stored once. An input that is a
/// tensor.pad of zeros (or a unit-stride slice of one) is read through:
/// its padding is never copied. Fails (changing nothing) on other
/// convolutions.
mlir::LogicalResult
rewriteAsDirectConvolution(mlir::RewriterBase &rewriter,
                           mlir::linalg::Conv2DNhwcHwcfOp conv,
                           const CpuVectorInfo &cpu);

/// Replaces `op` (f32 or f64, static shapes) by loops whose step is one
/// outer product of a register tile of the filter's gradient: R rows (kw, c)
/// of a tap row kh times n0 output channels, reduced over blocks of output
/// pixels in vector registers, in a few tasks whose partial gradients are
/// summed; x is read in place, its padding never copied. Fails (changing
/// nothing) on other ops.
mlir::LogicalResult
rewriteFilterGradientDirectly(mlir::RewriterBase &rewriter,
                              mlir::trace::Conv2DBackpropFilterOp op,
                              const CpuVectorInfo &cpu);

} // namespace tracec

#endif // TRACEC_CODEGEN_CPU_DIRECTCONVOLUTION_H
