//===- check.cpp - GPU kernels against the CPU code, on a real GPU --------===//
//
// Runs every entry of checks.mlir and tensor_cores.mlir and the SGD/Adam
// training steps of examples/train_mlp.mlir compiled twice ahead of time —
// for the host CPU (tested against NumPy/PyTorch elsewhere) and with
// --cuda-chip — on the same inputs, and compares results elementwise:
// |gpu - cpu| <= atol + rtol * |cpu|. Prints one line per result and exits
// 1 on any mismatch or CUDA error. Built by build.sh; needs no LLVM where
// it runs, only libcuda.
//
//===----------------------------------------------------------------------===//

#include "checks_cpu.h"
#include "checks_gpu.h"
#include "tensor_cores_cpu.h"
#include "tensor_cores_gpu.h"
#include "tensor_cores_hopper.h"
#include "tracec/ABI/CudaRuntime.h"
#include "tracec/ABI/tracec_cuda.h"
#include "train_cpu.h"
#include "train_gpu.h"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {

int failures = 0;

struct Random {
  uint64_t state;
  float uniform() { // in [-1, 1)
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return float((state >> 40) * 0x1.0p-24 * 2.0 - 1.0);
  }
};

void fill(void *data, size_t bytes, uint64_t seed) {
  Random random{seed};
  float *f = static_cast<float *>(data);
  for (size_t i = 0; i < bytes / sizeof(float); ++i)
    f[i] = random.uniform();
}

bool cudaOk(const char *what) {
  if (const char *error = tracec_cuda_take_error()) {
    std::printf("FAIL %s: CUDA error: %s\n", what, error);
    ++failures;
    return false;
  }
  return true;
}

void compare(const char *what, const float *cpu, const float *gpu, size_t n,
             double atol, double rtol) {
  double worst = -1, worstCpu = 0, worstGpu = 0;
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    double error = std::fabs(double(gpu[i]) - double(cpu[i]));
    double allowed = atol + rtol * std::fabs(double(cpu[i]));
    if (!(error <= allowed)) // NaN fails too
      ++bad;
    if (!(error <= worst)) {
      worst = error;
      worstCpu = cpu[i];
      worstGpu = gpu[i];
    }
  }
  std::printf("%s %-28s %6zu values, max |gpu - cpu| %.2e (cpu %.6g, gpu %.6g)\n",
              bad ? "FAIL" : "ok  ", what, n, worst, worstCpu, worstGpu);
  failures += bad != 0;
}

/// Fills both entries' arguments alike, runs both, compares every result.
template <typename CpuEntry, typename GpuEntry>
void check(const char *name, CpuEntry &cpu, GpuEntry &gpu, double atol,
           double rtol) {
  for (int i = 0; i < CpuEntry::kNumArgs; ++i) {
    fill(cpu.arg_data(i), CpuEntry::ArgSize(i), 1000 + i);
    fill(gpu.arg_data(i), GpuEntry::ArgSize(i), 1000 + i);
  }
  if (cpu.Run() != 0 || gpu.Run() != 0) {
    std::printf("FAIL %s: Run() returned nonzero\n", name);
    ++failures;
    return;
  }
  if (!cudaOk(name))
    return;
  for (int i = 0; i < CpuEntry::kNumResults; ++i) {
    char what[64];
    std::snprintf(what, sizeof what, "%s result %d", name, i);
    compare(what, static_cast<float *>(cpu.result_data(i)),
            static_cast<float *>(gpu.result_data(i)),
            CpuEntry::ResultSize(i) / sizeof(float), atol, rtol);
  }
}

/// `steps` training steps of both, from the same weights and batch.
template <typename Cpu, typename Gpu, typename CpuStep, typename GpuStep>
void trainBoth(const char *name, Cpu &cpu, Gpu &gpu, CpuStep &cpuStep,
           GpuStep &gpuStep, int steps) {
  for (int i = 0; i < Cpu::kNumVariables; ++i) {
    bool isWeight = i < 6;
    std::memset(cpu.variable_data(i), 0, Cpu::VariableSize(i));
    std::memset(gpu.variable_data(i), 0, Gpu::VariableSize(i));
    if (isWeight) {
      fill(cpu.variable_data(i), Cpu::VariableSize(i), 50 + i);
      fill(gpu.variable_data(i), Gpu::VariableSize(i), 50 + i);
    }
  }
  fill(cpuStep.arg_data(0), CpuStep::ArgSize(0), 7);
  fill(gpuStep.arg_data(0), GpuStep::ArgSize(0), 7);
  int32_t *cpuLabels = static_cast<int32_t *>(cpuStep.arg_data(1));
  int32_t *gpuLabels = static_cast<int32_t *>(gpuStep.arg_data(1));
  for (size_t i = 0; i < CpuStep::ArgSize(1) / sizeof(int32_t); ++i)
    cpuLabels[i] = gpuLabels[i] = int32_t(i % 3);
  *static_cast<float *>(cpuStep.arg_data(2)) = 0.05f;
  *static_cast<float *>(gpuStep.arg_data(2)) = 0.05f;
  float cpuLoss[64], gpuLoss[64];
  for (int s = 0; s < steps; ++s) {
    if (cpuStep.Run() != 0 || gpuStep.Run() != 0 || !cudaOk(name)) {
      std::printf("FAIL %s: step %d did not run\n", name, s);
      ++failures;
      return;
    }
    cpuLoss[s] = *static_cast<float *>(cpuStep.result_data(0));
    gpuLoss[s] = *static_cast<float *>(gpuStep.result_data(0));
  }
  char what[64];
  std::snprintf(what, sizeof what, "%s losses", name);
  compare(what, cpuLoss, gpuLoss, steps, 1e-5, 1e-4);
  std::printf("     %s loss: step 1 %.6f -> step %d %.6f (gpu %.6f)\n", name,
              cpuLoss[0], steps, cpuLoss[steps - 1], gpuLoss[steps - 1]);
  for (int i = 0; i < Cpu::kNumVariables; ++i) {
    std::snprintf(what, sizeof what, "%s var %s", name, Cpu::VariableName(i));
    compare(what, static_cast<float *>(cpu.variable_data(i)),
            static_cast<float *>(gpu.variable_data(i)),
            Cpu::VariableSize(i) / sizeof(float), 1e-5, 1e-4);
  }
}

