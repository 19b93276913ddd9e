//===- train_mlp_traced.cpp - The MLP of train_mlp, traced from C++ -------===//
//
// The model, the loss and the SGD/Adam updates of examples/train_mlp.mlir,
// written in C++ against tracec::Value instead of MLIR: the training step is
// traced once (value_and_grad with respect to the weight variables, then
// var.assign/assign_sub updates), compiled once, and called per batch with
// the variables updated in place. Same data, batches and initial weights as
// train_mlp for a given seed (examples/spiral.h).
//
//   train_mlp_traced [--optimizer sgd|adam] [--epochs N] [--seed S]
//                    [--min-accuracy A] [--dump DIR] [--print-ir]
//
// --dump writes what test/Examples/replay_in_torch.py replays in PyTorch;
// --print-ir prints the traced step's MLIR. The exit status is 1 when the
// final accuracy is below --min-accuracy.
//
//===----------------------------------------------------------------------===//

#include "tracec/Frontend/Frontend.h"

#include "spiral.h"

#include "llvm/Support/FileSystem.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
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
  bool printIR = false;
};

[[noreturn]] void usage(const std::string &message) {
  std::fprintf(stderr,
               "train_mlp_traced: %s\nusage: train_mlp_traced [--optimizer "
               "sgd|adam] [--epochs N] [--seed S] [--min-accuracy A] "
               "[--dump DIR] [--print-ir]\n",
               message.c_str());
  std::exit(1);
}

Options parseOptions(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (flag == "--print-ir") {
      options.printIR = true;
      continue;
    }
    if (i + 1 >= argc)
      usage("missing value after " + flag);
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
    } else {
      usage("unknown option " + flag);
    }
  }
  return options;
}

template <typename T> T check(llvm::Expected<T> value) {
  if (!value)
    usage(llvm::toString(value.takeError()));
  return std::move(*value);
}
void check(llvm::Error error) {
  if (error)
    usage(llvm::toString(std::move(error)));
}

using Values = std::vector<Value>;

/// The 2-32-32-3 relu MLP whose weights are variables.
class Mlp {
public:
  explicit Mlp(Random &random) {
    for (const Parameter &p : kParameters)
      weights.push_back(std::make_unique<Variable>(initialValue(p, random)));
  }

  Value logits(const Value &x) const {
    Value h = relu(matmul(x, read(*weights[0])) + read(*weights[1]));
    h = relu(matmul(h, read(*weights[2])) + read(*weights[3]));
    return matmul(h, read(*weights[4])) + read(*weights[5]);
  }

  /// Mean softmax cross-entropy of a batch.
  Value loss(const Value &x, const Value &labels) const {
    Value picked = log_softmax(logits(x)) * one_hot(labels, kClasses);
    return sum(picked) / double(-kBatch);
  }

  std::vector<Variable *> variables() const {
    std::vector<Variable *> result;
    for (const auto &w : weights)
      result.push_back(w.get());
    return result;
  }

  std::vector<std::unique_ptr<Variable>> weights;
};

/// Adam (Kingma & Ba, PyTorch's epsilon placement; bias corrections in f64
/// as PyTorch computes them): its moments and step count are variables.
class Adam {
public:
  explicit Adam(const std::vector<Variable *> &params)
      : params_(params), step_(Tensor::scalar<float>(0)) {
    for (Variable *p : params) {
      m_.push_back(std::make_unique<Variable>(
          Tensor::zeros(DType::f32, p->buffer().shape())));
      v_.push_back(std::make_unique<Variable>(
          Tensor::zeros(DType::f32, p->buffer().shape())));
    }
  }

