// The tracer's op functions generated from ODS: parameters in ODS order,
// defaults from DefaultValuedAttr, optional arrays default to empty, NumPy
// names through `frontendName`; ops the tracer cannot build from tensors
// alone get none.
// RUN: tracec-tblgen -gen-frontend-op-decls -I %tracec_src_root/dialects -I %mlir_include %s | FileCheck %s --check-prefix=DECL
// RUN: tracec-tblgen -gen-frontend-op-defs -I %tracec_src_root/dialects -I %mlir_include %s | FileCheck %s --check-prefix=DEF
// RUN: tracec-tblgen -gen-frontend-op-decls -I %tracec_src_root/dialects -I %mlir_include %s | FileCheck %s --check-prefix=NONE
// RUN: tracec-tblgen -gen-frontend-op-signatures -I %tracec_src_root/dialects -I %mlir_include %s | FileCheck %s --check-prefix=SIG

include "Trace/TraceBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

// Functions come in name order.

// A default before a required attribute cannot be a C++ default.
def Test_JoinOp : Trace_Op<"join", [InferTypeOpAdaptor]> {
  let summary = "join";
  let arguments = (ins Variadic<Trace_Tensor>:$inputs,
                       DefaultValuedAttr<Trace_I64Attr, "0">:$first,
                       Trace_I64Attr:$axis);
  let results = (outs Trace_Tensor:$result);
  let frontendName = "joined";
}
// DECL: Value joined(::llvm::ArrayRef<Value> inputs, int64_t first, int64_t axis);
// DEF: operands.insert(operands.end(), inputs.begin(), inputs.end());
// SIG: {"trace.join", 0, true, {"axis"}},

def Test_WindowOp : Trace_Op<"window", [InferTypeOpAdaptor]> {
  let summary = "a windowed op";
  let arguments = (ins Trace_Tensor:$input, Optional<Trace_Tensor>:$like,
                       DenseI64ArrayAttr:$window,
                       OptionalAttr<DenseI64ArrayAttr>:$limit,
                       DefaultValuedAttr<F64Attr, "0.5">:$scale,
                       UnitAttr:$flag);
  let results = (outs Trace_Tensor:$result);
}
// DECL: /// `trace.window`: a windowed op
// DECL-NEXT: Value window(const Value &input, ::llvm::ArrayRef<int64_t> window, ::llvm::ArrayRef<int64_t> limit = {}, double scale = 0.5, bool flag = false);
// DEF: Value tracec::window(const Value &input, ::llvm::ArrayRef<int64_t> window, ::llvm::ArrayRef<int64_t> limit, double scale, bool flag) {
// DEF: operands.push_back(input);
// DEF-NEXT: std::vector<OpAttribute> attributes;
// DEF-NEXT: attributes.emplace_back("window", window);
// DEF-NEXT: if (!limit.empty())
// DEF-NEXT: attributes.emplace_back("limit", limit);
// DEF-NEXT: attributes.emplace_back("scale", scale);
// DEF-NEXT: attributes.emplace_back("flag", flag);
// DEF-NEXT: return op("trace.window", operands, attributes);
// SIG: {"trace.window", 1, false, {"window"}},

// No function: the result type is not inferred, there is a region, an
// attribute is not a plain value, or the result is not a tensor.
def Test_ReshapeOp : Trace_Op<"typed"> {
  let arguments = (ins Trace_Tensor:$x);
  let results = (outs Trace_Tensor:$result);
}
def Test_RegionOp : Trace_Op<"region", [InferTypeOpAdaptor]> {
  let arguments = (ins Trace_Tensor:$x);
  let results = (outs Trace_Tensor:$result);
  let regions = (region AnyRegion:$body);
}
def Test_TypeAttrOp : Trace_Op<"type_attr", [InferTypeOpAdaptor]> {
  let arguments = (ins Trace_Tensor:$x, TypeAttr:$type);
  let results = (outs Trace_Tensor:$result);
}
def Test_IndexOp : Trace_Op<"index", [InferTypeOpAdaptor]> {
  let arguments = (ins Trace_Tensor:$x);
  let results = (outs Index:$result);
}
// NONE-NOT: typed(
// NONE-NOT: region(
// NONE-NOT: type_attr(
// NONE-NOT: index(