/// Whether device 0 runs sm_90a code (wgmma, TMA).
bool deviceIsHopper() { return tracec::cuda::deviceChip() == "sm_90a"; }

template <typename Entry> double secondsPerRun(Entry &entry, int runs) {
  entry.Run();
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < runs; ++i)
    entry.Run();
  std::chrono::duration<double> elapsed =
      std::chrono::steady_clock::now() - start;
  return elapsed.count() / runs;
}

} // namespace

int main() {
  checks::Cpu cpu;
  checks::Gpu gpu;
  check("chain", cpu.chain, gpu.chain, 1e-5, 1e-5);
  check("reductions", cpu.reductions, gpu.reductions, 1e-5, 1e-4);
  check("norms", cpu.norms, gpu.norms, 1e-5, 1e-4);
  check("matmuls", cpu.matmuls, gpu.matmuls, 1e-5, 1e-5);
  check("convolution", cpu.convolution, gpu.convolution, 1e-5, 1e-5);
  check("shapes", cpu.shapes, gpu.shapes, 0, 0);
  check("draws", cpu.draws, gpu.draws, 1e-6, 1e-5);

  // Tensor cores: the same f16/bf16 products (the CPU accumulates in f32
  // too), summed in another order and rounded to f16/bf16 at the end (bf16
  // keeps 8 bits: 2^-8 relative), TF32 products against f32 ones (k = 48
  // terms in [-1, 1), each off by up to 2^-10 relative).
  // The sm_90a build (wgmma) only where the device is a Hopper.
  checks::TensorCoresCpu tensorCoresCpu;
  checks::TensorCoresGpu tensorCoresGpu;
  checks::TensorCoresHopper tensorCoresHopper;
  auto checkTensorCores = [&](const char *chip, auto &gpu) {
    auto name = [&](const char *what) {
      return std::string("tensor cores ") + what + " (" + chip + ")";
    };
    check(name("f16").c_str(), tensorCoresCpu.half, gpu.half, 1e-2, 1e-2);
    check(name("bf16").c_str(), tensorCoresCpu.brain, gpu.brain, 2e-2, 1e-2);
    check(name("tf32").c_str(), tensorCoresCpu.single, gpu.single, 2e-2, 1e-3);
    check(name("transposed").c_str(), tensorCoresCpu.transposed, gpu.transposed,
          2e-2, 1e-2);
    check(name("dense").c_str(), tensorCoresCpu.dense, gpu.dense, 1e-2, 1e-2);
    // k = 512 terms: f16 results near 10 keep 2^-11 relative.
    check(name("deep").c_str(), tensorCoresCpu.deep, gpu.deep, 2e-2, 1e-2);
  };
  checkTensorCores("chip", tensorCoresGpu);
  if (deviceIsHopper())
    checkTensorCores("sm_90a", tensorCoresHopper);

  train::TrainCpu trainCpu;
  train::TrainGpu trainGpu;
  trainBoth("sgd", trainCpu, trainGpu, trainCpu.sgd_step, trainGpu.sgd_step, 20);
  train::TrainCpu adamCpu;
  train::TrainGpu adamGpu;
  trainBoth("adam", adamCpu, adamGpu, adamCpu.adam_step, adamGpu.adam_step, 20);

  std::printf("time per call (synchronous launches; CPU one thread): "
              "matmuls cpu %.1f us gpu %.1f us; adam step cpu %.1f us gpu %.1f us\n",
              1e6 * secondsPerRun(cpu.matmuls, 20),
              1e6 * secondsPerRun(gpu.matmuls, 20),
              1e6 * secondsPerRun(adamCpu.adam_step, 20),
              1e6 * secondsPerRun(adamGpu.adam_step, 20));
  cudaOk("timing");
  std::printf("%s: %d failure%s\n", failures ? "FAILED" : "PASSED", failures,
              failures == 1 ? "" : "s");
  return failures ? 1 : 0;
}
