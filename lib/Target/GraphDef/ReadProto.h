//===- ReadProto.h - Parsing a GraphDef from bytes -------------------------===//

#ifndef TRACEC_LIB_IMPORT_GRAPHDEF_READPROTO_H
#define TRACEC_LIB_IMPORT_GRAPHDEF_READPROTO_H

#include "tracec/tensorflow/graph.pb.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

namespace tracec::graphdef {

/// Parses `bytes` (text format if `isText`) into `graph`; a parse error is
/// emitted naming `sourceName` (and, for text, the line and column).
mlir::LogicalResult parseGraphDef(llvm::StringRef bytes, bool isText,
                                  llvm::StringRef sourceName,
                                  mlir::MLIRContext *context,
                                  tensorflow::GraphDef &graph);

} // namespace tracec::graphdef

#endif // TRACEC_LIB_IMPORT_GRAPHDEF_READPROTO_H
