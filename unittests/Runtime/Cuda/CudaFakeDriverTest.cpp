//===- CudaFakeDriverTest.cpp - The JIT's GPU path on a fake driver -------===//
//
// FakeCudaDriver (a shared library with the driver's entry points, running
// nothing) stands in for libcuda.so.1: compiled host code, the runtime shim
// and Executable are checked end to end on a machine without a GPU. The
// kernels do not run, so results are not checked here (run-on-gpu.mlir and
// CudaExecutableTests do that on a GPU).
//
//===----------------------------------------------------------------------===//

#include "BlockCache.h"
#include "FakeCudaDriver.h"

#include "tracec/ABI/tracec_cuda.h"
#include "tracec/Runtime/DLPack.h"
#include "tracec/Runtime/Executable.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <dlfcn.h>

using namespace tracec;

namespace {

// exp then a column sum: an elementwise kernel (64 x 1024 -> 4 x 64 blocks
// of 256 threads), the sum's zeros (4 blocks of 256 threads) and a block
// reduction (1024 blocks of 64 threads). (A row sum would join exp in one
// kernel: trace-gpu-row-blocks.)
constexpr const char *kModule = R"mlir(
func.func @f(%x: tensor<64x1024xf32>) -> (tensor<64x1024xf32>, tensor<1024xf32>) {
  %e = trace.exp %x : tensor<64x1024xf32>
  %s = trace.reduce_sum %e {axes = array<i64: 0>} : tensor<64x1024xf32> -> tensor<1024xf32>
  return %e, %s : tensor<64x1024xf32>, tensor<1024xf32>
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
    fakeReset =
        reinterpret_cast<decltype(fakeReset)>(dlsym(library, "fakeCudaReset"));
    ASSERT_TRUE(stats && fakeReset);
    reset(0);
    auto module = compiler.parseString(source(), "f.mlir");
    ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
    auto compiled = Executable::compile(*module, options());
    ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
    exe = std::move(*compiled);
  }

  virtual const char *source() const { return kModule; }
  virtual CompileOptions options() const {
    CompileOptions options;
    options.target = Target::cuda;
    return options;
  }

  /// The driver's counts since the last reset, the cache's idle blocks
  /// freed first: every buffer a call freed counts as freed.
  FakeCudaStats seen() {
    tracec_cuda_empty_cache();
    return counted();
  }

  /// The driver's counts as they are (cached blocks not freed).
  FakeCudaStats counted() {
    FakeCudaStats result;
    stats(&result);
    return result;
  }

  /// Forgets the counts (and the cache, whose blocks count as freed before)
  /// and makes every driver call return `error` from now on.
  void reset(int error) {
    tracec_cuda_empty_cache();
    fakeReset(error);
  }

  /// The launches of one call of `name` on `inputs`, which must succeed;
  /// every buffer it made is freed once its results are.
  std::vector<FakeLaunch> launchesOf(const char *name,
                                     std::vector<Tensor> inputs) {
    auto f = exe->function(name);
    EXPECT_TRUE(bool(f)) << llvm::toString(f.takeError());
    if (!f)
      return {};
    reset(0);
    auto out = (*f)(inputs);
    EXPECT_TRUE(bool(out)) << llvm::toString(out.takeError());
    if (!out)
      return {};
    out->clear(); // the results, in the device's memory, freed too
    FakeCudaStats s = seen();
    EXPECT_EQ(s.allocations, s.frees);
    return s.launches;
  }

