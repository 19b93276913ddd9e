//===- CudaNoDriverTest.cpp - Target::cuda where no driver loads ----------===//
//
// Its own executable: the shim loads the driver once per process, and these
// tests point it at a library that does not exist before anything loads it.
//
//===----------------------------------------------------------------------===//

#include "tracec/ABI/CudaRuntime.h"
#include "tracec/Runtime/Executable.h"

#include "CudaDriver.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace tracec;

namespace {

constexpr const char *kScale = R"mlir(
func.func @scale(%x: tensor<4xf32>) -> tensor<4xf32> {
  %two = trace.constant dense<2.0> : tensor<4xf32>
  %y = trace.mul %x, %two : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
)mlir";

class CudaNoDriverTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    setenv("TRACEC_CUDA_DRIVER", "/nonexistent/libcuda.so.1", /*overwrite=*/1);
  }
};

TEST_F(CudaNoDriverTest, DriverReportsWhyItIsMissing) {
  std::string why;
  EXPECT_FALSE(cuda::driverAvailable(&why));
  EXPECT_NE(why.find("CUDA driver not found"), std::string::npos) << why;
  EXPECT_NE(why.find("/nonexistent/libcuda.so.1"), std::string::npos) << why;
}

TEST_F(CudaNoDriverTest, CompileReportsTheMissingDriver) {
  Compiler compiler;
  auto module = compiler.parseString(kScale, "scale.mlir");
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  CompileOptions options;
  options.target = Target::cuda;
  auto exe = Executable::compile(*module, options);
  ASSERT_FALSE(bool(exe));
  std::string error = llvm::toString(exe.takeError());
  EXPECT_NE(error.find("cannot load the GPU kernels: CUDA driver not found"),
            std::string::npos)
      << error;
}

/// Every entry point the compiled code calls fails softly: the first error
/// is kept, later calls neither crash nor replace it, and memory handed out
/// is usable host memory.
TEST_F(CudaNoDriverTest, EntryPointsFailWithoutCrashing) {
  cuda::beginCall();
  const cuda::EntryPoint *entries = cuda::entryPoints();
  auto lookup = [&](const char *name) -> void * {
    for (const cuda::EntryPoint *e = entries; e->name; ++e)
      if (std::string(e->name) == name)
        return e->address;
    return nullptr;
  };
  // The entry points' own types (UBSan's -fsanitize=function checks them).
  auto alloc = reinterpret_cast<void *(*)(uint64_t, cuda::CUstream, bool)>(
      lookup("mgpuMemAlloc"));
  auto free = reinterpret_cast<void (*)(void *, cuda::CUstream)>(
      lookup("mgpuMemFree"));
  auto stream =
      reinterpret_cast<cuda::CUstream (*)()>(lookup("mgpuStreamCreate"));
  auto load = reinterpret_cast<cuda::CUmodule (*)(void *, int)>(
      lookup("mgpuModuleLoadJIT"));
  ASSERT_TRUE(alloc && free && stream && load);

  char ptx[] = ".version 7.0\n";
  EXPECT_EQ(load(ptx, 2), nullptr);
  EXPECT_EQ(stream(), nullptr);
  auto *buffer = static_cast<float *>(alloc(64, nullptr, true));
  ASSERT_NE(buffer, nullptr);
  buffer[15] = 1.0f; // host memory: writable
  free(buffer, nullptr);

  std::string error = cuda::takeError();
  EXPECT_EQ(error.rfind("CUDA driver not found", 0), 0u) << error;
  EXPECT_EQ(cuda::takeError(), "");
}

} // namespace
