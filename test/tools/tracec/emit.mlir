// --emit: the LLVM dialect with the C entry points, optimized LLVM IR,
// assembly. Only the C functions are exported.
//
// RUN: tracec %s --entry f --class M -o - --emit=mlir | FileCheck %s --check-prefix=MLIR
// RUN: tracec %s --entry f --class M -o - --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: tracec %s --entry f --class M -o - --emit=asm --target-cpu=x86-64-v3 | FileCheck %s --check-prefix=ASM

// MLIR: llvm.func internal @f(
// MLIR-LABEL: llvm.func @m_f(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) -> i32
// MLIR: llvm.icmp "eq"
// MLIR: llvm.cond_br
// MLIR: llvm.mlir.constant(1 : i32)
// MLIR: llvm.call @f(
// MLIR: llvm.mlir.constant(0 : i32)

// LLVM-NOT: define {{.*}}@f(
// LLVM: define{{.*}} i32 @m_f(ptr {{.*}}, ptr {{.*}})
// LLVM-NOT: define {{.*}}@f(

// AVX2 (x86-64-v3) vectors, in the variant that the exported m_f calls
// where the CPU has them (cpu-dispatch.mlir).
// ASM: "m_f.x86-64-v3":
// ASM: ymm
// ASM: .globl m_f
// ASM: m_f:
// ASM: callq __tracec_aot_select_variant
func.func @f(%x: tensor<64xf32>) -> tensor<64xf32> {
  %y = trace.mul %x, %x : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %y : tensor<64xf32>
}
