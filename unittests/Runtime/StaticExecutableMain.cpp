//===- StaticExecutableMain.cpp - Executables destroyed after main --------===//
//
// A program that keeps its Compiler, Executables and a Function in static
// objects, destroyed after main returns, as a user's program may. It must
// exit 0 every time: ctest runs it 20 times (the crash this guards against
// happened about one run in two).
//
//===----------------------------------------------------------------------===//

#include "tracec/Runtime/Executable.h"

#include <cstdio>
#include <optional>

using namespace tracec;

static const char *kModule = R"(
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = trace.exp %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @never_called(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = trace.tanh %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
)";

static Compiler compiler;
static std::unique_ptr<Executable> kept;
static std::optional<Function> keptFunction;

/// One initialized on first use: destroyed before the statics above.
static Executable &lazilyCompiled(const Module &module) {
  static std::unique_ptr<Executable> exe = [&] {
    auto compiled = Executable::compile(module, {Target::cpu, /*optLevel=*/0});
    if (!compiled) {
      llvm::errs() << compiled.takeError() << "\n";
      std::exit(1);
    }
    return std::move(*compiled);
  }();
  return *exe;
}

int main() {
  auto module = compiler.parseString(kModule);
  if (!module) {
    llvm::errs() << module.takeError() << "\n";
    return 1;
  }
  auto exe = Executable::compile(*module);
  if (!exe) {
    llvm::errs() << exe.takeError() << "\n";
    return 1;
  }
  kept = std::move(*exe);
  auto f = kept->function("f");
  if (!f) {
    llvm::errs() << f.takeError() << "\n";
    return 1;
  }
  keptFunction = *f;
  auto x = Tensor::fromVector<float>({0, 1, 2, 3}, {4});
  auto outputs = (*keptFunction)({*x});
  if (!outputs) {
    llvm::errs() << outputs.takeError() << "\n";
    return 1;
  }
  std::printf("%s\n", (*outputs)[0].toString().c_str());
  // Compiled, never called: nothing of it may be left to compile at exit.
  (void)lazilyCompiled(*module);
  return 0;
}
