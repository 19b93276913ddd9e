//===- SteadyStateAllocationTest.cpp - Warm calls allocate nothing --------===//
//
// This binary replaces malloc and its kin with counting wrappers around
// glibc's (symbol interposition: the executable's definitions come first,
// for libc itself, the libraries, and the JIT, whose code resolves
// malloc in the process). A warm call of a compiled function must not
// allocate: its intermediates live in a workspace (trace-plan-workspace),
// and Function::call keeps its descriptors inline. The same step compiled
// without the workspace is the control: it shows that the counter sees
// the JIT'd code's mallocs.
//
// Debian's libomp is a KMP_DEBUG build: __kmpc_for_static_init formats a
// trace string (malloc and free) on every thread of every parallel loop,
// whether tracing is on or not. Those calls come from libomp itself, not
// from compiled code; the counter keeps them apart by the caller's address.
//
//===----------------------------------------------------------------------===//

#include "tracec/Runtime/Executable.h"

#include <gtest/gtest.h>

#include <atomic>
#include <dlfcn.h>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <random>
#include <thread>

extern "C" {
void *__libc_malloc(size_t size);
void *__libc_calloc(size_t count, size_t size);
void *__libc_realloc(void *pointer, size_t size);
void *__libc_memalign(size_t alignment, size_t size);
void __libc_free(void *pointer);
}

extern "C" int omp_get_max_threads(void);

namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0}, openmpAllocations{0};
void *openmpBase = nullptr; // libomp's load address
thread_local bool inCount = false;

/// Counts an allocation made from `caller`.
void count(void *caller) {
  if (!counting.load(std::memory_order_relaxed) || inCount)
    return;
  inCount = true;
  Dl_info info;
  bool openmp = openmpBase && dladdr(caller, &info) &&
                info.dli_fbase == openmpBase;
  (openmp ? openmpAllocations : allocations)
      .fetch_add(1, std::memory_order_relaxed);
  inCount = false;
}
} // namespace

extern "C" {
void *malloc(size_t size) {
  count(__builtin_return_address(0));
  return __libc_malloc(size);
}
void *calloc(size_t count_, size_t size) {
  count(__builtin_return_address(0));
  return __libc_calloc(count_, size);
}
void *realloc(void *pointer, size_t size) {
  count(__builtin_return_address(0));
  return __libc_realloc(pointer, size);
}
void free(void *pointer) { __libc_free(pointer); }
void *aligned_alloc(size_t alignment, size_t size) {
  count(__builtin_return_address(0));
  return __libc_memalign(alignment, size);
}
void *memalign(size_t alignment, size_t size) {
  count(__builtin_return_address(0));
  return __libc_memalign(alignment, size);
}
int posix_memalign(void **out, size_t alignment, size_t size) {
  count(__builtin_return_address(0));
  *out = __libc_memalign(alignment, size);
  return *out ? 0 : 12; // ENOMEM
}
}

using namespace tracec;

namespace {

/// Allocations made by `body`, on any thread, but for libomp's own.
template <typename F> long allocationsOf(F &&body) {
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&omp_get_max_threads), &info))
    openmpBase = info.dli_fbase;
  allocations = 0;
  openmpAllocations = 0;
  counting = true;
  body();
  counting = false;
  if (openmpAllocations)
    std::printf("(libomp itself allocated %ld times)\n",
                openmpAllocations.load());
  return allocations.load();
}

struct Step {
  std::unique_ptr<Executable> exe;
  std::vector<Tensor> inputs, outputs;
  Function function() { return llvm::cantFail(exe->function(name)); }
  std::string name;
};

std::vector<float> randomValues(size_t n, std::mt19937 &rng) {
  std::normal_distribution<float> normal(0.0f, 0.05f);
  std::vector<float> values(n);
  for (float &v : values)
    v = normal(rng);
  return values;
}

/// Entry `name` of the module at `path` (relative to the source tree)
/// compiled with `options`, with random inputs.
Step compileStep(Compiler &compiler, const CompileOptions &options,
                 const std::string &path, const std::string &name) {
  auto module = compiler.parseFile(TRACEC_SOURCE_DIR "/" + path);
  EXPECT_TRUE(bool(module)) << llvm::toString(module.takeError());
  auto exe = Executable::compile(*module, options);
  EXPECT_TRUE(bool(exe)) << llvm::toString(exe.takeError());
  Step step{std::move(*exe), {}, {}, name};
  Function function = step.function();
  std::mt19937 rng(42);
  for (const TensorSpec &spec : function.signature().inputs) {
    int64_t n = 1;
    for (int64_t d : spec.shape)
      n *= d;
    if (spec.dtype == DType::i32) {
      std::vector<int32_t> labels(n);
      for (int64_t i = 0; i < n; ++i)
        labels[i] = static_cast<int32_t>(i % 10);
      step.inputs.push_back(
          llvm::cantFail(Tensor::fromVector<int32_t>(labels, spec.shape)));
    } else {
      step.inputs.push_back(llvm::cantFail(
          Tensor::fromVector<float>(randomValues(n, rng), spec.shape)));
    }
  }
  for (const TensorSpec &spec : function.signature().results)
    step.outputs.push_back(Tensor::zeros(spec.dtype, spec.shape));
  return step;
}

