//===- CudaRuntime.cpp - The mgpu* entry points on the CUDA driver --------===//
//
// Signatures are those MLIR's gpu-to-llvm lowering declares (LLVM 22). See
// tracec/ABI/CudaRuntime.h for how errors are reported.
//
//===----------------------------------------------------------------------===//

#include "tracec/ABI/CudaRuntime.h"
#include "tracec/ABI/tracec_cuda.h"

#include "BlockCache.h"
#include "CudaDriver.h"

#include <array>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_set>
#include <vector>

using namespace tracec::cuda;

namespace {
/// What one thread's current call has seen.
struct CallState {
  std::string error;
  /// Host memory handed out for allocations after a failure.
  std::unordered_set<void *> fallbackBuffers;
  /// Whether the driver's context is current on this thread.
  bool contextCurrent = false;
};
thread_local CallState state;

/// Module loads run in the JIT's global constructors, on whichever thread
/// initializes it; a later launch from the module reports why it failed.
std::mutex moduleErrorMutex;
std::string moduleError;

/// The streams of calls: every call makes its own (`gpu.wait async`) and
/// destroys it at its end, and the frees of its buffers each make one
/// more; kept for the next call instead (as PyTorch's stream pool), so a
/// call creates none once warm. And which streams have work queued since
/// the host last waited for them: waiting for any other would return at
/// once, so the host does not ask the driver (a call then waits for the
/// device once, where it reads the results, not once per buffer freed).
class StreamPool {
public:
  CUstream take() {
    std::lock_guard<std::mutex> lock(mutex);
    if (idle.empty())
      return nullptr;
    CUstream stream = idle.back();
    idle.pop_back();
    return stream;
  }
  /// False when the pool is full: the caller destroys the stream. A
  /// stream kept with work queued stays busy for its next call.
  bool give(CUstream stream) {
    std::lock_guard<std::mutex> lock(mutex);
    if (idle.size() >= kMaxIdle) {
      busy.erase(stream);
      return false;
    }
    idle.push_back(stream);
    return true;
  }
  void queued(CUstream stream) {
    if (!stream)
      return; // (the default stream: not one of the calls')
    std::lock_guard<std::mutex> lock(mutex);
    busy.insert(stream);
  }
  /// Whether `stream` had work queued; it has none once the host waited.
  bool takeQueued(CUstream stream) {
    std::lock_guard<std::mutex> lock(mutex);
    return busy.erase(stream) > 0;
  }

private:
  /// More than concurrent calls use at once.
  static constexpr size_t kMaxIdle = 64;
  std::mutex mutex;
  std::vector<CUstream> idle;
  std::unordered_set<CUstream> busy;
};

StreamPool &streamPool() {
  static StreamPool *pool = new StreamPool; // outlives static destructors
  return *pool;
}
} // namespace

static void fail(const std::string &message) {
  if (state.error.empty())
    state.error = message;
}

static const DriverApi &api() { return driver().api; }

/// True if the device may be used now: the driver is there, this call has
/// not failed, and the context is current on this thread.
static bool usable() {
  const Driver &loaded = driver();
  if (!loaded.error.empty()) {
    fail(loaded.error);
    return false;
  }
  if (!state.error.empty())
    return false;
  if (!state.contextCurrent) {
    if (CUresult result = loaded.api.cuCtxSetCurrent(loaded.context)) {
      fail(describe("cuCtxSetCurrent", result));
      return false;
    }
    state.contextCurrent = true;
  }
  return true;
}

/// For clean-up (unload, destroy, free), which goes on after a failure and
/// may run on another thread (an Executable destroyed elsewhere): true if
/// the driver is there, with its context current on this thread.
static bool cleanupPossible() {
  const Driver &loaded = driver();
  if (!loaded.error.empty())
    return false;
  if (!state.contextCurrent &&
      loaded.api.cuCtxSetCurrent(loaded.context) == 0)
    state.contextCurrent = true;
  return state.contextCurrent;
}

static bool check(const char *call, CUresult result) {
  if (result != 0)
    fail(describe(call, result));
  return result == 0;
}

void tracec::cuda::beginCall() { state.error.clear(); }

std::string tracec::cuda::takeError() {
  std::string error = std::move(state.error);
  state.error.clear();
  return error;
}

const char *tracec_cuda_take_error(void) {
  thread_local std::string taken;
  taken = takeError();
  return taken.empty() ? nullptr : taken.c_str();
}

