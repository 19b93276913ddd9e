//===- TraceOpsDoc.td - The root of the trace dialect's op reference ------===//
//
// mlir-tblgen -gen-op-doc documents every op it reads: this file reads the
// dialect's op definitions, so that docs/reference/TraceOps.md covers all
// of them in one page (docs/CMakeLists.txt). A new .td file of ops is
// included here too.
//
//===----------------------------------------------------------------------===//

include "Trace/TraceOps.td"
include "Trace/TraceAdjointOps.td"