  void (*stats)(FakeCudaStats *) = nullptr;
  void (*fakeReset)(int) = nullptr;
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
  out->clear(); // the results, in the device's memory, freed too
  FakeCudaStats s = seen();
  // exp (4 x 64 blocks of 256 threads), the sum's initial zeros (4 blocks
  // of 256 threads), the sum (a block of 64 threads per column).
  ASSERT_EQ(s.launches.size(), 3u);
  EXPECT_EQ(s.launches[0].grid, (std::array<unsigned, 3>{4, 64, 1}));
  EXPECT_EQ(s.launches[0].block, (std::array<unsigned, 3>{256, 1, 1}));
  EXPECT_EQ(s.launches[1].grid, (std::array<unsigned, 3>{4, 1, 1}));
  EXPECT_EQ(s.launches[1].block, (std::array<unsigned, 3>{256, 1, 1}));
  EXPECT_EQ(s.launches[2].grid, (std::array<unsigned, 3>{1024, 1, 1}));
  EXPECT_EQ(s.launches[2].block, (std::array<unsigned, 3>{64, 1, 1}));
  EXPECT_GT(s.allocations, 0);
  EXPECT_EQ(s.allocations, s.frees);
}

/// Buffers a call frees stay in the cache for the next call: a steady loop
/// of calls allocates nothing from the driver, and emptying the cache frees
/// what it holds.
TEST_F(CudaFakeDriverTest, LaterCallsReuseTheFirstCallsBuffers) {
  auto f = exe->function("f");
  ASSERT_TRUE(bool(f)) << llvm::toString(f.takeError());
  Tensor x = Tensor::zeros(DType::f32, {64, 1024});
  reset(0);
  ASSERT_TRUE(bool((*f)({x})));
  FakeCudaStats first = counted();
  EXPECT_GT(first.allocations, 0);
  EXPECT_EQ(first.frees, 0);
  for (int call = 0; call < 3; ++call)
    ASSERT_TRUE(bool((*f)({x})));
  FakeCudaStats later = counted();
  EXPECT_EQ(later.launches.size(), 12u);
  EXPECT_EQ(later.allocations, first.allocations);
  EXPECT_EQ(later.frees, 0);
  EXPECT_GT(tracec_cuda_empty_cache(), 0u);
  EXPECT_EQ(counted().frees, first.allocations);
  EXPECT_EQ(tracec_cuda_empty_cache(), 0u);
}

/// The kernels of a call go on one stream, back to back: the host waits
/// for the device once after them, not after each.
TEST_F(CudaFakeDriverTest, LaunchesShareAStreamWithoutAWaitBetween) {
  auto f = exe->function("f");
  ASSERT_TRUE(bool(f)) << llvm::toString(f.takeError());
  Tensor x = Tensor::zeros(DType::f32, {64, 1024});
  reset(0);
  ASSERT_TRUE(bool((*f)({x})));
  FakeCudaStats s = counted();
  ASSERT_EQ(s.launches.size(), 3u);
  for (const FakeLaunch &launch : s.launches) {
    EXPECT_EQ(launch.stream, s.launches[0].stream) << launch.kernel;
    EXPECT_EQ(launch.synchronizationsBefore,
              s.launches[0].synchronizationsBefore)
        << launch.kernel;
  }
  EXPECT_GT(s.synchronizations, s.launches.back().synchronizationsBefore);
}

TEST_F(CudaFakeDriverTest, AWarmCallWaitsOnceAndCreatesNoStream) {
  auto f = exe->function("f");
  ASSERT_TRUE(bool(f)) << llvm::toString(f.takeError());
  Tensor x = Tensor::zeros(DType::f32, {64, 1024});
  ASSERT_TRUE(bool((*f)({x}))); // the first call makes streams and buffers
  fakeReset(0);                 // (the counts only: the cache stays)
  ASSERT_TRUE(bool((*f)({x})));
  FakeCudaStats s = counted();
  ASSERT_EQ(s.launches.size(), 3u);
  // The call's stream and those of its frees come from the pool, its
  // buffers from the cache; the host waits for the device once, after the
  // last launch, not once more per buffer it frees.
  EXPECT_EQ(s.streams, 0);
  EXPECT_EQ(s.allocations, 0);
  EXPECT_EQ(s.launches.back().synchronizationsBefore, 0);
  EXPECT_EQ(s.synchronizations, 1);
}