size_t tracec_cuda_empty_cache(void) {
  size_t bytes = blockCache().idleBytes();
  std::vector<void *> blocks = blockCache().release();
  if (!blocks.empty() && cleanupPossible())
    for (void *block : blocks)
      api().cuMemFree(reinterpret_cast<CUdeviceptr>(block));
  return bytes;
}

bool tracec::cuda::driverAvailable(std::string *why) {
  const Driver &loaded = driver();
  if (why)
    *why = loaded.error;
  return loaded.error.empty();
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

// CU_JIT_* option numbers of the driver ABI.
static constexpr CUjit_option kJitErrorLogBuffer = 5;
static constexpr CUjit_option kJitErrorLogBufferSize = 6;
static constexpr CUjit_option kJitOptimizationLevel = 7;
static constexpr unsigned kStreamNonBlocking = 1;
static constexpr unsigned kMemAttachGlobal = 1;
static constexpr unsigned kEventDisableTiming = 2;
static constexpr CUresult kErrorOutOfMemory = 2;
static constexpr int kFuncMaxDynamicSharedBytes = 8;
static constexpr int32_t kDefaultMaxSharedBytes = 48 * 1024;
static constexpr int kDeviceComputeCapabilityMajor = 75;
static constexpr int kDeviceComputeCapabilityMinor = 76;

static CUmodule loadModule(const void *data, int optLevel, bool jit) {
  if (!usable())
    return nullptr;
  char log[8192] = {0};
  CUjit_option options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSize,
                            kJitOptimizationLevel};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log)),
                    reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  CUmodule module = nullptr;
  CUresult result = api().cuModuleLoadDataEx(&module, data, jit ? 3 : 2,
                                             options, values);
  if (result != 0) {
    std::string message = describe("cuModuleLoadDataEx", result);
    if (log[0])
      message += ": " + std::string(log);
    fail(message);
    std::lock_guard<std::mutex> lock(moduleErrorMutex);
    moduleError = message;
    return nullptr;
  }
  return module;
}

extern "C" {

CUmodule mgpuModuleLoad(void *data, size_t /*size*/) {
  return loadModule(data, 0, /*jit=*/false);
}

/// PTX (NUL-terminated), compiled by the driver's JIT.
CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  return loadModule(data, optLevel, /*jit=*/true);
}

void mgpuModuleUnload(CUmodule module) {
  if (module && cleanupPossible())
    api().cuModuleUnload(module);
}

CUfunction mgpuModuleGetFunction(CUmodule module, const char *name) {
  if (!usable())
    return nullptr;
  if (!module) {
    std::lock_guard<std::mutex> lock(moduleErrorMutex);
    fail(std::string("cannot launch kernel ") + name +
         ": its module did not load: " + moduleError);
    return nullptr;
  }
  CUfunction function = nullptr;
  check("cuModuleGetFunction", api().cuModuleGetFunction(&function, module,
                                                          name));
  return function;
}

void mgpuLaunchKernel(CUfunction function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedMemoryBytes,
                      CUstream stream, void **params, void **extra,
                      size_t /*paramsCount*/) {
  if (!usable() || !function)
    return;
  // Beyond 48 KB of dynamic shared memory (the TMA kernels' stages) a
  // kernel must opt in.
  if (sharedMemoryBytes > kDefaultMaxSharedBytes &&
      !check("cuFuncSetAttribute",
             api().cuFuncSetAttribute(function, kFuncMaxDynamicSharedBytes,
                                      sharedMemoryBytes)))
    return;
  streamPool().queued(stream);
  check("cuLaunchKernel",
        api().cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY,
                             blockZ, sharedMemoryBytes, stream, params,
                             extra));
}

CUstream mgpuStreamCreate() {
  if (!usable())
    return nullptr;
  if (CUstream pooled = streamPool().take())
    return pooled;
  CUstream stream = nullptr;
  check("cuStreamCreate", api().cuStreamCreate(&stream, kStreamNonBlocking));
  return stream;
}

void mgpuStreamDestroy(CUstream stream) {
  if (stream && !streamPool().give(stream) && cleanupPossible())
    api().cuStreamDestroy(stream);
}

