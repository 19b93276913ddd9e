//===- VariableTest.cpp - Variables updated in place by compiled code -----===//

#include "tracec/Runtime/Executable.h"
#include "tracec/Tensor/Variable.h"

#include <gtest/gtest.h>

#include <thread>

using namespace tracec;

namespace {

std::string errorText(llvm::Error error) { return llvm::toString(std::move(error)); }

// One step of "v -= 0.5 * x; v += x": returns the value read before the
// update and the value read after it.
constexpr const char *kStep = R"mlir(
func.func @step(%v: !trace.resource<tensor<4xf32>>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %old, %c0 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  %h = trace.constant dense<0.5> : tensor<f32>
  %hx = trace.mul %h, %x : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %n = trace.sub %old, %hx : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %c1 = trace.var.assign %v, %n : !trace.resource<tensor<4xf32>>
  %c2 = trace.var.assign_add %v, %x : !trace.resource<tensor<4xf32>>
  %new, %c3 = trace.var.read %v : !trace.resource<tensor<4xf32>>
  return %old, %new : tensor<4xf32>, tensor<4xf32>
}
func.func @decrement(%v: !trace.resource<tensor<i64>>) {
  %one = trace.constant dense<1> : tensor<i64>
  %c = trace.var.assign_sub %v, %one : !trace.resource<tensor<i64>>
  return
}
)mlir";

class VariableTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto module = compiler.parseString(kStep, "step.mlir");
    ASSERT_TRUE(bool(module)) << errorText(module.takeError());
    auto compiled = Executable::compile(*module);
    ASSERT_TRUE(bool(compiled)) << errorText(compiled.takeError());
    exe = std::move(*compiled);
  }

  Compiler compiler;
  std::unique_ptr<Executable> exe;
};

TEST_F(VariableTest, StepUpdatesInPlaceAndReturnsSnapshots) {
  auto step = exe->function("step");
  ASSERT_TRUE(bool(step)) << errorText(step.takeError());
  EXPECT_EQ(step->signature().str(),
            "@step(!trace.resource<tensor<4xf32>>, tensor<4xf32>) -> "
            "(tensor<4xf32>, tensor<4xf32>)");
  EXPECT_TRUE(step->signature().inputs[0].isVariable);
  EXPECT_FALSE(step->signature().inputs[1].isVariable);

  Tensor initial = *Tensor::fromVector<float>({1, 2, 3, 4}, {4});
  Variable v(initial);
  Tensor x = *Tensor::fromVector<float>({2, -4, 1, 8}, {4});
  // Each step: v -> v - 0.5 x + x = v + 0.5 x, with 0.5 x = {1, -2, 0.5, 4}.
  const std::vector<std::vector<float>> before = {
      {1, 2, 3, 4}, {2, 0, 3.5f, 8}, {3, -2, 4, 12}};
  const std::vector<std::vector<float>> after = {
      {2, 0, 3.5f, 8}, {3, -2, 4, 12}, {4, -4, 4.5f, 16}};
  std::vector<Tensor> firstOutputs;
  for (int i = 0; i < 3; ++i) {
    auto outputs = (*step)({v.buffer(), x});
    ASSERT_TRUE(bool(outputs)) << errorText(outputs.takeError());
    ASSERT_EQ(outputs->size(), 2u);
    // The read before the assigns is a snapshot: the later writes to the
    // variable did not change it.
    EXPECT_EQ((*outputs)[0].toVector<float>(), before[i]) << "step " << i;
    // A read after the assigns sees them.
    EXPECT_EQ((*outputs)[1].toVector<float>(), after[i]) << "step " << i;
    // The variable itself was updated in place.
    EXPECT_EQ(v.value().toVector<float>(), after[i]) << "step " << i;
    EXPECT_FALSE((*outputs)[0].sharesStorageWith(v.buffer()));
    EXPECT_FALSE((*outputs)[1].sharesStorageWith(v.buffer()));
    if (i == 0)
      firstOutputs = std::move(*outputs);
  }
  // Results are the caller's, untouched by later calls; inputs too.
  EXPECT_EQ(firstOutputs[0].toVector<float>(), before[0]);
  EXPECT_EQ(firstOutputs[1].toVector<float>(), after[0]);
  EXPECT_EQ(x.toVector<float>(), (std::vector<float>{2, -4, 1, 8}));
  // The variable holds a copy of its initial value.
  EXPECT_EQ(initial.toVector<float>(), before[0]);
}

TEST_F(VariableTest, ValueIsASnapshotAndAssignOverwrites) {
  Variable v(*Tensor::fromVector<float>({1, 2}, {2}));
  Tensor snapshot = v.value();
  ASSERT_FALSE(bool(v.assign(*Tensor::fromVector<float>({5, 6}, {2}))));
  EXPECT_EQ(snapshot.toVector<float>(), (std::vector<float>{1, 2}));
  EXPECT_EQ(v.value().toVector<float>(), (std::vector<float>{5, 6}));
  llvm::Error error = v.assign(*Tensor::fromVector<float>({1, 2, 3}, {3}));
  EXPECT_EQ(errorText(std::move(error)),
            "cannot assign tensor<3xf32> to a variable of tensor<2xf32>");
}

TEST_F(VariableTest, MismatchedVariableIsAnError) {
  auto step = exe->function("step");
  ASSERT_TRUE(bool(step)) << errorText(step.takeError());
  Variable wrong(Tensor::zeros(DType::f32, {3}));
  Tensor x = Tensor::zeros(DType::f32, {4});
  auto outputs = (*step)({wrong.buffer(), x});
  ASSERT_FALSE(bool(outputs));
  EXPECT_EQ(errorText(outputs.takeError()),
            "argument 0 of @step: expected tensor<4xf32> (a variable), got "
            "tensor<3xf32>");
}

TEST_F(VariableTest, VariableSharingStorageWithAnotherArgumentIsAnError) {
  auto step = exe->function("step");
  ASSERT_TRUE(bool(step)) << errorText(step.takeError());
  Variable v(Tensor::zeros(DType::f32, {4}));
  auto outputs = (*step)({v.buffer(), v.buffer()});
  ASSERT_FALSE(bool(outputs));
  EXPECT_EQ(errorText(outputs.takeError()),
            "argument 0 of @step is a variable, updated in place, and shares "
            "its storage with argument 1");
}

TEST_F(VariableTest, CallsSerializedByTheLockAreNotLost) {
  auto decrement = exe->function("decrement");
  ASSERT_TRUE(bool(decrement)) << errorText(decrement.takeError());
  Variable counter(Tensor::scalar<int64_t>(1000));
  auto work = [&] {
    for (int i = 0; i < 200; ++i) {
      auto guard = counter.lock();
      auto outputs = (*decrement)({counter.buffer()});
      ASSERT_TRUE(bool(outputs)) << errorText(outputs.takeError());
    }
  };
  std::thread a(work), b(work);
  a.join();
  b.join();
  EXPECT_EQ(counter.value().toVector<int64_t>(),
            (std::vector<int64_t>{1000 - 400}));
}

} // namespace
