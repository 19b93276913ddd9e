//===- PrintGpuAssembly.cpp - The PTX of each gpu.binary, as text ---------===//

#include "tracec/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::trace {
#define GEN_PASS_DEF_TRACEPRINTGPUASSEMBLY
#include "tracec/Codegen/GPU/Passes.h.inc"
} // namespace mlir::trace

using namespace mlir;

namespace {
struct PrintGpuAssemblyPass
    : mlir::trace::impl::TracePrintGpuAssemblyBase<PrintGpuAssemblyPass> {
  void runOnOperation() override {
    llvm::raw_ostream &os = llvm::outs();
    getOperation().walk([&](gpu::BinaryOp binary) {
      for (Attribute attr : binary.getObjects()) {
        auto object = dyn_cast<gpu::ObjectAttr>(attr);
        if (!object)
          continue;
        os << "// gpu.binary @" << binary.getSymName() << " ("
           << object.getTarget() << ")\n";
        if (object.getFormat() == gpu::CompilationTarget::Assembly)
          os << object.getObject().getValue() << "\n";
        else
          os << "// not assembly: " << object.getObject().size()
             << " bytes\n";
      }
    });
    os.flush();
    markAllAnalysesPreserved();
  }
};
} // namespace
