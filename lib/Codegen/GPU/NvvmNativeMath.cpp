//===- NvvmNativeMath.cpp - libdevice functions NVPTX has as instructions -===//

#include "tracec/Codegen/GPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVM/NVVM/Utils.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACENVVMNATIVEMATH
#include "tracec/Codegen/GPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

/// libdevice function -> the LLVM intrinsic op with the same semantics.
static StringRef intrinsicFor(StringRef function) {
  static const llvm::StringMap<StringRef> intrinsics = {
      {"__nv_floorf", "llvm.intr.floor"},   {"__nv_floor", "llvm.intr.floor"},
      {"__nv_ceilf", "llvm.intr.ceil"},     {"__nv_ceil", "llvm.intr.ceil"},
      {"__nv_fabsf", "llvm.intr.fabs"},     {"__nv_fabs", "llvm.intr.fabs"},
      {"__nv_sqrtf", "llvm.intr.sqrt"},     {"__nv_sqrt", "llvm.intr.sqrt"},
      {"__nv_fmaf", "llvm.intr.fma"},       {"__nv_fma", "llvm.intr.fma"},
      {"__nv_copysignf", "llvm.intr.copysign"},
      {"__nv_copysign", "llvm.intr.copysign"},
      {"__nv_truncf", "llvm.intr.trunc"},   {"__nv_trunc", "llvm.intr.trunc"},
      {"__nv_rintf", "llvm.intr.roundeven"},
      {"__nv_rint", "llvm.intr.roundeven"},
      {"__nv_roundf", "llvm.intr.round"},   {"__nv_round", "llvm.intr.round"},
  };
  return intrinsics.lookup(function);
}

/// Whether gpu-module-to-binary will link CUDA's libdevice: it looks in the
/// toolkit that NVVM::getCUDAToolkitPath() finds (CUDA_ROOT, CUDA_HOME,
/// CUDA_PATH, ...), which machines with the CUDA SDK have.
static bool libdeviceFound() {
  StringRef toolkit = NVVM::getCUDAToolkitPath();
  if (toolkit.empty())
    return false;
  SmallString<128> path(toolkit);
  llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
  return llvm::sys::fs::exists(path);
}

namespace {
struct NvvmNativeMathPass
    : mlir::trace::impl::TraceNvvmNativeMathBase<NvvmNativeMathPass> {
  void runOnOperation() override {
    bool unresolved = false;
    bool libdevice = libdeviceFound();
    getOperation()->walk([&](LLVM::LLVMFuncOp func) {
      if (!func.isExternal() || !func.getName().starts_with("__nv_"))
        return;
      StringRef intrinsic = intrinsicFor(func.getName());
      if (intrinsic.empty() && libdevice)
        return; // gpu-module-to-binary links it
      if (intrinsic.empty()) {
        // The PTX would not load: say so now, where the function is used.
        std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(func, func->getParentOp());
        Operation *user = uses && !uses->empty() ? uses->begin()->getUser()
                                                 : func.getOperation();
        user->emitError() << "'" << func.getName()
                          << "' is a function of CUDA's libdevice, and no "
                             "CUDA toolkit is found (set CUDA_HOME)";
        unresolved = true;
        return;
      }
      OpBuilder builder(func.getContext());
      Block *body = func.addEntryBlock(builder);
      builder.setInsertionPointToStart(body);
      Location loc = func.getLoc();
      OperationState state(loc, intrinsic);
      state.addOperands(body->getArguments());
      state.addTypes(func.getFunctionType().getReturnType());
      Operation *call = builder.create(state);
      LLVM::ReturnOp::create(builder, loc, call->getResults());
      func.setLinkage(LLVM::Linkage::Internal);
    });
    if (unresolved)
      signalPassFailure();
  }
};
} // namespace
