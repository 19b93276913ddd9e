//===- CudaFakeDriverTest.cpp - The JIT's GPU path on a fake driver -------===//
//
// FakeCudaDriver (a shared library with the driver's entry points, running
// nothing) stands in for libcuda.so.1: compiled host code, the runtime shim
// and Executable are checked end to end on a machine without a GPU. The
// kernels do not run, so results are not checked here (run-on-gpu.mlir and
// CudaExecutableTests do that on a GPU).
//
//===----------------------------------------------------------------------===//

#include "FakeCudaDriver.h"

#include "tracec/Runtime/Executable.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <dlfcn.h>

using namespace tracec;

namespace {

// exp then a row sum: an elementwise kernel (64 x 1024 -> 4 x 64 blocks of
// 256 threads) and a block reduction (64 blocks of 256 threads).
constexpr const char *kModule = R"mlir(
func.func @f(%x: tensor<64x1024xf32>) -> (tensor<64x1024xf32>, tensor<64xf32>) {
  %e = trace.exp %x : tensor<64x1024xf32>
  %s = trace.reduce_sum %e {axes = array<i64: 1>} : tensor<64x1024xf32> -> tensor<64xf32>
  return %e, %s : tensor<64x1024xf32>, tensor<64xf32>
}
)mlir";

class CudaFakeDriverTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    setenv("TRACEC_CUDA_DRIVER", TRACEC_FAKE_CUDA_DRIVER, /*overwrite=*/1);
  }

  void SetUp() override {
    void *library = dlopen(TRACEC_FAKE_CUDA_DRIVER, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(library, nullptr) << dlerror();
    stats = reinterpret_cast<decltype(stats)>(dlsym(library, "fakeCudaStats"));
    reset = reinterpret_cast<decltype(reset)>(dlsym(library, "fakeCudaReset"));
    ASSERT_TRUE(stats && reset);
    reset(0);
    auto module = compiler.parseString(kModule, "f.mlir");
    ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
    CompileOptions options;
    options.target = Target::cuda;
    auto compiled = Executable::compile(*module, options);
    ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
    exe = std::move(*compiled);
  }

  FakeCudaStats seen() {
    FakeCudaStats result;
    stats(&result);
    return result;
  }

  void (*stats)(FakeCudaStats *) = nullptr;
  void (*reset)(int) = nullptr;
  Compiler compiler;
  std::unique_ptr<Executable> exe;
};

TEST_F(CudaFakeDriverTest, CompileLoadsThePtx) {
  FakeCudaStats s = seen();
  // One gpu.binary per kernel: exp, the sum's initial zeros, the sum.
  EXPECT_EQ(s.modulesLoaded, 3);
  EXPECT_NE(s.lastModule.find(".target sm_80"), std::string::npos);
  EXPECT_NE(s.lastModule.find(".visible .entry f_kernel("),
            std::string::npos);
}

TEST_F(CudaFakeDriverTest, DestroyingTheExecutableUnloadsItsKernels) {
  EXPECT_EQ(seen().modulesUnloaded, 0);
  exe.reset();
  EXPECT_EQ(seen().modulesUnloaded, 3);
}

TEST_F(CudaFakeDriverTest, CallLaunchesEachKernelAndFreesEverything) {
  auto f = exe->function("f");
  ASSERT_TRUE(bool(f)) << llvm::toString(f.takeError());
  reset(0);
  Tensor x = Tensor::zeros(DType::f32, {64, 1024});
  auto out = (*f)({x});
  ASSERT_TRUE(bool(out)) << llvm::toString(out.takeError());
  FakeCudaStats s = seen();
  // exp (4 x 64 blocks of 256 threads), the sum's initial zeros (one block
  // of 64 threads), the sum (a block of 256 threads per row).
  ASSERT_EQ(s.launches.size(), 3u);
  EXPECT_EQ(s.launches[0].grid, (std::array<unsigned, 3>{4, 64, 1}));
  EXPECT_EQ(s.launches[0].block, (std::array<unsigned, 3>{256, 1, 1}));
  EXPECT_EQ(s.launches[2].grid, (std::array<unsigned, 3>{64, 1, 1}));
  EXPECT_EQ(s.launches[2].block, (std::array<unsigned, 3>{256, 1, 1}));
  EXPECT_GT(s.allocations, 0);
  EXPECT_EQ(s.allocations, s.frees);
}

/// A failed launch is the call's error; nothing is launched after it, every
/// buffer is still freed, and the next call starts afresh.
TEST_F(CudaFakeDriverTest, LaunchFailureIsTheCallsError) {
  auto f = exe->function("f");
  ASSERT_TRUE(bool(f)) << llvm::toString(f.takeError());
  Tensor x = Tensor::zeros(DType::f32, {64, 1024});
  reset(/*CUDA_ERROR_LAUNCH_FAILED=*/719);
  auto failed = (*f)({x});
  ASSERT_FALSE(bool(failed));
  EXPECT_EQ(llvm::toString(failed.takeError()),
            "@f failed on the GPU: cuLaunchKernel: CUDA_ERROR_LAUNCH_FAILED "
            "(unspecified launch failure)");
  FakeCudaStats s = seen();
  EXPECT_TRUE(s.launches.empty());
  EXPECT_EQ(s.allocations, s.frees);

  reset(0);
  auto again = (*f)({x});
  ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError());
  EXPECT_EQ(seen().launches.size(), 3u);
}

} // namespace