/// Where a kernel's own errors (a bad address, ...) surface: a stream with
/// nothing queued since the last wait has none to report.
static void waitForQueuedWork(CUstream stream) {
  if (stream && streamPool().takeQueued(stream) && usable())
    check("cuStreamSynchronize", api().cuStreamSynchronize(stream));
}

void mgpuStreamSynchronize(CUstream stream) { waitForQueuedWork(stream); }

void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  if (stream && event && usable()) {
    streamPool().queued(stream);
    check("cuStreamWaitEvent", api().cuStreamWaitEvent(stream, event, 0));
  }
}

CUevent mgpuEventCreate() {
  if (!usable())
    return nullptr;
  CUevent event = nullptr;
  check("cuEventCreate", api().cuEventCreate(&event, kEventDisableTiming));
  return event;
}

void mgpuEventDestroy(CUevent event) {
  if (event && cleanupPossible())
    api().cuEventDestroy(event);
}

void mgpuEventSynchronize(CUevent event) {
  if (event && usable())
    check("cuEventSynchronize", api().cuEventSynchronize(event));
}

void mgpuEventRecord(CUevent event, CUstream stream) {
  if (event && usable())
    check("cuEventRecord", api().cuEventRecord(event, stream));
}

/// Managed memory for `isHostShared` (what the GPU pipeline allocates),
/// device memory otherwise: a block the cache kept, else a new one of the
/// request's size class (emptying the cache first if the driver is out of
/// memory). After a failure: host memory, so that the host code that goes
/// on touching the buffer stays memory-safe.
void *mgpuMemAlloc(uint64_t sizeBytes, CUstream /*stream*/,
                   bool isHostShared) {
  if (sizeBytes == 0)
    return nullptr;
  if (usable()) {
    if (void *cached = blockCache().take(sizeBytes, isHostShared))
      return cached;
    size_t size = BlockCache::sizeClass(sizeBytes);
    auto allocate = [&](CUdeviceptr *pointer) {
      return isHostShared
                 ? api().cuMemAllocManaged(pointer, size, kMemAttachGlobal)
                 : api().cuMemAlloc(pointer, size);
    };
    CUdeviceptr pointer = 0;
    CUresult result = allocate(&pointer);
    if (result == kErrorOutOfMemory && tracec_cuda_empty_cache())
      result = allocate(&pointer);
    if (check(isHostShared ? "cuMemAllocManaged" : "cuMemAlloc", result)) {
      blockCache().adopt(reinterpret_cast<void *>(pointer), sizeBytes,
                         isHostShared);
      return reinterpret_cast<void *>(pointer);
    }
  }
  size_t rounded = (sizeBytes + 255) / 256 * 256;
  void *fallback = std::aligned_alloc(256, rounded);
  if (fallback)
    std::memset(fallback, 0, rounded);
  state.fallbackBuffers.insert(fallback);
  return fallback;
}

/// Frees also after a failure: the call is cleaning up. A block of the
/// cache's goes back to it, idle once the work queued on `stream` (which
/// may still read it) is done, as cuMemFree would wait.
void mgpuMemFree(void *pointer, CUstream stream) {
  if (!pointer)
    return;
  if (state.fallbackBuffers.erase(pointer)) {
    std::free(pointer);
    return;
  }
  waitForQueuedWork(stream);
  if (blockCache().give(pointer))
    return;
  if (cleanupPossible())
    api().cuMemFree(reinterpret_cast<CUdeviceptr>(pointer));
}

void mgpuMemcpy(void *destination, void *source, size_t sizeBytes,
                CUstream stream) {
  if (!sizeBytes || !usable())
    return;
  streamPool().queued(stream);
  check("cuMemcpyAsync",
        api().cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(destination),
                            reinterpret_cast<CUdeviceptr>(source), sizeBytes,
                            stream));
}

void mgpuMemset32(void *destination, unsigned value, size_t count,
                  CUstream stream) {
  if (!count || !usable())
    return;
  streamPool().queued(stream);
  check("cuMemsetD32Async",
        api().cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(destination),
                               value, count, stream));
}

void mgpuMemset16(void *destination, unsigned short value, size_t count,
                  CUstream stream) {
  if (!count || !usable())
    return;
  streamPool().queued(stream);
  check("cuMemsetD16Async",
        api().cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(destination),
                               value, count, stream));
}

} // extern "C"

