//===- Tf2XlaConfig.cpp - tfcompile's feeds/fetches config ----------------===//

#include "tracec/tensorflow/tf2xla.pb.h"

#include "tracec/Target/GraphDef.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"

#include <google/protobuf/text_format.h>

using namespace mlir;
namespace tf = tracec::tensorflow;

/// "node" or "node:i".
static std::string tensorName(const tf::tf2xla::TensorId &id) {
  if (id.output_index() == 0)
    return id.node_name();
  return id.node_name() + ":" + std::to_string(id.output_index());
}

LogicalResult tracec::readTf2XlaConfig(llvm::StringRef path,
                                       GraphImportOptions &options,
                                       MLIRContext *context) {
  Location loc = FileLineColLoc::get(context, path, 0, 0);
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &error);
  if (!file)
    return emitError(loc) << error;
  tf::tf2xla::Config config;
  if (!google::protobuf::TextFormat::ParseFromString(
          file->getBuffer().str(), &config))
    return emitError(loc) << "not a tf2xla.Config in text format";
  if (config.fetch_size() == 0)
    return emitError(loc) << "the config fetches nothing";
  options = GraphImportOptions();
  options.pruneUnusedNodes = true;
  bool anyType = false;
  for (const auto &feed : config.feed())
    anyType |= feed.type() != tf::DT_INVALID;
  for (const auto &feed : config.feed()) {
    if (feed.id().node_name().empty())
      return emitError(loc) << "a feed has no node_name";
    options.inputArrays.push_back(tensorName(feed.id()));
    options.inputNames.push_back(feed.name());
    std::vector<int64_t> shape;
    for (const auto &dim : feed.shape().dim()) {
      if (dim.size() < -1)
        return emitError(loc) << "feed '" << tensorName(feed.id())
                              << "' has a negative dim size (" << dim.size()
                              << ")";
      if (dim.size() == -1)
        return emitError(loc) << "feed '" << tensorName(feed.id())
                              << "' has an unknown dim: shapes must be static";
      shape.push_back(dim.size());
    }
    options.inputShapes.push_back(std::move(shape));
    if (anyType) {
      if (feed.type() == tf::DT_INVALID)
        return emitError(loc) << "feed '" << tensorName(feed.id())
                              << "' has no type while others have one";
      options.inputDataTypes.push_back(tf::DataType_Name(feed.type()));
    }
  }
  for (const auto &fetch : config.fetch()) {
    if (fetch.id().node_name().empty())
      return emitError(loc) << "a fetch has no node_name";
    options.outputArrays.push_back(tensorName(fetch.id()));
    options.outputNames.push_back(fetch.name());
  }
  for (const auto &variable : config.variable())
    options.variableNames[variable.node_name()] =
        variable.name().empty() ? variable.node_name() : variable.name();
  return success();
}