/// A call's results are in the device's memory, and a later call given
/// one uses it in place: no managed twin, no copy through the host.
TEST_F(CudaFakeDriverTest, ResultsStayOnTheDeviceForTheNextCall) {
  auto f = exe->function("f");
  ASSERT_TRUE(bool(f)) << llvm::toString(f.takeError());
  Tensor x = Tensor::zeros(DType::f32, {64, 1024});
  EXPECT_EQ(tracec_cuda_is_managed(x.rawData()), 0);
  reset(0);
  auto first = (*f)({x});
  ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
  // The two results, and the twin of the host input.
  EXPECT_EQ(counted().allocations, 3);
  for (const Tensor &result : *first)
    EXPECT_EQ(tracec_cuda_is_managed(result.rawData()), 1);
  // exp's result is the next call's input (64x1024 f32, as x): the two
  // new results only.
  reset(0);
  auto second = (*f)({(*first)[0]});
  ASSERT_TRUE(bool(second)) << llvm::toString(second.takeError());
  EXPECT_EQ(counted().allocations, 2);
  EXPECT_EQ(counted().launches.size(), 3u);
}

// softmax is one kernel, a block per row (trace-gpu-row-blocks), where it
// was six (two fills, max, exp, sum, divide).
TEST_F(CudaFakeDriverTest, SoftmaxIsOneKernelABlockPerRow) {
  auto module = compiler.parseString(R"mlir(
func.func @softmax(%x: tensor<64x1000xf32>) -> tensor<64x1000xf32> {
  %0 = trace.softmax %x : tensor<64x1000xf32>
  return %0 : tensor<64x1000xf32>
}
)mlir",
                                     "softmax.mlir");
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  auto compiled = Executable::compile(*module, options());
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  exe = std::move(*compiled);
  std::vector<FakeLaunch> launches =
      launchesOf("softmax", {Tensor::zeros(DType::f32, {64, 1000})});
  ASSERT_EQ(launches.size(), 1u);
  EXPECT_EQ(launches[0].grid, (std::array<unsigned, 3>{64, 1, 1}));
  EXPECT_EQ(launches[0].block, (std::array<unsigned, 3>{256, 1, 1}));
}

// DLPack with other frameworks' GPU tensors: a GPU result goes out as a
// CUDA tensor over the same memory, and comes back in place; memory the
// host cannot read (CUDA device memory: the fake driver's cuMemAlloc, not
// managed) comes in as a managed copy, after a wait for the default stream.
TEST_F(CudaFakeDriverTest, DLPackKeepsManagedMemoryAndCopiesDeviceMemory) {
  auto f = exe->function("f");
  ASSERT_TRUE(bool(f)) << llvm::toString(f.takeError());
  auto results = (*f)({Tensor::zeros(DType::f32, {64, 1024})});
  ASSERT_TRUE(bool(results)) << llvm::toString(results.takeError());
  Tensor sums = (*results)[1];
  dlpack::DLManagedTensor *exported = toDLPack(sums);
  EXPECT_EQ(exported->dl_tensor.device.device_type, dlpack::kDLCUDA);
  EXPECT_EQ(exported->dl_tensor.device.device_id, 0);
  reset(0);
  llvm::Expected<Tensor> back = fromDLPack(exported);
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->rawData(), sums.rawData());
  EXPECT_EQ(counted().allocations, 0);
  EXPECT_EQ(counted().synchronizations, 1);

  struct DeviceTensor {
    std::vector<float> memory{1, 2, 3, 4};
    int64_t shape[1] = {4};
    dlpack::DLManagedTensor managed{};
    int deleted = 0;
  } device;
  device.managed.dl_tensor = {device.memory.data(),
                              {dlpack::kDLCUDA, 0},
                              1,
                              {dlpack::kDLFloat, 32, 1},
                              device.shape,
                              nullptr,
                              0};
  device.managed.manager_ctx = &device;
  device.managed.deleter = [](dlpack::DLManagedTensor *self) {
    ++static_cast<DeviceTensor *>(self->manager_ctx)->deleted;
  };
  reset(0);
  llvm::Expected<Tensor> copied = fromDLPack(&device.managed);
  ASSERT_TRUE(bool(copied)) << llvm::toString(copied.takeError());
  EXPECT_NE(copied->rawData(), device.memory.data());
  EXPECT_EQ(tracec_cuda_is_managed(copied->rawData()), 1);
  EXPECT_EQ(copied->toVector<float>(), device.memory);
  EXPECT_EQ(counted().allocations, 1);
  EXPECT_EQ(device.deleted, 1) << "the copy does not need the source";

  device.managed.dl_tensor.device.device_id = 1;
  llvm::Expected<Tensor> other = fromDLPack(&device.managed);
  ASSERT_FALSE(bool(other));
  EXPECT_EQ(llvm::toString(other.takeError()),
            "DLPack tensor: CUDA device 1 (tracec runs on device 0)");
}

