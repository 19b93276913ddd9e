//===- LibraryNames.cpp - Functions named like C library symbols ----------===//

#include "tracec/Pipelines/LibraryNames.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/DynamicLibrary.h"

using namespace mlir;

llvm::StringMap<std::string>
tracec::renameLibraryNameClashes(ModuleOp module) {
  llvm::StringMap<std::string> renamed;
  // The process's own symbols: libc and libm are always loaded, and they
  // are what the compiled code links against (JIT and AOT alike).
  llvm::sys::DynamicLibrary process =
      llvm::sys::DynamicLibrary::getPermanentLibrary(nullptr);
  SymbolTable symbols(module);
  for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
    std::string name = func.getSymName().str();
    if (func.isExternal() || !process.getAddressOfSymbol(name.c_str()))
      continue;
    // A '.', which no C symbol has, then a number if the module has that name.
    std::string newName = name + ".tracec";
    for (unsigned i = 1; symbols.lookup(newName); ++i)
      newName = name + ".tracec" + std::to_string(i);
    if (succeeded(symbols.rename(func, newName)))
      renamed[name] = newName;
  }
  return renamed;
}
