//===- tracec-tblgen.cpp - tracec's TableGen driver -----------------------===//
//
// mlir-tblgen's driver with tracec's backends (registered by their files'
// static GenRegistrations) in place of upstream's.
//
//===----------------------------------------------------------------------===//

#include "mlir/Tools/mlir-tblgen/MlirTblgenMain.h"

int main(int argc, char **argv) { return mlir::MlirTblgenMain(argc, argv); }
