//===- GpuSyncManagedAllocs.cpp - host_shared allocations made sync again ===//
//
//   %m, %t1 = gpu.alloc async [%t0] host_shared () : memref<4xf32>
//   gpu.launch_func async [%t1] ...
//     ->
//   %m = gpu.alloc host_shared () : memref<4xf32>
//   gpu.launch_func async [%t0] ...
//
// (with several dependencies, a `gpu.wait async` joins them.)
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEGPUSYNCMANAGEDALLOCS
#include "tracec/Codegen/GPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {

struct TraceGpuSyncManagedAllocs
    : trace::impl::TraceGpuSyncManagedAllocsBase<TraceGpuSyncManagedAllocs> {
  void runOnOperation() override {
    SmallVector<gpu::AllocOp> allocs;
    getOperation().walk([&](gpu::AllocOp alloc) {
      if (alloc.getHostShared() && alloc.getAsyncToken())
        allocs.push_back(alloc);
    });
    for (gpu::AllocOp alloc : allocs) {
      OpBuilder builder(alloc);
      Location loc = alloc.getLoc();
      auto sync = gpu::AllocOp::create(
          builder, loc, alloc.getMemref().getType(), /*asyncToken=*/Type(),
          ValueRange{}, alloc.getDynamicSizes(), alloc.getSymbolOperands(),
          /*hostShared=*/true);
      ValueRange dependencies = alloc.getAsyncDependencies();
      Value token = dependencies.size() == 1
                        ? dependencies.front()
                        : gpu::WaitOp::create(
                              builder, loc,
                              gpu::AsyncTokenType::get(builder.getContext()),
                              dependencies)
                              .getAsyncToken();
      alloc.getMemref().replaceAllUsesWith(sync.getMemref());
      alloc.getAsyncToken().replaceAllUsesWith(token);
      alloc.erase();
    }
  }
};

} // namespace
