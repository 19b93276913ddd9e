//===- WaitPolicy.cpp - An AOT object's OpenMP workers spin, then sleep ---===//

#include "WaitPolicy.h"
#include "RuntimeSource.h"

#include "tracec/ABI/tracec_openmp.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"

using namespace mlir;

/// The constructor, as LLVM dialect source; `@VALUE@` becomes the spin
/// time. setenv does not overwrite: a value the environment has wins.
static std::string constructorSource() {
  std::string source = R"mlir(
llvm.func @getenv(!llvm.ptr) -> !llvm.ptr
llvm.func @setenv(!llvm.ptr, !llvm.ptr, i32) -> i32
llvm.mlir.global private constant @__tracec_aot_kmp_blocktime("KMP_BLOCKTIME\00") {addr_space = 0 : i32}
llvm.mlir.global private constant @__tracec_aot_omp_wait_policy("OMP_WAIT_POLICY\00") {addr_space = 0 : i32}
llvm.mlir.global private constant @__tracec_aot_blocktime_value("@VALUE@\00") {addr_space = 0 : i32}
llvm.func internal @__tracec_aot_set_wait_policy() {
  %name = llvm.mlir.addressof @__tracec_aot_kmp_blocktime : !llvm.ptr
  %policy = llvm.mlir.addressof @__tracec_aot_omp_wait_policy : !llvm.ptr
  %value = llvm.mlir.addressof @__tracec_aot_blocktime_value : !llvm.ptr
  %null = llvm.mlir.zero : !llvm.ptr
  %blocktime = llvm.call @getenv(%name) : (!llvm.ptr) -> !llvm.ptr
  %waitPolicy = llvm.call @getenv(%policy) : (!llvm.ptr) -> !llvm.ptr
  %noBlocktime = llvm.icmp "eq" %blocktime, %null : !llvm.ptr
  %noWaitPolicy = llvm.icmp "eq" %waitPolicy, %null : !llvm.ptr
  %unset = llvm.and %noBlocktime, %noWaitPolicy : i1
  llvm.cond_br %unset, ^set, ^done
^set:
  %keep = llvm.mlir.constant(0 : i32) : i32
  %0 = llvm.call @setenv(%name, %value, %keep) : (!llvm.ptr, !llvm.ptr, i32) -> i32
  llvm.br ^done
^done:
  llvm.return
}
llvm.mlir.global_ctors ctors = [@__tracec_aot_set_wait_policy], priorities = [65535 : i32], data = [#llvm.zero]
)mlir";
  std::string placeholder = "@VALUE@";
  source.replace(source.find(placeholder), placeholder.size(),
                 TRACEC_OPENMP_BLOCKTIME);
  return source;
}

LogicalResult tracec::aot::setOpenMPWaitPolicy(ModuleOp module) {
  // Parallel regions stay omp.parallel until translation to LLVM IR.
  if (!module.walk([](omp::ParallelOp) { return WalkResult::interrupt(); })
           .wasInterrupted())
    return success();
  // CPU code has no constructors of its own; one list holds them all.
  if (!module.getOps<LLVM::GlobalCtorsOp>().empty())
    return emitError(module.getLoc())
           << "internal error: the AOT object already has constructors";
  return mergeRuntimeSource(module, constructorSource(),
                            "wait-policy constructor");
}
