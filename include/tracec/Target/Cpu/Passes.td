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

def TraceParallelLoops : Pass<"trace-parallel-loops"> {
  let summary = "Keep one parallel loop per large loop nest, for OpenMP; "
                "make the rest serial";
  let description = [{
    Decides which loops run on several threads. For every outermost
    scf.parallel without results (linalg ops lowered by
    convert-linalg-to-parallel-loops, tiles from scf.forall), the work of
    its loop nest is estimated as the number of operations it executes
    (trip counts times the operations of each body; a dynamic trip count
    counts as large). A nest with at least `min-work` of them keeps its
    outermost loop of more than one iteration as a one-dimensional
    scf.parallel, which convert-scf-to-openmp turns into one
    omp.parallel/omp.wsloop; every other parallel loop of it, and every
    loop of a smaller nest, becomes scf.for. So small ops stay serial (no
    fork/join), each parallel region forks once, and the inner loops keep
    the serial code (and vectorization) they had. Only parallel
    dimensions are split, so results do not depend on the thread count.
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t", /*default=*/"32768",
           "Operations a loop nest must execute to run in parallel">,
  ];
  let dependentDialects = ["scf::SCFDialect"];
}

#endif // TRACEC_TARGET_CPU_PASSES
