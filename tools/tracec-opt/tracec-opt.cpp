//===- tracec-opt.cpp - mlir-opt with the trace dialect -------------------===//
//
// The upstream dialects and passes, plus ours: every mlir-opt flag works
// (--pass-pipeline, -split-input-file, -verify-diagnostics, ...).
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "tracec/Dialect/Trace/IR/TraceDialect.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::trace::TraceDialect>();

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "tracec optimizer driver\n", registry));
}
