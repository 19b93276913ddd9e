//===- DynamicAotMatchesJitTest.cpp - AOT entries with ? dims vs the JIT --===//
//
// examples/aot/mlp_dynamic.mlir (a `?` batch) compiled once at build time
// (aot_test_mlp_dynamic.h) and JIT-compiled once: at batches 1, 7, 64 and
// 256 the generated class (dims set per call) and the C function give the
// JIT's results, and both refuse the same inconsistent dims. Calls that
// alternate batch sizes stay right and, once every size has been seen,
// take no more memory (the object reuses its buffers of run-time size).
//
//===----------------------------------------------------------------------===//

#include "aot_test_mlp_dynamic.h"

#include "tracec/Runtime/Executable.h"

#include "AotTestUtil.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace tracec;
using namespace tracec::aot_test;

namespace {

class DynamicAot : public ::testing::Test {
protected:
  void SetUp() override {
    auto module = compiler.parseFile(TRACEC_AOT_TEST_DYNAMIC_MODEL);
    ASSERT_TRUE(bool(module)) << errorText(module.takeError());
    auto compiled = Executable::compile(*module);
    ASSERT_TRUE(bool(compiled)) << errorText(compiled.takeError());
    exe = std::move(*compiled);
  }

  Compiler compiler;
  std::unique_ptr<Executable> exe;
  std::vector<Tensor> weights = {
      filled({4, 16}, 5, 13, 1 / 16.0f), filled({16}, 3, 5, 1 / 32.0f),
      filled({16, 3}, 3, 7, 1 / 8.0f), filled({3}, 1, 3, 1 / 8.0f)};
};

TEST_F(DynamicAot, OneObjectEveryBatch) {
  auto evaluate = exe->function("evaluate");
  ASSERT_TRUE(bool(evaluate)) << errorText(evaluate.takeError());
  aottest::TestMlpDynamic model;
  auto &entry = model.evaluate;
  for (int i = 0; i < 4; ++i)
    std::memcpy(entry.arg_data(2 + i), weights[i].rawData(),
                weights[i].sizeInBytes());
  for (int64_t n : {1, 7, 64, 256, 7}) {
    Tensor x = filled({n, 4}, 7, 11, 0.25f);
    Tensor labels = Tensor::zeros(DType::i32, {n});
    for (int64_t i = 0; i < n; ++i)
      labels.data<int32_t>()[i] = int32_t(i % 3);
    auto jit = (*evaluate)(
        {x, labels, weights[0], weights[1], weights[2], weights[3]});
    ASSERT_TRUE(bool(jit)) << errorText(jit.takeError());

    // The class: its own buffer for x, the caller's for labels.
    std::memcpy(entry.set_arg_x_dims(n), x.rawData(), x.sizeInBytes());
    entry.set_arg_labels_data(labels.data<int32_t>(), n);
    EXPECT_EQ(entry.ArgSize(0), size_t(n) * 4 * 4);
    ASSERT_EQ(entry.Run(), TRACEC_AOT_OK) << entry.error_message();
    EXPECT_STREQ(entry.error_message(), "");
    EXPECT_EQ(entry.result_probs_dims()[0], n);
    EXPECT_EQ(entry.ResultSize(0), size_t(n) * 3 * 4);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(entry.result_probs_data()) % 64, 0u);
    expectNear(entry.result_probs_data(), (*jit)[0], "probs");
    expectNear(entry.result_loss_data(), (*jit)[1], "loss");

    // The C function on the caller's buffers.
    std::vector<float> probs(n * 3);
    float loss;
    ASSERT_EQ(testmlpdynamic_evaluate(
                  x.data<float>(), n, labels.data<int32_t>(), n,
                  weights[0].data<float>(), weights[1].data<float>(),
                  weights[2].data<float>(), weights[3].data<float>(),
                  probs.data(), n, &loss),
              TRACEC_AOT_OK);
    expectNear(probs.data(), (*jit)[0], "C probs");
    expectNear(&loss, (*jit)[1], "C loss");
  }
}