namespace {
/// The tensor maps TMA kernels read, in device memory: one 128-byte map
/// (64-byte aligned, as the driver's CUtensorMap) per distinct content (a
/// buffer's address, shape and box), made once and kept for the process,
/// so that steady-state calls, whose buffers the block cache hands out at
/// the same addresses, copy and allocate nothing.
class TensorMaps {
public:
  static constexpr size_t kBytes = 128;
  using Map = std::array<unsigned char, kBytes>;

  /// The device copy of `map`, or null (with the call's error) if the
  /// device could not take it.
  void *place(const Map &map) {
    std::lock_guard<std::mutex> lock(mutex);
    auto [at, inserted] = placed.try_emplace(map, nullptr);
    if (!inserted)
      return at->second;
    if (used == kPerSlab) {
      CUdeviceptr slab = 0;
      if (!check("cuMemAlloc", api().cuMemAlloc(&slab, kBytes * kPerSlab))) {
        placed.erase(at);
        return nullptr;
      }
      next = reinterpret_cast<unsigned char *>(slab);
      used = 0;
    }
    void *device = next + kBytes * used;
    // (Pageable host memory: the copy has been staged when the call
    // returns; the wait orders it before the kernels of any stream.)
    if (!check("cuMemcpyAsync",
               api().cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(device),
                                   reinterpret_cast<CUdeviceptr>(map.data()),
                                   kBytes, nullptr)) ||
        !check("cuStreamSynchronize", api().cuStreamSynchronize(nullptr))) {
      placed.erase(at);
      return nullptr;
    }
    ++used;
    return at->second = device;
  }

private:
  static constexpr size_t kPerSlab = 512;
  std::mutex mutex;
  std::map<Map, void *> placed;
  unsigned char *next = nullptr;
  size_t used = kPerSlab;
};

TensorMaps &tensorMaps() {
  static TensorMaps *maps = new TensorMaps; // outlives static destructors
  return *maps;
}

/// Bytes of an element of each CUtensorMapDataType (uint8 ... tf32_ftz).
constexpr int64_t kTensorMapElementBytes[] = {1, 2, 4, 4, 8, 8, 2,
                                              4, 8, 2, 4, 4, 4};
} // namespace

extern "C" {

/// A TMA tensor map of the ranked memref `descriptor` (MLIR's descriptor:
/// allocated and aligned pointers, offset, sizes, strides) in boxes of
/// `box` (outermost first), in device memory: what nvgpu's
/// tma.create.descriptor lowers to. The driver takes dims innermost first
/// and strides in bytes, the innermost (1) left out.
void *mgpuTensorMapEncodeTiledMemref(int64_t rank, void *descriptor,
                                     int64_t dataType, int64_t interleave,
                                     int64_t swizzle, int64_t l2Promotion,
                                     int64_t oobFill, int64_t *box) {
  if (!usable())
    return nullptr;
  if (!api().cuTensorMapEncodeTiled) {
    fail("TMA kernels (sm_90a) need a CUDA 12 driver or newer: this one has "
         "no cuTensorMapEncodeTiled");
    return nullptr;
  }
  if (rank < 1 || rank > 5 || dataType < 0 ||
      dataType >= int64_t(std::size(kTensorMapElementBytes))) {
    fail("cuTensorMapEncodeTiled: a rank " + std::to_string(rank) +
         " tensor of data type " + std::to_string(dataType) +
         " has no tensor map");
    return nullptr;
  }
  auto *fields = static_cast<int64_t *>(descriptor);
  char *aligned = reinterpret_cast<char **>(descriptor)[1];
  const int64_t *sizes = fields + 3, *strides = fields + 3 + rank;
  int64_t bytes = kTensorMapElementBytes[dataType];
  unsigned long long dims[5], byteStrides[4];
  unsigned boxDims[5], elementStrides[5];
  for (int64_t r = 0; r < rank; ++r) {
    dims[r] = sizes[rank - 1 - r];
    boxDims[r] = unsigned(box[rank - 1 - r]);
    elementStrides[r] = 1;
  }
  for (int64_t r = 0; r + 1 < rank; ++r)
    byteStrides[r] = strides[rank - 2 - r] * bytes;
  alignas(64) TensorMaps::Map map{};
  if (!check("cuTensorMapEncodeTiled",
             api().cuTensorMapEncodeTiled(
                 map.data(), int(dataType), unsigned(rank),
                 aligned + fields[2] * bytes, dims, byteStrides, boxDims,
                 elementStrides, int(interleave), int(swizzle),
                 int(l2Promotion), int(oobFill))))
    return nullptr;
  return tensorMaps().place(map);
}

} // extern "C"

