//===- ReadProto.cpp - Binary and text GraphDef parsing with diagnostics --===//

#include "ReadProto.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>

#include <limits>

using namespace mlir;
using namespace tracec::graphdef;

namespace {
/// Collects the text parser's errors with their line and column.
class ErrorCollector : public google::protobuf::io::ErrorCollector {
public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string &message) override {
    if (first.empty())
      first = std::to_string(line + 1) + ":" + std::to_string(column + 1) +
              ": " + message;
  }
  std::string first;
};
} // namespace

LogicalResult tracec::graphdef::parseGraphDef(llvm::StringRef bytes, bool isText,
                                      llvm::StringRef sourceName,
                                      MLIRContext *context,
                                      tensorflow::GraphDef &graph) {
  if (isText) {
    google::protobuf::TextFormat::Parser parser;
    ErrorCollector errors;
    parser.RecordErrorsTo(&errors);
    // Text written by newer TensorFlow versions has fields tracec does not
    // read; they are skipped, as binary parsing skips them.
    parser.AllowUnknownField(true);
    google::protobuf::io::ArrayInputStream input(bytes.data(),
                                                 int(bytes.size()));
    if (!parser.Parse(&input, &graph)) {
      std::string where = sourceName.str();
      return emitError(UnknownLoc::get(context))
             << where << ":" << errors.first
             << ": not a GraphDef in text format";
    }
    return success();
  }
  if (bytes.size() > size_t(std::numeric_limits<int>::max()))
    return emitError(UnknownLoc::get(context))
           << sourceName << ": too large for a protobuf (" << bytes.size()
           << " bytes)";
  google::protobuf::io::CodedInputStream input(
      reinterpret_cast<const uint8_t *>(bytes.data()), int(bytes.size()));
  input.SetRecursionLimit(1000);
  if (!graph.ParseFromCodedStream(&input) || !input.ConsumedEntireMessage())
    return emitError(UnknownLoc::get(context))
           << sourceName
           << ": not a binary GraphDef (corrupt or truncated protobuf)";
  return success();
}
