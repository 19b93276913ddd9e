//===- ParallelRuntimeTest.cpp - Compiled code on the process's one pool --===//
//
// Compiled parallel loops run on one pool of workers per process (libomp's),
// shared by every compiled function and every calling thread. These tests
// check what a user relies on: results that do not depend on the thread
// count, calls from several host threads at once, calls from inside the
// host's own parallel regions, and a pool that is reused (no threads created
// per call).
//
//===----------------------------------------------------------------------===//

#include "tracec/Runtime/Executable.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <thread>

using namespace tracec;

namespace {

std::string errorText(llvm::Error error) {
  return llvm::toString(std::move(error));
}

// A matmul, a softmax over rows and a column sum: every kind of loop nest
// the CPU pipeline splits (contraction blocks, rows, reductions), each
// large enough to run in parallel at the default parallel-min-work.
constexpr const char *kBlock = R"mlir(
func.func @block(%x: tensor<256x192xf32>, %w: tensor<192x128xf32>) -> (tensor<256x128xf32>, tensor<128xf32>) {
  %h = trace.matmul %x, %w : (tensor<256x192xf32>, tensor<192x128xf32>) -> tensor<256x128xf32>
  %t = trace.tanh %h : tensor<256x128xf32>
  %p = trace.softmax %t {axis = 1} : tensor<256x128xf32>
  %s = trace.reduce_sum %h {axes = array<i64: 0>} : tensor<256x128xf32> -> tensor<128xf32>
  return %p, %s : tensor<256x128xf32>, tensor<128xf32>
}
func.func @twice(%x: tensor<256x192xf32>, %w: tensor<192x128xf32>) -> tensor<128xf32> {
  %p, %s = func.call @block(%x, %w) : (tensor<256x192xf32>, tensor<192x128xf32>) -> (tensor<256x128xf32>, tensor<128xf32>)
  %q, %r = func.call @block(%x, %w) : (tensor<256x192xf32>, tensor<192x128xf32>) -> (tensor<256x128xf32>, tensor<128xf32>)
  %u = trace.add %s, %r : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
  return %u : tensor<128xf32>
}
)mlir";

std::vector<float> pattern(size_t n, float scale) {
  std::vector<float> values(n);
  for (size_t i = 0; i < n; ++i)
    values[i] = scale * static_cast<float>((i * 7919) % 211) / 211.0f - 0.5f;
  return values;
}

/// The OS threads of this process (Linux: /proc/self/status).
int processThreads() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Threads:", 0) == 0)
      return std::stoi(line.substr(8));
  return -1;
}

class ParallelRuntimeTest : public ::testing::Test {
protected:
  std::unique_ptr<Executable> compile(unsigned threads) {
    auto module = compiler.parseString(kBlock, "block.mlir");
    EXPECT_TRUE(bool(module)) << errorText(module.takeError());
    CompileOptions options;
    options.threads = threads;
    options.useCache = false;
    auto compiled = Executable::compile(*module, options);
    EXPECT_TRUE(bool(compiled)) << errorText(compiled.takeError());
    return compiled ? std::move(*compiled) : nullptr;
  }

  std::vector<std::vector<float>> run(const Executable &exe,
                                      llvm::StringRef entry) {
    auto function = exe.function(entry);
    EXPECT_TRUE(bool(function)) << errorText(function.takeError());
    if (!function)
      return {};
    auto outputs = (*function)({*Tensor::fromVector(x, {256, 192}),
                                *Tensor::fromVector(w, {192, 128})});
    EXPECT_TRUE(bool(outputs)) << errorText(outputs.takeError());
    std::vector<std::vector<float>> results;
    if (outputs)
      for (const Tensor &t : *outputs)
        results.push_back(t.toVector<float>());
    return results;
  }

  Compiler compiler;
  std::vector<float> x = pattern(256 * 192, 1.0f);
  std::vector<float> w = pattern(192 * 128, 0.1f);
};

