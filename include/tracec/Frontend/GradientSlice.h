//===- GradientSlice.h - The recorded ops that gradients() replays -*- C++ -*-===//
//
// gradients(ys, xs) differentiates the part of a recorded program that lies
// on a path from an x to a y: the backward slice of the ys through the
// values that depend on the xs. Both recordings slice it here, once: the
// ops traced into the function being built (SymbolicGradients.cpp, over
// mlir::Value) and the records of an eager tape (the Python tape, over
// value ids).
//
// A value depends on the xs when it is one, or when it carries a gradient
// (a float that no stop_gradient produced, and not a stop) and an input of
// its producer depends. The slice ends at an x unless the x is itself
// computed from other xs (an intermediate, as h in gradients(y, {w, h})
// with h = f(w)): then the gradient flows on to w, as in TensorFlow.
//
// Iterative, not recursive: an eager tape may hold long chains of records.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_FRONTEND_GRADIENTSLICE_H
#define TRACEC_FRONTEND_GRADIENTSLICE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace tracec {

/// The slice of a program between its sources and its ys.
template <typename ValueT, typename NodeT> struct GradientSlice {
  /// The nodes to replay, producers before their users.
  std::vector<NodeT> nodes;
  /// The sources that a y reaches.
  llvm::DenseSet<ValueT> reached;
  /// The reached sources whose producer is in `nodes` (intermediates).
  llvm::DenseSet<ValueT> intermediate;
};

/// Slices `graph`, which provides
///   std::optional<Node> producer(Value): the node that computes a value;
///   llvm::SmallVector<Value> inputs(Node): the values a node reads;
///   bool carriesGradient(Value): false for integers, booleans and the
///     results of stop_gradient.
/// No gradient flows through the `stops`; they are never sources.
template <typename Graph, typename ValueT = typename Graph::Value,
          typename NodeT = typename Graph::Node>
GradientSlice<ValueT, NodeT> sliceGradients(const Graph &graph,
                                            llvm::ArrayRef<ValueT> ys,
                                            llvm::ArrayRef<ValueT> sources,
                                            llvm::ArrayRef<ValueT> stops) {
  llvm::DenseSet<ValueT> stopSet(stops.begin(), stops.end());
  llvm::DenseSet<ValueT> sourceSet;
  for (const ValueT &source : sources)
    if (!stopSet.contains(source))
      sourceSet.insert(source);
  // The producer that a gradient of `value` would flow into.
  auto flowsInto = [&](const ValueT &value) -> std::optional<NodeT> {
    if (stopSet.contains(value) || !graph.carriesGradient(value))
      return std::nullopt;
    return graph.producer(value);
  };

  // The nodes the ys reach, producers first (an iterative post-order).
  llvm::DenseMap<NodeT, llvm::SmallVector<ValueT>> inputs;
  std::vector<NodeT> order;
  {
    std::vector<std::pair<NodeT, size_t>> stack;
    auto push = [&](const ValueT &value) {
      std::optional<NodeT> node = flowsInto(value);
      if (!node || inputs.count(*node))
        return;
      inputs[*node] = graph.inputs(*node);
      stack.emplace_back(*node, 0);
    };
    for (const ValueT &y : ys) {
      push(y);
      while (!stack.empty()) {
        auto &[node, next] = stack.back();
        const llvm::SmallVector<ValueT> &in = inputs[node];
        if (next < in.size()) {
          ValueT input = in[next++];
          push(input); // may reallocate `stack`: `node` is not used after
          continue;
        }
        order.push_back(node);
        stack.pop_back();
      }
    }
  }

  // Forward over them: the nodes with an input that depends on a source.
  llvm::DenseSet<NodeT> dependent;
  auto depends = [&](const ValueT &value) {
    if (stopSet.contains(value))
      return false;
    if (sourceSet.contains(value))
      return true;
    std::optional<NodeT> node = flowsInto(value);
    return node && dependent.contains(*node);
  };
  for (const NodeT &node : order)
    for (const ValueT &input : inputs[node])
      if (depends(input)) {
        dependent.insert(node);
        break;
      }

  // Back from the ys through the dependent values, ending at the sources
  // that are not intermediates.
  GradientSlice<ValueT, NodeT> slice;
  llvm::DenseSet<NodeT> inSlice;
  std::vector<ValueT> work(ys.begin(), ys.end());
  while (!work.empty()) {
    ValueT value = work.back();
    work.pop_back();
    if (!depends(value))
      continue;
    std::optional<NodeT> node = flowsInto(value);
    bool computed = node && dependent.contains(*node);
    if (sourceSet.contains(value)) {
      slice.reached.insert(value);
      if (!computed)
        continue;
      slice.intermediate.insert(value);
    }
    if (!computed || !inSlice.insert(*node).second)
      continue;
    for (const ValueT &input : inputs[*node])
      work.push_back(input);
  }
  for (const NodeT &node : order)
    if (inSlice.contains(node))
      slice.nodes.push_back(node);
  return slice;
}

/// The slice of an eager tape, whose values are ids: record r reads
/// `inputs[r]` and writes `outputs[r]`; the values in `noGradient` carry
/// none. `records` are indices into the tape, in its order.
struct TapeSlice {
  std::vector<int64_t> records;
  std::vector<int64_t> reached;
  std::vector<int64_t> intermediate;
};
TapeSlice sliceTape(llvm::ArrayRef<std::vector<int64_t>> inputs,
                    llvm::ArrayRef<std::vector<int64_t>> outputs,
                    llvm::ArrayRef<int64_t> ys, llvm::ArrayRef<int64_t> sources,
                    llvm::ArrayRef<int64_t> stops,
                    llvm::ArrayRef<int64_t> noGradient);

} // namespace tracec

#endif // TRACEC_FRONTEND_GRADIENTSLICE_H
