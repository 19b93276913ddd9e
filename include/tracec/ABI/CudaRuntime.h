//===- CudaRuntime.h - What compiled GPU code calls -----------------------===//
//
// The mgpu* entry points that MLIR's gpu-to-llvm lowering makes host code
// call (module load, kernel launch, alloc/free, memcpy, streams, events),
// implemented on the CUDA driver API loaded with dlopen("libcuda.so.1") at
// run time: building needs no CUDA headers or SDK.
//
// Errors. The mgpu* ABI returns void or a handle, so a failure cannot
// travel through the compiled code. Instead, the first error of a call is
// recorded in thread-local state (each thread runs its own calls) and the
// caller asks for it afterwards: beginCall(), run the code, takeError().
// After a failure nothing more reaches the device: launches, copies and
// fills are skipped and allocations come from host memory, so the host
// code runs to its end safely (its results are garbage, and the caller
// gets the error instead of them). Where the driver cannot be loaded,
// every entry point fails with "CUDA driver not found: ...".
//
//===----------------------------------------------------------------------===//

#ifndef TRACEC_ABI_CUDARUNTIME_H
#define TRACEC_ABI_CUDARUNTIME_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace tracec::cuda {

/// Starts a call into compiled GPU code on this thread: forgets the error
/// of the previous one.
void beginCall();

/// The first error on this thread since beginCall(), and clears it; empty
/// if there was none.
std::string takeError();

/// Whether the driver loaded and found a device; if not, `why` says why
/// ("CUDA driver not found: ...").
bool driverAvailable(std::string *why = nullptr);

/// What code compiled without a chip named targets (sm_80, which newer
/// devices run through the driver's PTX compiler).
inline constexpr const char *kDefaultChip = "sm_80";

/// The chip of device 0 as the GPU pipeline names it ("sm_90a" for
/// Hopper, whose wgmma and TMA are that target's); kDefaultChip where
/// there is no driver or the pipeline knows no newer name for it.
std::string deviceChip();

/// Waits for the work queued on the legacy default stream (where a DLPack
/// producer asked for stream 1 leaves it). False, with takeError() saying
/// why, when the device failed or there is none.
bool waitForDefaultStream();

/// Copies `bytes` between any memories the device addresses (device,
/// managed, host), in order after the default stream's work, and waits for
/// the copy. False as waitForDefaultStream.
bool copy(void *destination, const void *source, size_t bytes);

/// An mgpu* entry point, for a JIT to link compiled code against.
struct EntryPoint {
  const char *name;
  void *address;
};
/// All of them, ending with {nullptr, nullptr}.
const EntryPoint *entryPoints();

} // namespace tracec::cuda

#endif // TRACEC_ABI_CUDARUNTIME_H
