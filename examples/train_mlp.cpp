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

#include "spiral.h"

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
using namespace tracec::examples;

namespace {

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
