//===- FakeCudaDriver.cpp - A CUDA driver that runs nothing, for tests ----===//
//
// Exports the driver entry points the shim resolves, on the CPU: memory is
// host memory, launches are recorded (not run), modules keep their PTX.
// Tests load it through TRACEC_CUDA_DRIVER to check the host code, the
// shim and the JIT end to end without a GPU: which kernels are launched
// with which geometry, that every allocation is freed, how errors travel.
//
//===----------------------------------------------------------------------===//

#include "FakeCudaDriver.h"

#include <cstdlib>
#include <cstring>
#include <mutex>

namespace {
std::mutex mutex;
FakeCudaStats stats;
int failLaunchesWith = 0;
const char kContext[] = "context";
} // namespace

extern "C" {

void fakeCudaStats(FakeCudaStats *out) {
  std::lock_guard<std::mutex> lock(mutex);
  *out = stats;
}
void fakeCudaReset(int launchError) {
  std::lock_guard<std::mutex> lock(mutex);
  stats = FakeCudaStats();
  failLaunchesWith = launchError;
}

int cuInit(unsigned) { return 0; }
int cuDeviceGet(int *device, int) { *device = 0; return 0; }
int cuDevicePrimaryCtxRetain(void **context, int) {
  *context = const_cast<char *>(kContext);
  return 0;
}
int cuCtxSetCurrent(void *) { return 0; }
int cuGetErrorName(int error, const char **name) {
  *name = error == 719 ? "CUDA_ERROR_LAUNCH_FAILED" : "CUDA_ERROR_UNKNOWN";
  return 0;
}
int cuGetErrorString(int error, const char **text) {
  *text = error == 719 ? "unspecified launch failure" : "unknown error";
  return 0;
}
int cuModuleLoadDataEx(void **module, const void *image, unsigned, int *,
                       void **) {
  std::lock_guard<std::mutex> lock(mutex);
  stats.lastModule = static_cast<const char *>(image);
  ++stats.modulesLoaded;
  *module = new char;
  return 0;
}
int cuModuleUnload(void *module) {
  std::lock_guard<std::mutex> lock(mutex);
  ++stats.modulesUnloaded;
  delete static_cast<char *>(module);
  return 0;
}
int cuModuleGetFunction(void **function, void *, const char *name) {
  *function = strdup(name); // leaked: a handful of names per test
  return 0;
}
int cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz,
                   unsigned bx, unsigned by, unsigned bz, unsigned, void *,
                   void **, void **) {
  std::lock_guard<std::mutex> lock(mutex);
  if (failLaunchesWith)
    return failLaunchesWith;
  stats.launches.push_back({static_cast<const char *>(function),
                            {gx, gy, gz},
                            {bx, by, bz}});
  return 0;
}
int cuStreamCreate(void **stream, unsigned) { *stream = new char; return 0; }
int cuStreamSynchronize(void *) { return 0; }
int cuStreamDestroy_v2(void *stream) {
  delete static_cast<char *>(stream);
  return 0;
}
static int allocate(unsigned long long *pointer, size_t size) {
  std::lock_guard<std::mutex> lock(mutex);
  ++stats.allocations;
  *pointer = reinterpret_cast<unsigned long long>(
      std::aligned_alloc(256, (size + 255) / 256 * 256));
  return 0;
}
int cuMemAlloc_v2(unsigned long long *pointer, size_t size) {
  return allocate(pointer, size);
}
int cuMemAllocManaged(unsigned long long *pointer, size_t size, unsigned) {
  return allocate(pointer, size);
}
int cuMemFree_v2(unsigned long long pointer) {
  std::lock_guard<std::mutex> lock(mutex);
  ++stats.frees;
  std::free(reinterpret_cast<void *>(pointer));
  return 0;
}
int cuMemcpyAsync(unsigned long long dst, unsigned long long src, size_t size,
                  void *) {
  std::memcpy(reinterpret_cast<void *>(dst), reinterpret_cast<void *>(src),
              size);
  return 0;
}
int cuMemsetD32Async(unsigned long long, unsigned, size_t, void *) { return 0; }
int cuMemsetD16Async(unsigned long long, unsigned short, size_t, void *) {
  return 0;
}
int cuEventCreate(void **event, unsigned) { *event = new char; return 0; }
int cuEventDestroy_v2(void *event) {
  delete static_cast<char *>(event);
  return 0;
}
int cuEventSynchronize(void *) { return 0; }
int cuEventRecord(void *, void *) { return 0; }
int cuStreamWaitEvent(void *, void *, unsigned) { return 0; }

} // extern "C"