TEST_F(DynamicAot, InconsistentDimsFailLikeTheJit) {
  auto evaluate = exe->function("evaluate");
  ASSERT_TRUE(bool(evaluate)) << errorText(evaluate.takeError());
  Tensor x = filled({7, 4}, 7, 11, 0.25f);
  Tensor labels = Tensor::zeros(DType::i32, {6});
  auto jit =
      (*evaluate)({x, labels, weights[0], weights[1], weights[2], weights[3]});
  ASSERT_FALSE(bool(jit));
  std::string jitMessage = errorText(jit.takeError());
  EXPECT_NE(jitMessage.find("@evaluate: argument 0 dim 0 is 7 but argument 1 "
                            "dim 0 is 6"),
            std::string::npos)
      << jitMessage;

  aottest::TestMlpDynamic model;
  model.evaluate.set_arg_x_data(x.data<float>(), 7);
  model.evaluate.set_arg_labels_data(labels.data<int32_t>(), 6);
  EXPECT_EQ(model.evaluate.Run(), TRACEC_AOT_BAD_DIMS);
  // The same message, with the arguments' names.
  std::string aotMessage = model.evaluate.error_message();
  EXPECT_NE(aotMessage.find("@evaluate: argument 0 (x) dim 0 is 7 but "
                            "argument 1 (labels) dim 0 is 6"),
            std::string::npos)
      << aotMessage;
  std::string tail = jitMessage.substr(jitMessage.find(" ("));
  EXPECT_EQ(aotMessage.substr(aotMessage.size() - tail.size()), tail);
}

TEST_F(DynamicAot, AlternatingBatchesStayRightAndTakeNoMoreMemory) {
  auto evaluate = exe->function("evaluate");
  ASSERT_TRUE(bool(evaluate)) << errorText(evaluate.takeError());
  // Inputs, outputs and the JIT's results per size, made before any call
  // is counted.
  struct Batch {
    Tensor x, labels;
    std::vector<Tensor> expected;
    std::vector<float> probs;
  };
  std::map<int64_t, Batch> batches;
  for (int64_t n : {256, 7, 1}) {
    Batch &batch =
        batches
            .emplace(n, Batch{filled({n, 4}, 7, 11, 0.25f),
                              Tensor::zeros(DType::i32, {n}), {}, {}})
            .first->second;
    for (int64_t i = 0; i < n; ++i)
      batch.labels.data<int32_t>()[i] = int32_t(i % 3);
    auto jit = (*evaluate)({batch.x, batch.labels, weights[0], weights[1],
                            weights[2], weights[3]});
    ASSERT_TRUE(bool(jit)) << errorText(jit.takeError());
    batch.expected = std::move(*jit);
    batch.probs.resize(n * 3);
  }

  size_t inUseAfterFirstRound = 0;
  int wrong = 0;
  for (int round = 0; round < 30; ++round) {
    for (int64_t n : {256, 7, 256, 1}) {
      Batch &batch = batches.at(n);
      float loss;
      ASSERT_EQ(testmlpdynamic_evaluate(
                    batch.x.data<float>(), n, batch.labels.data<int32_t>(), n,
                    weights[0].data<float>(), weights[1].data<float>(),
                    weights[2].data<float>(), weights[3].data<float>(),
                    batch.probs.data(), n, &loss),
                TRACEC_AOT_OK);
      const float *probs = batch.expected[0].data<float>();
      for (int64_t i = 0; i < n * 3; ++i)
        wrong += std::abs(batch.probs[i] - probs[i]) > 1e-5f;
      float expectedLoss = batch.expected[1].data<float>()[0];
      wrong += std::abs(loss - expectedLoss) > 1e-5f * (1 + expectedLoss);
    }
#if defined(__GLIBC__)
    struct mallinfo2 info = mallinfo2();
    size_t inUse = info.uordblks + info.hblkhd;
    if (round == 0)
      inUseAfterFirstRound = inUse;
    else
      ASSERT_EQ(inUse, inUseAfterFirstRound) << "round " << round;
#endif
  }
  EXPECT_EQ(wrong, 0);
}

} // namespace
