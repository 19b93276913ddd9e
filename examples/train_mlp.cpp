//===- train_mlp.cpp - Training an MLP with compiled, in-place steps ------===//
//
// Trains examples/train_mlp.mlir (2 -> 32 -> 32 -> 3, relu) on a synthetic
// three-armed spiral with SGD or Adam. The weights (and Adam's moments and
// step count) are tracec::Variables: each compiled step reads them,
// differentiates the loss with respect to them and updates them in place.
//
//   train_mlp [--optimizer sgd|adam] [--epochs N] [--seed S]
//             [--min-accuracy A] [--dump DIR] [--model PATH]
//
// Everything random (data, shuffling, initial weights) comes from one
// seeded splitmix64 stream, so a run is reproducible bit for bit. --dump
// writes the data, the initial weights and every step's loss as .npy files
// (for the PyTorch cross-check in test/Examples). The exit status is 1 when
// the final accuracy is below --min-accuracy.
//
//===----------------------------------------------------------------------===//

#include "tracec/Runtime/Compiler.h"
#include "tracec/Runtime/Executable.h"
#include "tracec/Tensor/Variable.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace tracec;

namespace {

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
Dataset makeSpiral(Random &random) {
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
const Parameter kParameters[] = {
    {"w1", {kFeatures, kHidden}}, {"b1", {kHidden}},
    {"w2", {kHidden, kHidden}},   {"b2", {kHidden}},
    {"w3", {kHidden, kClasses}},  {"b3", {kClasses}}};

/// Glorot-uniform weights, zero biases.
Tensor initialValue(const Parameter &p, Random &random) {
  Tensor t = Tensor::zeros(DType::f32, p.shape);
  if (p.shape.size() == 2) {
    double limit = std::sqrt(6.0 / double(p.shape[0] + p.shape[1]));
    float *data = t.data<float>();
    for (int64_t i = 0; i < t.numElements(); ++i)
      data[i] = float((2.0 * random.uniform() - 1.0) * limit);
  }
  return t;
}

struct Options {
  std::string optimizer = "adam";
  int epochs = 40;
  uint64_t seed = 1;
  double minAccuracy = 0;
  std::string dumpDir;
  std::string model = TRACEC_EXAMPLES_DIR "/train_mlp.mlir";
};

[[noreturn]] void usage(const char *message) {
  std::fprintf(stderr,
               "train_mlp: %s\nusage: train_mlp [--optimizer sgd|adam] "
               "[--epochs N] [--seed S] [--min-accuracy A] [--dump DIR] "
               "[--model PATH]\n",
               message);
  std::exit(1);
}

Options parseOptions(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (i + 1 >= argc)
      usage(("missing value after " + flag).c_str());
    const char *value = argv[++i];
    char *end = nullptr;
    if (flag == "--optimizer") {
      options.optimizer = value;
      if (options.optimizer != "sgd" && options.optimizer != "adam")
        usage("--optimizer must be sgd or adam");
    } else if (flag == "--epochs") {
      options.epochs = int(std::strtol(value, &end, 10));
      if (*end || options.epochs < 1)
        usage("--epochs needs a positive integer");
    } else if (flag == "--seed") {
      options.seed = std::strtoull(value, &end, 10);
      if (*end)
        usage("--seed needs an integer");
    } else if (flag == "--min-accuracy") {
      options.minAccuracy = std::strtod(value, &end);
      if (*end)
        usage("--min-accuracy needs a number");
    } else if (flag == "--dump") {
      options.dumpDir = value;
    } else if (flag == "--model") {
      options.model = value;
    } else {
      usage(("unknown option " + flag).c_str());
    }
  }
  return options;
}

/// Exits with the error's message when there is one.
template <typename T> T check(llvm::Expected<T> value) {
  if (!value) {
    std::fprintf(stderr, "train_mlp: %s\n",
                 llvm::toString(value.takeError()).c_str());
    std::exit(1);
  }
  return std::move(*value);
}
void check(llvm::Error error) {
  if (error) {
    std::fprintf(stderr, "train_mlp: %s\n",
                 llvm::toString(std::move(error)).c_str());
    std::exit(1);
  }
}

/// Batch `b` of the data, as the step functions take it.
std::pair<Tensor, Tensor> batch(const Dataset &data, int64_t b) {
  auto x = std::vector<float>(data.x.begin() + b * kBatch * kFeatures,
                              data.x.begin() + (b + 1) * kBatch * kFeatures);
  auto y = std::vector<int32_t>(data.labels.begin() + b * kBatch,
                                data.labels.begin() + (b + 1) * kBatch);
  return {check(Tensor::fromVector(x, {kBatch, kFeatures})),
          check(Tensor::fromVector(y, {kBatch}))};
}

} // namespace

