//===- AotMatchesJitTest.cpp - AOT entry points against the JIT -----------===//
//
// examples/aot/mlp.mlir compiled at build time by tracec_add_aot_library
// (aot_test_mlp.h) and the same module JIT-compiled: training from the
// same weights gives the same losses and variables after every step, and
// the same predictions. Plus the generated class's buffer accessors and
// error codes.
//
//===----------------------------------------------------------------------===//

#include "aot_test_mlp.h"

#include "tracec/Runtime/Executable.h"
#include "tracec/Tensor/Variable.h"

#include "AotTestUtil.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

using namespace tracec;
using namespace tracec::aot_test;

namespace {

TEST(AotMatchesJit, TrainingAndPrediction) {
  Compiler compiler;
  auto module = compiler.parseFile(TRACEC_AOT_TEST_MODEL);
  ASSERT_TRUE(bool(module)) << errorText(module.takeError());
  auto exe = Executable::compile(*module);
  ASSERT_TRUE(bool(exe)) << errorText(exe.takeError());
  auto step = (*exe)->function("step");
  auto predict = (*exe)->function("predict");
  ASSERT_TRUE(bool(step)) << errorText(step.takeError());
  ASSERT_TRUE(bool(predict)) << errorText(predict.takeError());

  Tensor x = filled({8, 4}, 7, 11, 0.25f);
  Tensor labels = Tensor::zeros(DType::i32, {8});
  for (int i = 0; i < 8; ++i)
    labels.data<int32_t>()[i] = i % 3;
  std::vector<Tensor> initial = {
      filled({4, 16}, 5, 13, 1 / 16.0f), filled({16}, 3, 5, 1 / 32.0f),
      filled({16, 3}, 3, 7, 1 / 8.0f), filled({3}, 1, 3, 1 / 8.0f)};

  aottest::TestMlp model;
  std::vector<std::unique_ptr<Variable>> variables;
  for (int i = 0; i < model.kNumVariables; ++i) {
    ASSERT_EQ(model.VariableSize(i), initial[i].sizeInBytes());
    std::memcpy(model.variable_data(i), initial[i].rawData(),
                initial[i].sizeInBytes());
    variables.push_back(std::make_unique<Variable>(initial[i]));
  }
  std::memcpy(model.step.arg_x_data(), x.rawData(), x.sizeInBytes());
  model.step.set_arg_labels_data(labels.data<int32_t>());

  for (int i = 0; i < 10; ++i) {
    ASSERT_EQ(model.step.Run(), 0);
    auto loss =
        (*step)({x, labels, variables[0]->buffer(), variables[1]->buffer(),
                 variables[2]->buffer(), variables[3]->buffer()});
    ASSERT_TRUE(bool(loss)) << errorText(loss.takeError());
    expectNear(model.step.result_loss_data(), (*loss)[0], "loss");
    for (int v = 0; v < model.kNumVariables; ++v)
      expectNear(static_cast<float *>(model.variable_data(v)),
                 variables[v]->value(), model.VariableName(v));
  }

  model.predict.set_arg_x_data(x.data<float>());
  ASSERT_EQ(model.predict.Run(), 0);
  auto predicted =
      (*predict)({x, variables[0]->buffer(), variables[1]->buffer(),
                  variables[2]->buffer(), variables[3]->buffer()});
  ASSERT_TRUE(bool(predicted)) << errorText(predicted.takeError());
  expectNear(model.predict.result_probs_data(), (*predicted)[0], "probs");
  EXPECT_EQ(std::vector<int64_t>(model.predict.result_classes_data(),
                                 model.predict.result_classes_data() + 8),
            (*predicted)[1].toVector<int64_t>());
}

TEST(AotMatchesJit, ClassBuffers) {
  aottest::TestMlp model;
  EXPECT_EQ(model.kNumVariables, 4);
  EXPECT_STREQ(model.VariableName(2), "w2");
  EXPECT_EQ(model.VariableName(4), nullptr);
  EXPECT_EQ(model.VariableSize(0), 4u * 16 * 4);
  EXPECT_EQ(model.step.kNumArgs, 2); // x and labels; variables are the model's
  EXPECT_EQ(model.step.ArgSize(1), 8u * 4);
  EXPECT_EQ(model.predict.ResultSize(1), 8u * 8);
  EXPECT_EQ(model.step.ArgSize(2), 0u);
  EXPECT_EQ(model.step.arg_data(-1), nullptr);
  EXPECT_EQ(model.predict.result_data(2), nullptr);
  for (void *buffer : {model.variable_data(0), model.variable_data(3),
                       model.step.arg_data(0), model.step.arg_data(1),
                       model.step.result_data(0), model.predict.result_data(1)})
    EXPECT_EQ(reinterpret_cast<uintptr_t>(buffer) % 64, 0u);
  // Variables start at zero; @predict of zero weights is uniform.
  ASSERT_EQ(model.predict.Run(), 0);
  EXPECT_FLOAT_EQ(model.predict.result_probs_data()[0], 1.0f / 3);
}

TEST(AotMatchesJit, NullBufferIsAnErrorCode) {
  aottest::TestMlp model;
  model.step.set_arg_data(0, nullptr);
  EXPECT_EQ(model.step.Run(), 1);
  float x[32] = {}, probs[24];
  int64_t classes[8];
  EXPECT_EQ(
      testmlp_predict(x, nullptr, nullptr, nullptr, nullptr, probs, classes),
      1);
}

} // namespace