TEST(BlockCache, SizeClassesWasteAtMostAQuarter) {
  EXPECT_EQ(cuda::BlockCache::sizeClass(1), 512u);
  EXPECT_EQ(cuda::BlockCache::sizeClass(512), 512u);
  EXPECT_EQ(cuda::BlockCache::sizeClass(513), 640u);
  EXPECT_EQ(cuda::BlockCache::sizeClass(1024), 1024u);
  EXPECT_EQ(cuda::BlockCache::sizeClass(1025), 1280u);
  EXPECT_EQ(cuda::BlockCache::sizeClass(3 << 20), 3u << 20);
  for (size_t size = 1; size < (size_t(1) << 30); size = size * 3 / 2 + 7) {
    size_t rounded = cuda::BlockCache::sizeClass(size);
    EXPECT_GE(rounded, size);
    EXPECT_LE(rounded, std::max<size_t>(512, size + size / 4)) << size;
  }
}

TEST(BlockCache, BlocksAreReusedByClassAndKind) {
  cuda::BlockCache cache;
  int device, managed;
  EXPECT_EQ(cache.take(1000, false), nullptr);
  cache.adopt(&device, 1000, false);
  cache.adopt(&managed, 1000, true);
  EXPECT_FALSE(cache.give(&cache)); // not one of its blocks
  EXPECT_TRUE(cache.give(&device));
  EXPECT_FALSE(cache.give(&device)); // idle already
  EXPECT_EQ(cache.idleBytes(), 1024u);
  EXPECT_EQ(cache.take(1000, true), nullptr);  // managed: in use
  EXPECT_EQ(cache.take(2000, false), nullptr); // another class
  EXPECT_EQ(cache.take(900, false), &device);  // 900 and 1000: 1024 bytes
  EXPECT_EQ(cache.idleBytes(), 0u);
  EXPECT_TRUE(cache.give(&device));
  EXPECT_TRUE(cache.give(&managed));
  std::vector<void *> released = cache.release();
  EXPECT_EQ(released.size(), 2u);
  EXPECT_EQ(cache.take(1000, false), nullptr);
  EXPECT_FALSE(cache.give(&device)); // released: no longer the cache's
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

// One compile for every size: ? rows. Grids are computed at run time from
// the arguments' dims, and clamped to CUDA's limits (the kernels then
// stride over the blocks they stand for).
constexpr const char *kDynamicModule = R"mlir(
func.func @f(%x: tensor<?x1024xf32>) -> (tensor<?x1024xf32>, tensor<?xf32>) {
  %e = trace.exp %x : tensor<?x1024xf32>
  %s = trace.reduce_sum %e {axes = array<i64: 1>} : tensor<?x1024xf32> -> tensor<?xf32>
  return %e, %s : tensor<?x1024xf32>, tensor<?xf32>
}
func.func @mm(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = trace.matmul %a, %b : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
)mlir";

class CudaFakeDriverDynamicTest : public CudaFakeDriverTest {
protected:
  const char *source() const override { return kDynamicModule; }
};

using Grid = std::array<unsigned, 3>;

/// Where ? results are computed in temporaries and copied to the outputs
/// (no hoisting of dynamic allocations into the out-params), one copy
/// kernel per result follows, shaped like the result's producer: the
/// launches from `first` on are none or exactly those.
static void expectResultCopies(const std::vector<FakeLaunch> &launches,
                               size_t first, std::vector<Grid> copies) {
  if (launches.size() == first)
    return;
  ASSERT_EQ(launches.size(), first + copies.size());
  for (size_t i = 0; i < copies.size(); ++i)
    EXPECT_EQ(launches[first + i].grid, copies[i]) << first + i;
}

TEST_F(CudaFakeDriverDynamicTest, GridsFollowTheRowsAtEachSize) {
  for (int64_t rows : {7, 300}) {
    SCOPED_TRACE("rows = " + std::to_string(rows));
    std::vector<FakeLaunch> launches =
        launchesOf("f", {Tensor::zeros(DType::f32, {rows, 1024})});
    // exp, the sum's zeros and the sum work along rows: one kernel, a
    // block of 256 threads per row (the row's length is known, 1024).
    ASSERT_GE(launches.size(), 1u);
    unsigned r = rows;
    EXPECT_EQ(launches[0].grid, (Grid{r, 1, 1}));
    EXPECT_EQ(launches[0].block, (Grid{256, 1, 1}));
    expectResultCopies(launches, 1,
                       {Grid{4, r, 1}, Grid{(r + 255) / 256, 1, 1}});
  }
}

TEST_F(CudaFakeDriverDynamicTest, TiledMatmulGridAtEachSize) {
  for (auto [m, k, n] : {std::array<int64_t, 3>{5, 3, 40},
                         std::array<int64_t, 3>{100, 70, 17}}) {
    SCOPED_TRACE("m, k, n = " + std::to_string(m) + ", " + std::to_string(k) +
                 ", " + std::to_string(n));
    std::vector<FakeLaunch> launches =
        launchesOf("mm", {Tensor::zeros(DType::f32, {m, k}),
                          Tensor::zeros(DType::f32, {k, n})});
    // C's zeros (256 threads along its ? columns, a block per row), the
    // 16 x 16 tiles: ceil(n / 16) x ceil(m / 16).
    ASSERT_GE(launches.size(), 2u);
    unsigned rows = m, columnBlocks = (n + 255) / 256;
    EXPECT_EQ(launches[0].grid, (Grid{columnBlocks, rows, 1}));
    EXPECT_EQ(launches[0].block, (Grid{256, 1, 1}));
    unsigned tilesN = (n + 15) / 16, tilesM = (m + 15) / 16;
    EXPECT_EQ(launches[1].grid, (Grid{tilesN, tilesM, 1}));
    EXPECT_EQ(launches[1].block, (Grid{16, 16, 1}));
    expectResultCopies(launches, 2, {launches[0].grid});
  }
}

/// ceil(m / 16) over CUDA's 65535 blocks in y: the launch is clamped, the
/// blocks stride over the tiles (the PTX is checked in test/Pipelines/gpu).
TEST_F(CudaFakeDriverDynamicTest, GridOverTheLimitIsClamped) {
  int64_t m = 1100000; // ceil(m / 16) = 68750 tiles of rows
  std::vector<FakeLaunch> launches =
      launchesOf("mm", {Tensor::zeros(DType::f32, {m, 1}),
                        Tensor::zeros(DType::f32, {1, 1})});
  // The zeros (a block per row: m) are clamped too.
  ASSERT_GE(launches.size(), 2u);
  expectResultCopies(launches, 2, {Grid{1, 65535, 1}});
  for (const FakeLaunch &launch : launches)
    EXPECT_EQ(launch.grid, (Grid{1, 65535, 1}));
  EXPECT_EQ(launches[1].block, (Grid{16, 16, 1}));
}

/// No rows: a grid of 0 blocks would be a launch error; each launch gets
/// one block, whose grid-stride loop runs no iteration.
TEST_F(CudaFakeDriverDynamicTest, EmptyBatchLaunchesOneIdleBlock) {
  std::vector<FakeLaunch> launches =
      launchesOf("f", {Tensor::zeros(DType::f32, {0, 1024})});
  // exp, the zeros and the sum: one kernel (a block per row) of 1 block,
  // not 0.
  ASSERT_GE(launches.size(), 1u);
  EXPECT_EQ(launches[0].grid, (Grid{1, 1, 1}));
  expectResultCopies(launches, 1, {Grid{4, 1, 1}, Grid{1, 1, 1}});
}

/// Sizes that disagree: the shape function (host code, no CUDA) reports
/// them before anything reaches the device.
TEST_F(CudaFakeDriverDynamicTest, MismatchFailsBeforeAnyLaunch) {
  auto f = exe->function("mm");
  ASSERT_TRUE(bool(f)) << llvm::toString(f.takeError());
  reset(0);
  auto out = (*f)(
      {Tensor::zeros(DType::f32, {4, 3}), Tensor::zeros(DType::f32, {5, 2})});
  ASSERT_FALSE(bool(out));
  std::string message = llvm::toString(out.takeError());
  EXPECT_NE(message.find("@mm: argument 0 dim 1 is 3 but argument 1 dim 0 "
                         "is 5"),
            std::string::npos)
      << message;
  FakeCudaStats s = seen();
  EXPECT_TRUE(s.launches.empty());
  EXPECT_EQ(s.allocations, 0);
}

TEST_F(CudaFakeDriverDynamicTest, ShapeFunctionTouchesNoGpu) {
  auto f = exe->function("f");
  ASSERT_TRUE(bool(f)) << llvm::toString(f.takeError());
  reset(0);
  auto shapes = f->resultShapes({Tensor::zeros(DType::f32, {9, 1024})});
  ASSERT_TRUE(bool(shapes)) << llvm::toString(shapes.takeError());
  ASSERT_EQ(shapes->size(), 2u);
  EXPECT_EQ((*shapes)[0], (llvm::SmallVector<int64_t, 4>{9, 1024}));
  EXPECT_EQ((*shapes)[1], (llvm::SmallVector<int64_t, 4>{9}));
  FakeCudaStats s = seen();
  EXPECT_TRUE(s.launches.empty());
  EXPECT_EQ(s.allocations, 0);
}

// Static matmuls that tile into tensor-core instructions (sm_80): f16,
// bf16, and f32 in TF32 where CompileOptions::tf32 asks for it.
constexpr const char *kTensorCoreModule = R"mlir(
func.func @mm(%a: tensor<64x32xf16>, %b: tensor<32x16xf16>) -> tensor<64x16xf16> {
  %0 = trace.matmul %a, %b : (tensor<64x32xf16>, tensor<32x16xf16>) -> tensor<64x16xf16>
  return %0 : tensor<64x16xf16>
}
func.func @brain(%a: tensor<64x32xbf16>, %b: tensor<32x16xbf16>) -> tensor<64x16xbf16> {
  %0 = trace.matmul %a, %b : (tensor<64x32xbf16>, tensor<32x16xbf16>) -> tensor<64x16xbf16>
  return %0 : tensor<64x16xbf16>
}
func.func @single(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %0 = trace.matmul %a, %b : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
  return %0 : tensor<64x16xf32>
}
func.func @blocks(%a: tensor<256x64xf16>, %b: tensor<64x192xf16>) -> tensor<256x192xf16> {
  %0 = trace.matmul %a, %b : (tensor<256x64xf16>, tensor<64x192xf16>) -> tensor<256x192xf16>
  return %0 : tensor<256x192xf16>
}
func.func @scores(%q: tensor<4x64x32xf16>, %k: tensor<4x64x32xf16>) -> tensor<4x64x64xf16> {
  %0 = trace.matmul %q, %k {transpose_b} : (tensor<4x64x32xf16>, tensor<4x64x32xf16>) -> tensor<4x64x64xf16>
  return %0 : tensor<4x64x64xf16>
}
)mlir";

