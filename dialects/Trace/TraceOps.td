//===- TraceOps.td - The ops of the trace dialect ------------*- tablegen -*-===//
//
// The ops, one file per family: sources, elementwise (unary, binary with
// NumPy broadcasting, comparisons, select, cast), linear algebra,
// reductions, shape ops (with scatter_add, gather's adjoint), convolution
// and pooling (with their backprop ops and max_pool2d_select),
// differentiation, batching (vmap), and state and ordering. This file includes them all, so
// that the generated TraceOps.h.inc/.cpp.inc hold every op. Shape rules,
// folders and canonicalizations are implemented in lib/Dialect/Trace/IR, one
// file per family.
//
//===----------------------------------------------------------------------===//

#ifndef TRACE_OPS_TD
#define TRACE_OPS_TD

include "Trace/TraceSourceOps.td"
include "Trace/TraceElementwiseOps.td"
include "Trace/TraceLinearAlgebraOps.td"
include "Trace/TraceReductionOps.td"
include "Trace/TraceShapeOps.td"
include "Trace/TraceConvPoolOps.td"
include "Trace/TraceGradientOps.td"
include "Trace/TraceBatchingOps.td"
include "Trace/TraceStateOps.td"
include "Trace/TraceCollectiveOps.td"

#endif // TRACE_OPS_TD
