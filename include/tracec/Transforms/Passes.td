//===- Passes.td - tracec transformations --------------------*- tablegen -*-===//

#ifndef TRACEC_TRANSFORMS_PASSES
#define TRACEC_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def TraceReadOnlyInputs : Pass<"trace-readonly-inputs", "::mlir::ModuleOp"> {
  let summary = "Keep bufferization from writing into a public function's inputs";
  let description = [{
    Marks every tensor argument of a public function
    `bufferization.writable = false`. The caller owns those buffers (the
    destination-passing convention), so an in-place update must copy first
    instead of clobbering the caller's data. Private functions are left to
    the bufferization analysis, which sees all their call sites.
  }];
}

#endif // TRACEC_TRANSFORMS_PASSES