class CudaFakeDriverTensorCoreTest
    : public CudaFakeDriverTest,
      public ::testing::WithParamInterface<bool> {
protected:
  const char *source() const override { return kTensorCoreModule; }
  CompileOptions options() const override {
    CompileOptions options = CudaFakeDriverTest::options();
    options.tf32 = GetParam();
    return options;
  }

  /// The launches of `name` on zeros of `dtype`, 64x32 and 32x16.
  std::vector<FakeLaunch> launchesOf(const char *name, DType dtype) {
    return CudaFakeDriverTest::launchesOf(
        name, {Tensor::zeros(dtype, {64, 32}), Tensor::zeros(dtype, {32, 16})});
  }
};

TEST_P(CudaFakeDriverTensorCoreTest, HalfMatmulsLaunchAWarpPer16x8Tile) {
  for (auto [name, dtype] :
       {std::pair{"mm", DType::f16}, std::pair{"brain", DType::bf16}}) {
    SCOPED_TRACE(name);
    std::vector<FakeLaunch> launches = launchesOf(name, dtype);
    // C's f32 zeros, the mma.sync kernel (16/8 x 64/16 warps of 32
    // lanes), the f32 -> 16-bit conversion.
    ASSERT_EQ(launches.size(), 3u);
    EXPECT_EQ(launches[1].grid, (Grid{2, 4, 1}));
    EXPECT_EQ(launches[1].block, (Grid{32, 1, 1}));
  }
}

