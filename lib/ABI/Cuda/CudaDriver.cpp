//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//

#include "CudaDriver.h"

#include <atomic>

#include <cstdlib>
#include <dlfcn.h>

using namespace tracec::cuda;

/// Resolves `name` into `slot`; false (with `error` set) if it is missing.
template <typename Fn>
static bool resolve(void *library, const char *name, Fn &slot,
                    std::string &error) {
  slot = reinterpret_cast<Fn>(dlsym(library, name));
  if (!slot)
    error = std::string("CUDA driver too old: it has no ") + name;
  return slot != nullptr;
}

static std::string describeWith(const DriverApi &api, const char *call,
                                CUresult result) {
  const char *name = nullptr, *text = nullptr;
  if (api.cuGetErrorName)
    api.cuGetErrorName(result, &name);
  if (api.cuGetErrorString)
    api.cuGetErrorString(result, &text);
  std::string message = std::string(call) + ": ";
  message += name ? name : "CUDA error " + std::to_string(result);
  if (text)
    message += std::string(" (") + text + ")";
  return message;
}

static Driver load() {
  Driver driver;
  const char *path = std::getenv("TRACEC_CUDA_DRIVER");
  if (!path || !*path)
    path = "libcuda.so.1";
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *reason = dlerror();
    driver.error = std::string("CUDA driver not found: ") +
                   (reason ? reason : path);
    return driver;
  }
  DriverApi &api = driver.api;
  std::string &error = driver.error;
  bool resolved =
      resolve(library, "cuInit", api.cuInit, error) &&
      resolve(library, "cuDeviceGet", api.cuDeviceGet, error) &&
      resolve(library, "cuDevicePrimaryCtxRetain", api.cuDevicePrimaryCtxRetain,
              error) &&
      resolve(library, "cuCtxSetCurrent", api.cuCtxSetCurrent, error) &&
      resolve(library, "cuGetErrorName", api.cuGetErrorName, error) &&
      resolve(library, "cuGetErrorString", api.cuGetErrorString, error) &&
      resolve(library, "cuModuleLoadDataEx", api.cuModuleLoadDataEx, error) &&
      resolve(library, "cuModuleUnload", api.cuModuleUnload, error) &&
      resolve(library, "cuModuleGetFunction", api.cuModuleGetFunction, error) &&
      resolve(library, "cuLaunchKernel", api.cuLaunchKernel, error) &&
      resolve(library, "cuStreamCreate", api.cuStreamCreate, error) &&
      resolve(library, "cuStreamSynchronize", api.cuStreamSynchronize, error) &&
      resolve(library, "cuStreamDestroy_v2", api.cuStreamDestroy, error) &&
      resolve(library, "cuMemAlloc_v2", api.cuMemAlloc, error) &&
      resolve(library, "cuMemAllocManaged", api.cuMemAllocManaged, error) &&
      resolve(library, "cuMemFree_v2", api.cuMemFree, error) &&
      resolve(library, "cuMemcpyAsync", api.cuMemcpyAsync, error) &&
      resolve(library, "cuMemsetD32Async", api.cuMemsetD32Async, error) &&
      resolve(library, "cuMemsetD16Async", api.cuMemsetD16Async, error) &&
      resolve(library, "cuEventCreate", api.cuEventCreate, error) &&
      resolve(library, "cuEventDestroy_v2", api.cuEventDestroy, error) &&
      resolve(library, "cuEventSynchronize", api.cuEventSynchronize, error) &&
      resolve(library, "cuEventRecord", api.cuEventRecord, error) &&
      resolve(library, "cuStreamWaitEvent", api.cuStreamWaitEvent, error) &&
      resolve(library, "cuPointerGetAttribute", api.cuPointerGetAttribute,
              error) &&
      resolve(library, "cuFuncSetAttribute", api.cuFuncSetAttribute, error) &&
      resolve(library, "cuDeviceGetAttribute", api.cuDeviceGetAttribute, error);
  if (!resolved)
    return driver;
  // Optional: a kernel that needs it says so at its launch.
  api.cuTensorMapEncodeTiled =
      reinterpret_cast<decltype(api.cuTensorMapEncodeTiled)>(
          dlsym(library, "cuTensorMapEncodeTiled"));
  // The library stays loaded for the life of the process.
  CUdevice device = 0;
  CUresult result = api.cuInit(0);
  if (result != 0) {
    error = describeWith(api, "cuInit", result);
    return driver;
  }
  if ((result = api.cuDeviceGet(&device, 0)) != 0) {
    error = describeWith(api, "cuDeviceGet", result);
    return driver;
  }
  if ((result = api.cuDevicePrimaryCtxRetain(&driver.context, device)) != 0)
    error = describeWith(api, "cuDevicePrimaryCtxRetain", result);
  return driver;
}

static std::atomic<bool> loadStarted{false};

const Driver &tracec::cuda::driver() {
  static const Driver instance = (loadStarted = true, load());
  return instance;
}

bool tracec::cuda::driverLoaded() { return loadStarted; }

std::string tracec::cuda::describe(const char *call, CUresult result) {
  return describeWith(driver().api, call, result);
}
