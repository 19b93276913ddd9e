//===- spiral.h - The training examples' data and initial weights ---------===//
//
// Shared by train_mlp (the model written in MLIR) and train_mlp_traced (the
// same model traced from C++): the same seed gives both the same data,
// batches and initial weights.
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_EXAMPLES_SPIRAL_H
#define TRACEC_EXAMPLES_SPIRAL_H

#include "tracec/Tensor/Tensor.h"

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace tracec::examples {

constexpr int64_t kBatch = 64, kFeatures = 2, kHidden = 32, kClasses = 3;
constexpr int64_t kPerClass = 256, kExamples = kPerClass * kClasses;
constexpr int64_t kBatches = kExamples / kBatch;

/// splitmix64: a small generator whose output is the same everywhere
/// (unlike std::*_distribution).
class Random {
public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1), from the top 53 bits.
  double uniform() { return (next() >> 11) * 0x1.0p-53; }
  double normal() { // Box-Muller
    double u = 1.0 - uniform(), v = uniform();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * M_PI * v);
  }

private:
  uint64_t state_;
};

struct Dataset {
  std::vector<float> x;       // kExamples x kFeatures
  std::vector<int32_t> labels; // kExamples
};

/// Three spiral arms, one per class, with Gaussian noise on the angle;
/// shuffled so that each batch mixes the classes.
inline Dataset makeSpiral(Random &random) {
  Dataset data;
  for (int64_t k = 0; k < kClasses; ++k)
    for (int64_t i = 0; i < kPerClass; ++i) {
      double r = double(i) / kPerClass;
      double theta = k * 2.0 * M_PI / kClasses + 4.0 * r + 0.2 * random.normal();
      data.x.push_back(float(r * std::sin(theta)));
      data.x.push_back(float(r * std::cos(theta)));
      data.labels.push_back(int32_t(k));
    }
  for (int64_t i = kExamples - 1; i > 0; --i) {
    int64_t j = int64_t(random.next() % uint64_t(i + 1));
    std::swap(data.x[2 * i], data.x[2 * j]);
    std::swap(data.x[2 * i + 1], data.x[2 * j + 1]);
    std::swap(data.labels[i], data.labels[j]);
  }
  return data;
}

struct Parameter {
  const char *name;
  std::vector<int64_t> shape;
};
inline const Parameter kParameters[] = {
    {"w1", {kFeatures, kHidden}}, {"b1", {kHidden}},
    {"w2", {kHidden, kHidden}},   {"b2", {kHidden}},
    {"w3", {kHidden, kClasses}},  {"b3", {kClasses}}};

/// Glorot-uniform weights, zero biases.
inline Tensor initialValue(const Parameter &p, Random &random) {
  Tensor t = Tensor::zeros(DType::f32, p.shape);
  if (p.shape.size() == 2) {
    double limit = std::sqrt(6.0 / double(p.shape[0] + p.shape[1]));
    float *data = t.data<float>();
    for (int64_t i = 0; i < t.numElements(); ++i)
      data[i] = float((2.0 * random.uniform() - 1.0) * limit);
  }
  return t;
}

/// Batch `b` of the data, as the step functions take it.
inline std::pair<Tensor, Tensor> batch(const Dataset &data, int64_t b) {
  auto x = std::vector<float>(data.x.begin() + b * kBatch * kFeatures,
                              data.x.begin() + (b + 1) * kBatch * kFeatures);
  auto y = std::vector<int32_t>(data.labels.begin() + b * kBatch,
                                data.labels.begin() + (b + 1) * kBatch);
  return {llvm::cantFail(Tensor::fromVector(x, {kBatch, kFeatures})),
          llvm::cantFail(Tensor::fromVector(y, {kBatch}))};
}

} // namespace tracec::examples

#endif // TRACEC_EXAMPLES_SPIRAL_H