TEST_P(CudaFakeDriverTensorCoreTest, WholeBlocksStageThroughSharedMemory) {
  std::vector<FakeLaunch> launches = CudaFakeDriverTest::launchesOf(
      "blocks", {Tensor::zeros(DType::f16, {256, 64}),
                 Tensor::zeros(DType::f16, {64, 192})});
  // n = 192 is no multiple of 128: blocks of 64 x 64 of C, 4 warps each
  // (192/64 x 256/64), between C's zeros and the conversion; three stages
  // of A's 64 x (32 + 8) and B's 32 x (64 + 8) halves in dynamic shared
  // memory.
  ASSERT_EQ(launches.size(), 3u);
  EXPECT_EQ(launches[1].grid, (Grid{3, 4, 1}));
  EXPECT_EQ(launches[1].block, (Grid{128, 1, 1}));
  EXPECT_EQ(launches[1].sharedBytes, 3u * (64 * 40 + 32 * 72) * 2);
}

TEST_P(CudaFakeDriverTensorCoreTest, BatchedScoresAreABlockGridPerBatch) {
  std::vector<FakeLaunch> launches = CudaFakeDriverTest::launchesOf(
      "scores", {Tensor::zeros(DType::f16, {4, 64, 32}),
                 Tensor::zeros(DType::f16, {4, 64, 32})});
  // Q K^T of 4 batches: a 64 x 64 block of 4 warps per batch (grid z).
  ASSERT_EQ(launches.size(), 3u);
  EXPECT_EQ(launches[1].grid, (Grid{1, 1, 4}));
  EXPECT_EQ(launches[1].block, (Grid{128, 1, 1}));
}

