// RUN: tracec-opt %S/../../Execution/control-flow.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=CF -DCHIP=sm_80
// RUN: tracec-opt %S/../../Execution/control-flow.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=CF -DCHIP=sm_90
// RUN: tracec-opt %S/../../Execution/identity.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=IDENT -DCHIP=sm_80
// RUN: tracec-opt %S/../../Execution/identity.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=IDENT -DCHIP=sm_90
// RUN: tracec-opt %S/../../Execution/autodiff-mlp.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=MLP -DCHIP=sm_80
// RUN: tracec-opt %S/../../Execution/autodiff-mlp.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=MLP -DCHIP=sm_90

// Control flow (scf.if/for/while on tensors), identity and differentiation (value_and_grad of an MLP) compile to PTX for sm_80 and sm_90: the
// functions of test/Execution/{control-flow.mlir,identity.mlir,autodiff-mlp.mlir}, whose kernels call
// nothing unresolved (no libdevice). Numbers: run-on-gpu.mlir (needs a GPU).
//
// Each input is checked for its chip and for the instructions that carry
// its ops' meaning, which a kernel computing something else would lose:
// power_sum multiplies (the called function) and adds; pick is exp or
// abs; halve_until_small sums (a block tree) and halves; identity moves
// values unchanged; the MLP's value_and_grad runs matmul tiles, relu as a
// NaN-propagating max and the softmax's exp.

// CF-LABEL: // gpu.binary @power_sum_kernel_1 (
// CF: .target [[CHIP]]
// CF: mul.rn.f32 [[R:%r[0-9]+]]
// CF: st.global.b32 [{{.*}}], [[R]];
// CF-LABEL: // gpu.binary @power_sum_kernel_2 (
// CF: .target [[CHIP]]
// CF: add.rn.f32 [[R:%r[0-9]+]]
// CF: st.global.b32 [{{.*}}], [[R]];
// CF-LABEL: // gpu.binary @pick_kernel (
// CF: .target [[CHIP]]
// CF: mul.rn.f32 {{.*}}, 0f3FB8AA3B;
// CF: cvt.rmi.f32.f32
// CF: shl.b32 {{.*}}, 23;
// CF-LABEL: // gpu.binary @pick_kernel_4 (
// CF: .target [[CHIP]]
// CF: abs.f32 [[R:%r[0-9]+]]
// CF: st.global.b32 [{{.*}}], [[R]];
// CF-LABEL: // gpu.binary @halve_until_small_kernel_6 (
// CF: .target [[CHIP]]
// CF: add.rn.f32
// CF: shfl.sync.bfly.b32
// CF: add.rn.f32
// CF: st.shared.b32
// CF: bar.sync 0;
// CF: ld.shared.b32
// CF: st.global.b32
// CF-LABEL: // gpu.binary @halve_until_small_kernel_8 (
// CF: .target [[CHIP]]
// CF: mul.rn.f32 [[R:%r[0-9]+]]
// CF: st.global.b32 [{{.*}}], [[R]];

// IDENT: .target [[CHIP]]
// IDENT: ld.global.b32 [[V:%r[0-9]+]]
// IDENT: st.global.b32 [{{.*}}], [[V]];

// MLP: .target [[CHIP]]
// MLP: bar.sync 0;
// MLP: ld.shared.b32 [[A:%r[d]?[0-9]+]]
// MLP: ld.shared.b32 [[B:%r[d]?[0-9]+]]
// MLP: mul.rn.f32 [[P:%r[d]?[0-9]+]], [[A]], [[B]];
// MLP: add.rn.f32 {{.*}}[[P]]
// MLP: max.NaN.f32
// MLP: mul.rn.f32 {{.*}}, 0f3FB8AA3B;
// MLP: cvt.rmi.f32.f32
// MLP: shl.b32 {{.*}}, 23;
