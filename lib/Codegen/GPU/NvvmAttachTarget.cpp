//===- NvvmAttachTarget.cpp - A checked #nvvm.target on gpu.modules -------===//
//
// LLVM's NVPTX back end aborts the process on a PTX version its chip does
// not support, and only warns on an unknown chip; both are checked here
// first, against the chips LLVM 22 knows.
//
//===----------------------------------------------------------------------===//

#include "tracec/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACENVVMATTACHTARGET
#include "tracec/Codegen/GPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

/// The lowest PTX ISA version (x10) that supports `chip`, 0 if unknown.
static unsigned minimumPtxVersion(StringRef chip) {
  return llvm::StringSwitch<unsigned>(chip)
      .Cases({"sm_50", "sm_52", "sm_53"}, 40)
      .Cases({"sm_60", "sm_61", "sm_62"}, 50)
      .Case("sm_70", 60)
      .Case("sm_72", 61)
      .Case("sm_75", 63)
      .Case("sm_80", 70)
      .Case("sm_86", 71)
      .Case("sm_87", 74)
      .Cases({"sm_89", "sm_90"}, 78)
      .Case("sm_90a", 80)
      .Cases({"sm_100", "sm_100a", "sm_101", "sm_101a"}, 86)
      .Cases({"sm_120", "sm_120a"}, 87)
      .Default(0);
}

namespace {
struct NvvmAttachTargetPass
    : mlir::trace::impl::TraceNvvmAttachTargetBase<NvvmAttachTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    unsigned minimum = minimumPtxVersion(chip);
    if (!minimum) {
      module.emitError() << "unsupported GPU chip '" << chip
                         << "': expected one of sm_50..sm_120 (e.g. sm_80, "
                            "sm_90, sm_90a)";
      return signalPassFailure();
    }
    // "+ptx78" and the like; other features pass through.
    for (StringRef feature : llvm::split(StringRef(features), ',')) {
      unsigned version = 0;
      if (!feature.consume_front("+ptx"))
        continue;
      if (feature.getAsInteger(10, version) || version < minimum) {
        module.emitError() << "GPU features '" << features << "': " << chip
                           << " needs PTX ISA " << minimum / 10 << "."
                           << minimum % 10 << " or newer (+ptx" << minimum
                           << ")";
        return signalPassFailure();
      }
    }
    if (optLevel > 3) {
      module.emitError() << "GPU optimization level must be 0..3, got "
                         << optLevel;
      return signalPassFailure();
    }
    auto target = NVVM::NVVMTargetAttr::get(&getContext(), optLevel,
                                            "nvptx64-nvidia-cuda", chip,
                                            features);
    Builder builder(&getContext());
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>())
      gpuModule.setTargetsAttr(builder.getArrayAttr({target}));
  }
};
} // namespace