std::string tracec::cuda::deviceChip() {
  const Driver &loaded = driver();
  int major = 0, minor = 0;
  if (!loaded.error.empty() ||
      loaded.api.cuDeviceGetAttribute(&major, kDeviceComputeCapabilityMajor,
                                      0) ||
      loaded.api.cuDeviceGetAttribute(&minor, kDeviceComputeCapabilityMinor, 0))
    return kDefaultChip;
  // Hopper's wgmma and TMA are the arch-specific sm_90a's.
  if (major == 9 && minor == 0)
    return "sm_90a";
  std::string chip = "sm_" + std::to_string(major) + std::to_string(minor);
  static const char *const known[] = {"sm_50", "sm_52",  "sm_53",  "sm_60",
                                      "sm_61", "sm_62",  "sm_70",  "sm_72",
                                      "sm_75", "sm_80",  "sm_86",  "sm_87",
                                      "sm_89", "sm_100", "sm_101", "sm_120"};
  // A newer device runs sm_80 code, which the driver compiles for it.
  for (const char *name : known)
    if (chip == name)
      return chip;
  return kDefaultChip;
}

void *tracec_cuda_alloc_managed(size_t bytes) {
  std::string earlier = std::move(state.error);
  state.error.clear();
  void *pointer = mgpuMemAlloc(bytes ? bytes : 1, nullptr,
                               /*isHostShared=*/true);
  bool failed = !state.error.empty();
  if (failed)
    mgpuMemFree(pointer, nullptr); // host memory made in its stead
  if (!earlier.empty())
    state.error = std::move(earlier);
  return failed ? nullptr : pointer;
}

void tracec_cuda_free_managed(void *pointer) { mgpuMemFree(pointer, nullptr); }

// CU_POINTER_ATTRIBUTE_IS_MANAGED of the driver ABI.
static constexpr int kPointerAttributeIsManaged = 8;

int tracec_cuda_is_managed(const void *pointer) {
  // (Without loading the driver, which would start CUDA in a process that
  // only asks about its host arrays.)
  if (!pointer || !driverLoaded() || !cleanupPossible())
    return 0;
  unsigned managed = 0;
  return api().cuPointerGetAttribute(&managed, kPointerAttributeIsManaged,
                                     reinterpret_cast<CUdeviceptr>(pointer)) ==
             0 &&
         managed;
}

bool tracec::cuda::waitForDefaultStream() {
  return usable() &&
         check("cuStreamSynchronize", api().cuStreamSynchronize(nullptr));
}

bool tracec::cuda::copy(void *destination, const void *source, size_t bytes) {
  return usable() &&
         check("cuMemcpyAsync",
               api().cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(destination),
                                   reinterpret_cast<CUdeviceptr>(source), bytes,
                                   nullptr)) &&
         waitForDefaultStream();
}

const EntryPoint *tracec::cuda::entryPoints() {
#define ENTRY(name) {#name, reinterpret_cast<void *>(&name)}
  static const EntryPoint entries[] = {ENTRY(mgpuModuleLoad),
                                       ENTRY(mgpuModuleLoadJIT),
                                       ENTRY(mgpuModuleUnload),
                                       ENTRY(mgpuModuleGetFunction),
                                       ENTRY(mgpuLaunchKernel),
                                       ENTRY(mgpuStreamCreate),
                                       ENTRY(mgpuStreamDestroy),
                                       ENTRY(mgpuStreamSynchronize),
                                       ENTRY(mgpuStreamWaitEvent),
                                       ENTRY(mgpuEventCreate),
                                       ENTRY(mgpuEventDestroy),
                                       ENTRY(mgpuEventSynchronize),
                                       ENTRY(mgpuEventRecord),
                                       ENTRY(mgpuMemAlloc),
                                       ENTRY(mgpuMemFree),
                                       ENTRY(mgpuMemcpy),
                                       ENTRY(mgpuMemset32),
                                       ENTRY(mgpuMemset16),
                                       ENTRY(mgpuTensorMapEncodeTiledMemref),
                                       ENTRY(tracec_cuda_is_managed),
                                       {nullptr, nullptr}};
#undef ENTRY
  return entries;
}