int main(int argc, char **argv) {
  Options options = parseOptions(argc, argv);
  Random random(options.seed);
  Dataset data = makeSpiral(random);

  Compiler compiler;
  Module module = check(compiler.parseFile(options.model));
  std::unique_ptr<Executable> exe = check(Executable::compile(module));
  Function step = check(exe->function(options.optimizer + "_step"));
  Function predict = check(exe->function("predict"));

  // The weights, then (Adam) the first moments, the second moments and the
  // step count.
  std::vector<std::unique_ptr<Variable>> weights, state;
  for (const Parameter &p : kParameters)
    weights.push_back(std::make_unique<Variable>(initialValue(p, random)));
  if (options.optimizer == "adam") {
    for (int moment = 0; moment < 2; ++moment)
      for (const Parameter &p : kParameters)
        state.push_back(
            std::make_unique<Variable>(Tensor::zeros(DType::f32, p.shape)));
    state.push_back(std::make_unique<Variable>(Tensor::scalar<float>(0)));
  }
  Tensor learningRate =
      Tensor::scalar<float>(options.optimizer == "adam" ? 0.01f : 0.5f);

  if (!options.dumpDir.empty()) {
    check(llvm::errorCodeToError(
        llvm::sys::fs::create_directories(options.dumpDir)));
    auto path = [&](llvm::StringRef name) {
      return (options.dumpDir + "/" + name + ".npy").str();
    };
    check(check(Tensor::fromVector(data.x, {kExamples, kFeatures}))
              .saveNpy(path("x")));
    check(check(Tensor::fromVector(data.labels, {kExamples}))
              .saveNpy(path("labels")));
    for (size_t i = 0; i < weights.size(); ++i)
      check(weights[i]->value().saveNpy(path(kParameters[i].name)));
  }

  std::printf("training %s on %lld spiral points, batch %lld, %s\n",
              "2-32-32-3 relu MLP", (long long)kExamples,
              (long long)kBatch, options.optimizer.c_str());
  std::vector<float> stepLosses;
  double accuracy = 0;
  for (int epoch = 1; epoch <= options.epochs; ++epoch) {
    double lossSum = 0;
    for (int64_t b = 0; b < kBatches; ++b) {
      auto [x, labels] = batch(data, b);
      std::vector<Tensor> args = {x, labels, learningRate};
      for (auto &v : weights)
        args.push_back(v->buffer());
      for (auto &v : state)
        args.push_back(v->buffer());
      std::vector<Tensor> outputs = check(step(args));
      float loss = outputs[0].toVector<float>()[0];
      stepLosses.push_back(loss);
      lossSum += loss;
    }
    int64_t correct = 0;
    for (int64_t b = 0; b < kBatches; ++b) {
      auto [x, labels] = batch(data, b);
      std::vector<Tensor> args = {x};
      for (auto &v : weights)
        args.push_back(v->buffer());
      std::vector<int64_t> classes = check(predict(args))[0].toVector<int64_t>();
      for (int64_t i = 0; i < kBatch; ++i)
        correct += classes[i] == data.labels[b * kBatch + i];
    }
    accuracy = double(correct) / kExamples;
    std::printf("epoch %3d  loss %.4f  accuracy %.3f\n", epoch,
                lossSum / kBatches, accuracy);
  }

  if (!options.dumpDir.empty())
    check(check(Tensor::fromVector(stepLosses, {int64_t(stepLosses.size())}))
              .saveNpy(options.dumpDir + "/losses.npy"));
  std::printf("final accuracy %.3f\n", accuracy);
  if (accuracy < options.minAccuracy) {
    std::fprintf(stderr,
                 "train_mlp: final accuracy %.3f is below --min-accuracy %.3f\n",
                 accuracy, options.minAccuracy);
    return 1;
  }
  return 0;
}
