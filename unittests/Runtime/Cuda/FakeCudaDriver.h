//===- FakeCudaDriver.h - What the fake CUDA driver saw -------------------===//

#ifndef TRACEC_UNITTESTS_RUNTIME_CUDA_FAKECUDADRIVER_H
#define TRACEC_UNITTESTS_RUNTIME_CUDA_FAKECUDADRIVER_H

#include <array>
#include <string>
#include <vector>

struct FakeLaunch {
  std::string kernel;
  std::array<unsigned, 3> grid, block;
  const void *stream = nullptr;
  /// The host's waits for the device before this launch.
  int synchronizationsBefore = 0;
  /// Its dynamic shared memory.
  unsigned sharedBytes = 0;
};

/// What cuTensorMapEncodeTiled was asked for (dims and box innermost
/// first, strides in bytes).
struct FakeTensorMap {
  int dataType = 0;
  const void *address = nullptr;
  std::vector<unsigned long long> dims, strides;
  std::vector<unsigned> box;
  int interleave = 0, swizzle = 0;
};

struct FakeCudaStats {
  int modulesLoaded = 0, modulesUnloaded = 0;
  std::string lastModule; // its PTX
  std::vector<FakeLaunch> launches;
  int allocations = 0, frees = 0;
  /// Streams created, and waits of the host for the device (stream and
  /// event synchronizations).
  int streams = 0, synchronizations = 0;
  std::vector<FakeTensorMap> tensorMaps;
};

extern "C" {
/// Copies what the driver saw since the last reset into `stats`.
void fakeCudaStats(FakeCudaStats *stats);
/// Forgets it; launches fail with `launchError` (a CUresult) if not 0.
void fakeCudaReset(int launchError);
}

#endif // TRACEC_UNITTESTS_RUNTIME_CUDA_FAKECUDADRIVER_H