TEST_P(CudaFakeDriverTensorCoreTest, SingleMatmulUsesTensorCoresOnlyInTf32) {
  std::vector<FakeLaunch> launches = launchesOf("single", DType::f32);
  // C's zeros, then a warp per 16x8 tile (TF32) or 16x16 threads per
  // 16x16 tile (the shared-memory kernel, full f32 precision).
  ASSERT_EQ(launches.size(), 2u);
  if (GetParam()) {
    EXPECT_EQ(launches[1].grid, (Grid{2, 4, 1}));
    EXPECT_EQ(launches[1].block, (Grid{32, 1, 1}));
  } else {
    EXPECT_EQ(launches[1].grid, (Grid{1, 4, 1}));
    EXPECT_EQ(launches[1].block, (Grid{16, 16, 1}));
  }
}

INSTANTIATE_TEST_SUITE_P(Tf32, CudaFakeDriverTensorCoreTest, ::testing::Bool());

constexpr const char *kHopperModule = R"mlir(
func.func @hopper(%a: tensor<256x128xbf16>, %b: tensor<128x384xbf16>) -> tensor<256x384xbf16> {
  %0 = trace.matmul %a, %b : (tensor<256x128xbf16>, tensor<128x384xbf16>) -> tensor<256x384xbf16>
  return %0 : tensor<256x384xbf16>
}
)mlir";

