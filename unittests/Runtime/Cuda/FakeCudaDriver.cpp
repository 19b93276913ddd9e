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

#include "CudaDriver.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

namespace {
std::mutex mutex;
FakeCudaStats stats;
/// The managed allocations' starts and sizes (cuPointerGetAttribute).
std::map<tracec::cuda::CUdeviceptr, size_t> managedBlocks;
int failLaunchesWith = 0;
/// Dynamic shared memory each kernel opted in to.
std::map<std::string, int> sharedOptIns;
const char kContext[] = "context";
} // namespace

// The driver's own types: the shim calls these through pointers of those
// types, which UBSan's -fsanitize=function checks.
using namespace tracec::cuda;

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

CUresult cuInit(unsigned) { return 0; }
CUresult cuDeviceGet(CUdevice *device, int) {
  *device = 0;
  return 0;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice) {
  *context = reinterpret_cast<CUcontext>(const_cast<char *>(kContext));
  return 0;
}
CUresult cuCtxSetCurrent(CUcontext) { return 0; }
CUresult cuGetErrorName(CUresult error, const char **name) {
  *name = error == 719 ? "CUDA_ERROR_LAUNCH_FAILED" : "CUDA_ERROR_UNKNOWN";
  return 0;
}
CUresult cuGetErrorString(CUresult error, const char **text) {
  *text = error == 719 ? "unspecified launch failure" : "unknown error";
  return 0;
}
CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned,
                            CUjit_option *, void **) {
  std::lock_guard<std::mutex> lock(mutex);
  stats.lastModule = static_cast<const char *>(image);
  ++stats.modulesLoaded;
  *module = reinterpret_cast<CUmodule>(new char);
  return 0;
}
CUresult cuModuleUnload(CUmodule module) {
  std::lock_guard<std::mutex> lock(mutex);
  ++stats.modulesUnloaded;
  delete reinterpret_cast<char *>(module);
  return 0;
}
CUresult cuModuleGetFunction(CUfunction *function, CUmodule, const char *name) {
  *function = reinterpret_cast<CUfunction>(strdup(name)); // leaked: a handful of names per test
  return 0;
}
CUresult cuLaunchKernel(CUfunction function, unsigned gx, unsigned gy,
                        unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned sharedBytes, CUstream stream, void **,
                        void **) {
  std::lock_guard<std::mutex> lock(mutex);
  if (failLaunchesWith)
    return failLaunchesWith;
  auto kernel = reinterpret_cast<const char *>(function);
  // A kernel must have opted in to more than 48 KB (cuFuncSetAttribute).
  if (sharedBytes > 48 * 1024 && sharedOptIns[kernel] < int(sharedBytes))
    return 1; // CUDA_ERROR_INVALID_VALUE
  stats.launches.push_back({kernel,
                            {gx, gy, gz},
                            {bx, by, bz},
                            stream,
                            stats.synchronizations,
                            sharedBytes});
  return 0;
}
CUresult cuFuncSetAttribute(CUfunction function, int attribute, int value) {
  std::lock_guard<std::mutex> lock(mutex);
  if (attribute == 8) // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
    sharedOptIns[reinterpret_cast<const char *>(function)] = value;
  return 0;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, CUdevice) {
  // Compute capability 8.0 (75: major, 76: minor); nothing else is asked.
  *value = attribute == 75 ? 8 : 0;
  return 0;
}
CUresult cuTensorMapEncodeTiled(void *map, int dataType, unsigned rank,
                                void *address, const unsigned long long *dims,
                                const unsigned long long *strides,
                                const unsigned *box, const unsigned *,
                                int interleave, int swizzle, int, int) {
  std::lock_guard<std::mutex> lock(mutex);
  FakeTensorMap encoded{dataType, address, {}, {}, {}, interleave, swizzle};
  encoded.dims.assign(dims, dims + rank);
  encoded.strides.assign(strides, strides + rank - 1);
  encoded.box.assign(box, box + rank);
  stats.tensorMaps.push_back(encoded);
  // The map's content: what distinguishes it (the driver's is opaque).
  std::memset(map, 0, 128);
  unsigned long long words[] = {reinterpret_cast<unsigned long long>(address),
                                dims[0],
                                rank > 1 ? dims[1] : 0,
                                box[0],
                                rank > 1 ? box[1] : 0,
                                static_cast<unsigned long long>(dataType)};
  std::memcpy(map, words, sizeof(words));
  return 0;
}
CUresult cuStreamCreate(CUstream *stream, unsigned) {
  std::lock_guard<std::mutex> lock(mutex);
  ++stats.streams;
  *stream = reinterpret_cast<CUstream>(new char);
  return 0;
}
CUresult cuStreamSynchronize(CUstream) {
  std::lock_guard<std::mutex> lock(mutex);
  ++stats.synchronizations;
  return 0;
}
CUresult cuStreamDestroy_v2(CUstream stream) {
  delete reinterpret_cast<char *>(stream);
  return 0;
}
static CUresult allocate(CUdeviceptr *pointer, size_t size) {
  std::lock_guard<std::mutex> lock(mutex);
  ++stats.allocations;
  *pointer = reinterpret_cast<CUdeviceptr>(
      std::aligned_alloc(256, (size + 255) / 256 * 256));
  return 0;
}
CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t size) {
  return allocate(pointer, size);
}
CUresult cuMemAllocManaged(CUdeviceptr *pointer, size_t size, unsigned) {
  CUresult result = allocate(pointer, size);
  std::lock_guard<std::mutex> lock(mutex);
  managedBlocks[*pointer] = size;
  return result;
}
CUresult cuPointerGetAttribute(void *data, int attribute, CUdeviceptr pointer) {
  constexpr int kIsManaged = 8;
  constexpr CUresult kInvalidValue = 1; // memory the driver does not know
  std::lock_guard<std::mutex> lock(mutex);
  auto block = managedBlocks.upper_bound(pointer);
  if (attribute != kIsManaged || block == managedBlocks.begin())
    return kInvalidValue;
  --block;
  if (pointer >= block->first + block->second)
    return kInvalidValue;
  *static_cast<unsigned *>(data) = 1;
  return 0;
}
CUresult cuMemFree_v2(CUdeviceptr pointer) {
  std::lock_guard<std::mutex> lock(mutex);
  ++stats.frees;
  managedBlocks.erase(pointer);
  std::free(reinterpret_cast<void *>(pointer));
  return 0;
}
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t size,
                       CUstream) {
  std::memcpy(reinterpret_cast<void *>(dst), reinterpret_cast<void *>(src),
              size);
  return 0;
}
CUresult cuMemsetD32Async(CUdeviceptr, unsigned, size_t, CUstream) {
  return 0;
}
CUresult cuMemsetD16Async(CUdeviceptr, unsigned short, size_t, CUstream) {
  return 0;
}
CUresult cuEventCreate(CUevent *event, unsigned) {
  *event = reinterpret_cast<CUevent>(new char);
  return 0;
}
CUresult cuEventDestroy_v2(CUevent event) {
  delete reinterpret_cast<char *>(event);
  return 0;
}
CUresult cuEventSynchronize(CUevent) {
  std::lock_guard<std::mutex> lock(mutex);
  ++stats.synchronizations;
  return 0;
}
CUresult cuEventRecord(CUevent, CUstream) { return 0; }
CUresult cuStreamWaitEvent(CUstream, CUevent, unsigned) { return 0; }

} // extern "C"
