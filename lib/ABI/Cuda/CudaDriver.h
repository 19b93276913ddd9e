//===- CudaDriver.h - The CUDA driver API, loaded at run time -------------===//
//
// The few driver entry points the shim calls, resolved with dlsym from
// libcuda.so.1, so that nothing of CUDA is needed to build. Types are the
// driver's ABI: handles are opaque pointers, results are ints (0 = success).
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_LIB_ABI_CUDA_CUDADRIVER_H
#define TRACEC_LIB_ABI_CUDA_CUDADRIVER_H

#include <cstddef>
#include <string>

namespace tracec::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUjit_option = int;
using CUevent = struct CUevent_st *;

/// The resolved entry points (names as the driver exports them: the _v2
/// variants cuda.h maps the plain names to).
struct DriverApi {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned,
                                 CUjit_option *, void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, unsigned, CUstream,
                             void **, void **);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemAllocManaged)(CUdeviceptr *, size_t, unsigned);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  CUresult (*cuMemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*cuPointerGetAttribute)(void *, int, CUdeviceptr);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  /// CUDA 12 and newer (Hopper's TMA); null where the driver is older.
  CUresult (*cuTensorMapEncodeTiled)(void *, int, unsigned, void *,
                                     const unsigned long long *,
                                     const unsigned long long *,
                                     const unsigned *, const unsigned *, int,
                                     int, int, int);
};

/// The driver with device 0's primary context, or why there is none.
struct Driver {
  DriverApi api{};
  CUcontext context = nullptr;
  /// Empty when the driver is usable; else, e.g., "CUDA driver not found:
  /// libcuda.so.1: cannot open shared object file: ...".
  std::string error;
};

/// Loads the driver once per process. The library comes from the
/// TRACEC_CUDA_DRIVER environment variable if set (tests point it at a
/// missing file to check the no-driver path), else libcuda.so.1.
const Driver &driver();

/// Whether driver() has been asked for (the driver loaded, or found
/// missing): before that, no memory is the device's.
bool driverLoaded();

/// "cuLaunchKernel: CUDA_ERROR_INVALID_VALUE (invalid argument)".
std::string describe(const char *call, CUresult result);

} // namespace tracec::cuda

#endif // TRACEC_LIB_ABI_CUDA_CUDADRIVER_H
