//===- GradientSlice.cpp - The slice of an eager tape ---------------------===//
//
// An eager tape (python/tracec/tape.py) slices its records through the same
// sliceGradients as the tracer, over the ids of the values it recorded.
//
//===----------------------------------------------------------------------===//

#include "tracec/Frontend/GradientSlice.h"

using namespace tracec;

namespace {
/// The records as a graph: a value's producer is the record that wrote it.
struct TapeGraph {
  using Value = int64_t;
  using Node = int64_t;

  llvm::ArrayRef<std::vector<int64_t>> recordInputs;
  llvm::DenseMap<int64_t, int64_t> producers;
  llvm::DenseSet<int64_t> noGradient;

  std::optional<Node> producer(Value value) const {
    auto it = producers.find(value);
    if (it == producers.end())
      return std::nullopt;
    return it->second;
  }
  llvm::SmallVector<Value> inputs(Node record) const {
    return llvm::SmallVector<Value>(recordInputs[record].begin(),
                                    recordInputs[record].end());
  }
  bool carriesGradient(Value value) const {
    return !noGradient.contains(value);
  }
};
} // namespace

TapeSlice tracec::sliceTape(llvm::ArrayRef<std::vector<int64_t>> inputs,
                            llvm::ArrayRef<std::vector<int64_t>> outputs,
                            llvm::ArrayRef<int64_t> ys,
                            llvm::ArrayRef<int64_t> sources,
                            llvm::ArrayRef<int64_t> stops,
                            llvm::ArrayRef<int64_t> noGradient) {
  TapeGraph graph;
  graph.recordInputs = inputs;
  graph.noGradient.insert(noGradient.begin(), noGradient.end());
  for (auto [record, written] : llvm::enumerate(outputs))
    for (int64_t value : written)
      graph.producers[value] = record; // the last write of an id wins
  GradientSlice<int64_t, int64_t> slice =
      sliceGradients(graph, ys, sources, stops);
  TapeSlice result;
  result.records = std::move(slice.nodes);
  // In the order of `sources`, so that results do not depend on hashing.
  for (int64_t source : sources) {
    if (slice.reached.contains(source) &&
        !llvm::is_contained(result.reached, source))
      result.reached.push_back(source);
    if (slice.intermediate.contains(source) &&
        !llvm::is_contained(result.intermediate, source))
      result.intermediate.push_back(source);
  }
  return result;
}