/// @loss_and_grads of bench/mlp.mlir (784-256-10, batch 64), the training
/// step's forward and backward. Its matmuls are large enough to run in
/// parallel with threads.
Step compileMlpStep(Compiler &compiler, const CompileOptions &options) {
  return compileStep(compiler, options, "bench/mlp.mlir", "loss_and_grads");
}

long warmCallAllocations(Step &step) {
  Function function = step.function();
  // Warm: the first calls may set up the OpenMP runtime's threads.
  for (int i = 0; i < 2; ++i)
    EXPECT_FALSE(bool(function.call(step.inputs, step.outputs)));
  return allocationsOf([&] {
    for (int i = 0; i < 3; ++i)
      EXPECT_FALSE(bool(function.call(step.inputs, step.outputs)));
  });
}

TEST(SteadyStateAllocation, CounterSeesCompiledCode) {
  Compiler compiler;
  CompileOptions options;
  options.threads = 1;
  options.workspace = false;
  Step step = compileMlpStep(compiler, options);
  // Each call mallocs its intermediates: the counter sees the JIT'd code.
  EXPECT_GE(warmCallAllocations(step), 3 * 5);
}

TEST(SteadyStateAllocation, MlpTrainingStepSerial) {
  Compiler compiler;
  CompileOptions options;
  options.threads = 1;
  Step step = compileMlpStep(compiler, options);
  EXPECT_EQ(warmCallAllocations(step), 0);
}

TEST(SteadyStateAllocation, MlpTrainingStepTwoThreads) {
  Compiler compiler;
  CompileOptions options;
  options.threads = 2;
  Step step = compileMlpStep(compiler, options);
  EXPECT_EQ(warmCallAllocations(step), 0);
}

// Softmax and its gradient reduce rows inside loops: their accumulators
// (a few vectors) are stack buffers, not a malloc per row
// (trace-stack-loop-buffers).
TEST(SteadyStateAllocation, AttentionTrainingStep) {
  Compiler compiler;
  CompileOptions options;
  options.threads = 1;
  Step step = compileStep(compiler, options, "bench/workloads/attention.mlir",
                          "train_step");
  EXPECT_EQ(warmCallAllocations(step), 0);
}

TEST(SteadyStateAllocation, ThreadCountDoesNotChangeResults) {
  Compiler compiler;
  CompileOptions serial, parallel;
  serial.threads = 1;
  parallel.threads = 2;
  Step one = compileMlpStep(compiler, serial);
  Step two = compileMlpStep(compiler, parallel);
  ASSERT_FALSE(bool(one.function().call(one.inputs, one.outputs)));
  ASSERT_FALSE(bool(two.function().call(two.inputs, two.outputs)));
  // Only parallel dimensions are split: every element is computed by the
  // same operations in the same order, so the results are bit for bit equal.
  for (size_t i = 0; i < one.outputs.size(); ++i) {
    std::vector<float> a = one.outputs[i].toVector<float>();
    std::vector<float> b = two.outputs[i].toVector<float>();
    ASSERT_EQ(a.size(), b.size());
    EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(float)))
        << "result " << i;
  }
}

/// A second thread calling while the first holds the workspace gets its
/// own (malloc'd) one; both get the right results.
TEST(SteadyStateAllocation, ConcurrentCallsAreCorrect) {
  Compiler compiler;
  CompileOptions options;
  options.threads = 1;
  Step step = compileMlpStep(compiler, options);
  Function function = step.function();
  ASSERT_FALSE(bool(function.call(step.inputs, step.outputs)));
  std::vector<std::vector<float>> expected;
  for (const Tensor &output : step.outputs)
    expected.push_back(output.toVector<float>());
  auto run = [&] {
    std::vector<Tensor> outputs;
    for (const Tensor &output : step.outputs)
      outputs.push_back(Tensor::zeros(output.dtype(), output.shape()));
    for (int i = 0; i < 4; ++i) {
      EXPECT_FALSE(bool(function.call(step.inputs, outputs)));
      for (size_t r = 0; r < outputs.size(); ++r)
        EXPECT_EQ(outputs[r].toVector<float>(), expected[r]) << "result " << r;
    }
  };
  std::thread a(run), b(run);
  a.join();
  b.join();
}

} // namespace