  void apply(const Value &lr, llvm::ArrayRef<Value> grads) {
    assign_add(step_, 1);
    Value t = cast(read(step_), DType::f64);
    Value bc1 = 1.0 - pow(full({}, 0.9, DType::f64), t);
    Value bc2 = 1.0 - pow(full({}, 0.999, DType::f64), t);
    Value rate = cast(cast(lr, DType::f64) / bc1, DType::f32);
    Value sbc2 = cast(sqrt(bc2), DType::f32);
    for (size_t i = 0; i < params_.size(); ++i) {
      Value g = grads[i];
      Value m = 0.9 * read(*m_[i]) + 0.1 * g;
      assign(*m_[i], m);
      Value v = 0.999 * read(*v_[i]) + 0.001 * (g * g);
      assign(*v_[i], v);
      assign_sub(*params_[i], rate * m / (sqrt(v) / sbc2 + 1e-8));
    }
  }

private:
  std::vector<Variable *> params_;
  std::vector<std::unique_ptr<Variable>> m_, v_;
  Variable step_;
};

} // namespace

int main(int argc, char **argv) {
  Options options = parseOptions(argc, argv);
  Random random(options.seed);
  Dataset data = makeSpiral(random);
  Mlp model(random);
  Adam adam(model.variables());
  bool useAdam = options.optimizer == "adam";

  std::vector<TensorSpec> batchSpec = {
      {DType::f32, {kBatch, kFeatures}, false},
      {DType::i32, {kBatch}, false},
      {DType::f32, {}, false}};
  std::optional<ConcreteFunction> step;
  try {
    // One training step: the loss and its gradients with respect to the
    // weight variables, then the update, traced and compiled once.
    step.emplace(trace("train_step", batchSpec,
                 [&](llvm::ArrayRef<Value> a) -> Values {
                   GradOptions wrtWeights;
                   wrtWeights.argnums = {};
                   wrtWeights.variables = model.variables();
                   Values lossAndGrads = value_and_grad(
                       [&](llvm::ArrayRef<Value> b) -> Values {
                         return {model.loss(b[0], b[1])};
                       },
                       wrtWeights)({a[0], a[1]});
                   llvm::ArrayRef<Value> grads =
                       llvm::ArrayRef(lossAndGrads).drop_front();
                   if (useAdam) {
                     adam.apply(a[2], grads);
                   } else {
                     for (auto [w, g] : llvm::zip(model.variables(), grads))
                       assign_sub(*w, a[2] * g);
                   }
                   return {lossAndGrads[0]};
                 }));
  } catch (const TraceError &error) {
    usage(error.what());
  }
  ConcreteFunction predict = trace(
      "predict", {batchSpec[0]},
      [&](llvm::ArrayRef<Value> a) -> Values {
        return {argmax(model.logits(a[0]), 1)};
      });
  if (options.printIR)
    std::printf("%s\n", step->ir().c_str());
  check(step->compile());
  check(predict.compile());

  Tensor learningRate = Tensor::scalar<float>(useAdam ? 0.01f : 0.5f);
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
    for (size_t i = 0; i < model.weights.size(); ++i)
      check(model.weights[i]->value().saveNpy(path(kParameters[i].name)));
  }

  std::printf("training 2-32-32-3 relu MLP (traced from C++) on %lld spiral "
              "points, batch %lld, %s\n",
              (long long)kExamples, (long long)kBatch,
              options.optimizer.c_str());
  std::vector<float> stepLosses;
  double accuracy = 0;
  for (int epoch = 1; epoch <= options.epochs; ++epoch) {
    double lossSum = 0;
    for (int64_t b = 0; b < kBatches; ++b) {
      auto [x, labels] = batch(data, b);
      float loss = check((*step)({x, labels, learningRate}))[0].toVector<float>()[0];
      stepLosses.push_back(loss);
      lossSum += loss;
    }
    int64_t correct = 0;
    for (int64_t b = 0; b < kBatches; ++b) {
      auto [x, labels] = batch(data, b);
      std::vector<int64_t> classes =
          check(predict({x}))[0].toVector<int64_t>();
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
                 "train_mlp_traced: final accuracy %.3f is below "
                 "--min-accuracy %.3f\n",
                 accuracy, options.minAccuracy);
    return 1;
  }
  return 0;
}