/// Code for sm_90a: 16-bit matmuls by TMA and wgmma.
class CudaFakeDriverHopperTest : public CudaFakeDriverTest {
protected:
  const char *source() const override { return kHopperModule; }
  CompileOptions options() const override {
    CompileOptions options = CudaFakeDriverTest::options();
    options.chip = "sm_90a";
    return options;
  }
};

TEST_F(CudaFakeDriverHopperTest, WarpgroupsLoadTheirTilesThroughTensorMaps) {
  auto f = exe->function("hopper");
  ASSERT_TRUE(bool(f)) << llvm::toString(f.takeError());
  std::vector<Tensor> inputs = {Tensor::zeros(DType::bf16, {256, 128}),
                                Tensor::zeros(DType::bf16, {128, 384})};
  reset(0);
  auto out = (*f)(inputs);
  ASSERT_TRUE(bool(out)) << llvm::toString(out.takeError());
  FakeCudaStats first = counted();
  // C's zeros, a warpgroup (128 threads) per 128 x 128 tile of C with 4
  // stages of 32 KB in dynamic shared memory (and 1 KB to align them),
  // the conversion to bf16.
  ASSERT_EQ(first.launches.size(), 3u);
  EXPECT_EQ(first.launches[1].grid, (Grid{3, 2, 1}));
  EXPECT_EQ(first.launches[1].block, (Grid{128, 1, 1}));
  EXPECT_EQ(first.launches[1].sharedBytes, 4u * 32768 + 1024);
  // A's map: 128 x 64 boxes (128-byte rows, swizzled), B's 64 x 64; dims
  // innermost first, the row stride in bytes; bf16 is data type 9.
  ASSERT_EQ(first.tensorMaps.size(), 2u);
  const FakeTensorMap &a = first.tensorMaps[0], &b = first.tensorMaps[1];
  EXPECT_EQ(a.dataType, 9);
  EXPECT_EQ(a.dims, (std::vector<unsigned long long>{128, 256}));
  EXPECT_EQ(a.strides, (std::vector<unsigned long long>{256}));
  EXPECT_EQ(a.box, (std::vector<unsigned>{64, 128}));
  EXPECT_EQ(a.swizzle, 3); // CU_TENSOR_MAP_SWIZZLE_128B
  EXPECT_EQ(b.dims, (std::vector<unsigned long long>{384, 128}));
  EXPECT_EQ(b.strides, (std::vector<unsigned long long>{768}));
  EXPECT_EQ(b.box, (std::vector<unsigned>{64, 64}));
  out->clear();

  // Again: the maps go to the device memory the first call's took (a slab
  // of 512): nothing allocated that is not freed.
  reset(0);
  auto again = (*f)(inputs);
  ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError());
  again->clear();
  FakeCudaStats second = seen();
  EXPECT_EQ(second.tensorMaps.size(), 2u);
  EXPECT_EQ(second.allocations, second.frees);
}

} // namespace
