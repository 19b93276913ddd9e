//===- Passes.td - tracec CPU code generation passes -*- tablegen -*-===//

#ifndef TRACEC_TARGET_CPU_PASSES
#define TRACEC_TARGET_CPU_PASSES

include "mlir/Pass/PassBase.td"

def TraceContractionLoopOrder : Pass<"trace-contraction-loop-order"> {
  let summary = "Order a contraction's loops so the innermost one is "
                "contiguous (m, k, n for a matmul)";
  let description = [{
    linalg.matmul and its kin lower to loops in (m, n, k) order, whose inner
    reduction walks a column of the right operand. Moving the reduction
    loops outside the last parallel loop gives (m, k, n): the inner loop
    reads a row of the right operand and updates a row of the result, both
    contiguous, which LLVM vectorizes. Contractions (matmul, batch_matmul,
    and generics shaped like them) are generalized and interchanged.
  }];
}

#endif // TRACEC_TARGET_CPU_PASSES
