//===- TraceOpsDoc.td - The root of the trace dialect's op reference ------===//
//
// mlir-tblgen -gen-op-doc documents every op it reads: this file reads the
// dialect's op definitions, so that docs/reference/TraceOps.md covers all
// of them in one page (docs/CMakeLists.txt). TraceOps.td includes the
// files of the op families; a new family's file is included there.
//
//===----------------------------------------------------------------------===//

include "Trace/TraceOps.td"
