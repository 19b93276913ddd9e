// The memory a compiled train step touches: bench/remat.py compiles the
// fused @loss_and_grads with `tracec --class=Step` and builds this file
// with `-include step.h step.o`. The model's arena (inputs and outputs) is
// written before the call, so the growth of the peak resident set size
// across one call is what the step itself touches: its workspace (the
// intermediates, a zero-initialised global whose pages stay untouched
// until used), any buffer it mallocs, and its stack. Prints
// "rss_kib <growth> result0 <loss>".
#include <cmath>
#include <cstdio>
#include <cstring>

/// The peak resident set size of this process image, in KiB: VmHWM, not
/// getrusage's ru_maxrss, which Linux carries over from the parent that
/// forked this process (the benchmark's Python, larger than the step).
static long maxRssKib() {
  std::FILE *status = std::fopen("/proc/self/status", "r");
  if (!status)
    return -1;
  char line[256];
  long kib = -1;
  while (std::fgets(line, sizeof line, status))
    if (std::sscanf(line, "VmHWM: %ld kB", &kib) == 1)
      break;
  std::fclose(status);
  return kib;
}

int main() {
  static Step model;
  Step::LossAndGrads &step = model.loss_and_grads;
  for (int i = 0; i < Step::LossAndGrads::kNumArgs; ++i) {
    auto *data = static_cast<float *>(step.arg_data(i));
    size_t n = Step::LossAndGrads::ArgSize(i) / sizeof(float);
    for (size_t k = 0; k < n; ++k)
      data[k] = 0.05f * std::sin(0.37f * float(k) + float(i));
  }
  for (int i = 0; i < Step::LossAndGrads::kNumResults; ++i)
    std::memset(step.result_data(i), 0, Step::LossAndGrads::ResultSize(i));
  long before = maxRssKib();
  if (step.Run() != 0) {
    std::fprintf(stderr, "remat_rss: the step failed\n");
    return 1;
  }
  long after = maxRssKib();
  std::printf("rss_kib %ld result0 %.9g\n", after - before,
              double(*static_cast<float *>(step.result_data(0))));
  return 0;
}