// Only parallel dimensions are split: every element comes from the same
// operations in the same order, so results are equal bit for bit. Each
// region's first two runs fork (an untimed run, then a parallel sample),
// its third is a serial sample (trace-cpu-adaptive-parallel): both ways
// are checked.
TEST_F(ParallelRuntimeTest, ResultsDoNotDependOnThreadCount) {
  auto serial = compile(1);
  ASSERT_TRUE(serial);
  auto expected = run(*serial, "block");
  ASSERT_EQ(expected.size(), 2u);
  for (unsigned threads : {0u, 2u, 3u, 4u, 8u}) {
    auto parallel = compile(threads);
    ASSERT_TRUE(parallel);
    for (int call = 0; call < 3; ++call)
      EXPECT_EQ(run(*parallel, "block"), expected)
          << threads << " threads, call " << call;
  }
}

// Past the samples of a period, every region runs as its samples decided,
// and re-samples at the next period (1,024 runs): every call, whichever
// way its regions ran, gives the serial bits.
TEST_F(ParallelRuntimeTest, ResultsDoNotDependOnTheAdaptiveDecision) {
  auto serial = compile(1);
  auto parallel = compile(2);
  ASSERT_TRUE(serial && parallel);
  auto expected = run(*serial, "block");
  int mismatches = 0;
  for (int call = 0; call < 1100; ++call)
    mismatches += run(*parallel, "block") != expected;
  EXPECT_EQ(mismatches, 0);
}

// Several host threads call compiled functions at once (the same function,
// and one that calls it twice): each call forks its own regions on the
// shared pool, and every result is the serial one.
TEST_F(ParallelRuntimeTest, ConcurrentCallsFromHostThreads) {
  auto serial = compile(1);
  auto parallel = compile(2);
  ASSERT_TRUE(serial && parallel);
  auto expectedBlock = run(*serial, "block");
  auto expectedTwice = run(*serial, "twice");
  constexpr int kCallers = 4, kCalls = 25;
  std::vector<int> mismatches(kCallers, 0);
  std::vector<std::thread> callers;
  for (int c = 0; c < kCallers; ++c)
    callers.emplace_back([&, c] {
      for (int i = 0; i < kCalls; ++i) {
        bool twice = (c + i) % 2;
        auto got = run(*parallel, twice ? "twice" : "block");
        if (got != (twice ? expectedTwice : expectedBlock))
          ++mismatches[c];
      }
    });
  for (std::thread &caller : callers)
    caller.join();
  for (int c = 0; c < kCallers; ++c)
    EXPECT_EQ(mismatches[c], 0) << "caller " << c;
}

// The pool is made once and reused: thousands of parallel regions later,
// the process has no more threads than after the first calls.
TEST_F(ParallelRuntimeTest, PoolIsReusedAcrossCallsAndFunctions) {
  auto first = compile(2);
  auto second = compile(0);
  ASSERT_TRUE(first && second);
  // A function's first calls fork, which starts the pool.
  for (int call = 0; call < 2; ++call) {
    run(*first, "twice");
    run(*second, "twice");
  }
  int warm = processThreads();
  ASSERT_GT(warm, 0);
  for (int i = 0; i < 100; ++i) {
    run(*first, "twice");
    run(*second, "block");
  }
  EXPECT_EQ(processThreads(), warm);
}

// A compiled function called from inside the host's own OpenMP parallel
// region: its regions nest in the host's, which libomp runs on the calling
// thread (one active level, the default), so the cores are not
// oversubscribed and no threads are created per call.
TEST_F(ParallelRuntimeTest, CallsNestedInHostParallelRegion) {
  auto serial = compile(1);
  auto parallel = compile(2);
  ASSERT_TRUE(serial && parallel);
  auto expected = run(*serial, "twice");
  auto callNested = [&] {
    int ok = 0;
#pragma omp parallel num_threads(2) reduction(+ : ok)
    ok += run(*parallel, "twice") == expected;
    return ok;
  };
  EXPECT_EQ(callNested(), 2);
  int warm = processThreads();
  for (int i = 0; i < 20; ++i)
    EXPECT_EQ(callNested(), 2);
  EXPECT_EQ(processThreads(), warm);
}

} // namespace
