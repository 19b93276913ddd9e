// RUN: tracec-opt %S/../../Execution/matmul-reductions.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=MMR -DCHIP=sm_80
// RUN: tracec-opt %S/../../Execution/matmul-reductions.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=MMR -DCHIP=sm_90
// RUN: tracec-opt %S/../../Execution/argmax.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=ARGMAX -DCHIP=sm_80
// RUN: tracec-opt %S/../../Execution/argmax.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=ARGMAX -DCHIP=sm_90
// RUN: tracec-opt %S/../../Execution/softmax.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SOFTMAX -DCHIP=sm_80
// RUN: tracec-opt %S/../../Execution/softmax.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SOFTMAX -DCHIP=sm_90
// RUN: tracec-opt %S/../../Execution/log_softmax.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=LOGSOFTMAX -DCHIP=sm_80
// RUN: tracec-opt %S/../../Execution/log_softmax.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=LOGSOFTMAX -DCHIP=sm_90

// matmul (plain, transposed, batched) and the reductions (reduce_*, argmax, softmax, log_softmax) compile to PTX for sm_80 and sm_90: the
// functions of test/Execution/{matmul-reductions.mlir,argmax.mlir,softmax.mlir,log_softmax.mlir}, whose kernels call
// nothing unresolved (no libdevice). Numbers: run-on-gpu.mlir (needs a GPU).
//
// Each input is checked for its chip and for the instructions that carry
// its ops' meaning, which a kernel computing something else would lose:
// Matmuls are shared-memory tiles: after the barrier both operands come
// from shared memory and their product is accumulated (the i64 one in
// 64-bit integers). Reductions are block trees: the combiner (add, max,
// min; NaN-propagating for floats) before and after the warp shuffles, then
// shared memory across warps. argmax compares with NaN and ties handled and
// selects the index; softmax is max-tree, exp(x - max), sum-tree, divide;
// log_softmax subtracts the log of the sum instead.

// MMR-LABEL: // gpu.binary @matmul_kernel{{(_[0-9]+)?}} (
// MMR: .target [[CHIP]]
// MMR: bar.sync 0;
// MMR: ld.shared.b32 [[A:%r[d]?[0-9]+]]
// MMR: ld.shared.b32 [[B:%r[d]?[0-9]+]]
// MMR: mul.rn.f32 [[P:%r[d]?[0-9]+]], [[A]], [[B]];
// MMR: add.rn.f32 {{.*}}[[P]]
// MMR: st.global.b32
// MMR-LABEL: // gpu.binary @matmul_ta_kernel{{(_[0-9]+)?}} (
// MMR: .target [[CHIP]]
// MMR: bar.sync 0;
// MMR: ld.shared.b32 [[A:%r[d]?[0-9]+]]
// MMR: ld.shared.b32 [[B:%r[d]?[0-9]+]]
// MMR: mul.rn.f32 [[P:%r[d]?[0-9]+]], [[A]], [[B]];
// MMR: add.rn.f32 {{.*}}[[P]]
// MMR: st.global.b32
// MMR-LABEL: // gpu.binary @matmul_tb_kernel{{(_[0-9]+)?}} (
// MMR: .target [[CHIP]]
// MMR: bar.sync 0;
// MMR: ld.shared.b32 [[A:%r[d]?[0-9]+]]
// MMR: ld.shared.b32 [[B:%r[d]?[0-9]+]]
// MMR: mul.rn.f32 [[P:%r[d]?[0-9]+]], [[A]], [[B]];
// MMR: add.rn.f32 {{.*}}[[P]]
// MMR: st.global.b32
// The broadcast batch (a size-1 dim, folded away) leaves a contraction
// with a thread per output element, each walking k.
// MMR-LABEL: // gpu.binary @matmul_batched_broadcast_kernel{{(_[0-9]+)?}} (
// MMR: .target [[CHIP]]
// MMR: ld.global.b32
// MMR: mul.rn.f32 [[P:%r[0-9]+]]
// MMR: add.rn.f32 {{.*}}[[P]]
// MMR: st.global.b32
// MMR-LABEL: // gpu.binary @matmul_i64_kernel{{(_[0-9]+)?}} (
// MMR: .target [[CHIP]]
// MMR: bar.sync 0;
// MMR: ld.shared.b64
// MMR: ld.shared.b64
// MMR: mad.lo.s64 [[C:%rd[0-9]+]], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[C]];
// MMR: st.global.b32
// MMR-LABEL: // gpu.binary @reduce_sum_kernel{{(_[0-9]+)?}} (
// MMR: .target [[CHIP]]
// MMR: add.rn.f32
// MMR: shfl.sync.bfly.b32
// MMR: add.rn.f32
// MMR: st.shared.b32
// MMR: bar.sync 0;
// MMR: ld.shared.b32
// MMR: st.global.b32
// MMR-LABEL: // gpu.binary @reduce_mean_keepdims_kernel_{{[0-9]+}} (
// MMR: .target [[CHIP]]
// MMR: add.rn.f32
// MMR: shfl.sync.bfly.b32
// MMR: add.rn.f32
// MMR: st.shared.b32
// MMR: bar.sync 0;
// MMR: ld.shared.b32
// MMR: st.global.b32
// MMR-LABEL: // gpu.binary @reduce_mean_keepdims_kernel_{{[0-9]+}} (
// MMR: .target [[CHIP]]
// MMR: div.rn.f32 [[R:%r[0-9]+]]
// MMR: st.global.b32 [{{.*}}], [[R]];
// MMR-LABEL: // gpu.binary @reduce_max_negative_axis_kernel{{(_[0-9]+)?}} (
// MMR: .target [[CHIP]]
// MMR: max.NaN.f32
// MMR: shfl.sync.bfly.b32
// MMR: max.NaN.f32
// MMR: st.shared.b32
// MMR: bar.sync 0;
// MMR: ld.shared.b32
// MMR: st.global.b32
// MMR-LABEL: // gpu.binary @reduce_min_all_kernel{{(_[0-9]+)?}} (
// MMR: .target [[CHIP]]
// MMR: min.NaN.f32
// MMR: shfl.sync.bfly.b32
// MMR: min.NaN.f32
// MMR: st.shared.b32
// MMR: bar.sync 0;
// MMR: ld.shared.b32
// MMR: st.global.b32
// MMR-LABEL: // gpu.binary @reduce_sum_i32_kernel{{(_[0-9]+)?}} (
// MMR: .target [[CHIP]]
// MMR: add.s32
// MMR: shfl.sync.bfly.b32
// MMR: add.s32
// MMR: st.shared.b32
// MMR: bar.sync 0;
// MMR: ld.shared.b32
// MMR: st.global.b32

// ARGMAX: .target [[CHIP]]
// ARGMAX: setp.nan.f32
// ARGMAX: setp.gt.f32
// ARGMAX: setp.eq.f32
// ARGMAX: selp.b64
// ARGMAX: st.global.b32

// SOFTMAX: .target [[CHIP]]
// SOFTMAX: max.NaN.f32
// SOFTMAX: shfl.sync.bfly.b32
// SOFTMAX: max.NaN.f32
// SOFTMAX: st.shared.b32
// SOFTMAX: bar.sync 0;
// SOFTMAX: ld.shared.b32
// SOFTMAX: st.global.b32
// SOFTMAX: sub.rn.f32
// SOFTMAX: mul.rn.f32 {{.*}}, 0f3FB8AA3B;
// SOFTMAX: cvt.rmi.f32.f32
// SOFTMAX: shl.b32 {{.*}}, 23;
// SOFTMAX: add.rn.f32
// SOFTMAX: shfl.sync.bfly.b32
// SOFTMAX: add.rn.f32
// SOFTMAX: st.shared.b32
// SOFTMAX: bar.sync 0;
// SOFTMAX: ld.shared.b32
// SOFTMAX: st.global.b32
// SOFTMAX: div.rn.f32 [[R:%r[0-9]+]]
// SOFTMAX: st.global.b32 [{{.*}}], [[R]];

// LOGSOFTMAX: .target [[CHIP]]
// LOGSOFTMAX: max.NaN.f32
// LOGSOFTMAX: shfl.sync.bfly.b32
// LOGSOFTMAX: max.NaN.f32
// LOGSOFTMAX: st.shared.b32
// LOGSOFTMAX: bar.sync 0;
// LOGSOFTMAX: ld.shared.b32
// LOGSOFTMAX: st.global.b32
// LOGSOFTMAX: sub.rn.f32
// LOGSOFTMAX: mul.rn.f32 {{.*}}, 0f3FB8AA3B;
// LOGSOFTMAX: cvt.rmi.f32.f32
// LOGSOFTMAX: shl.b32 {{.*}}, 23;
// LOGSOFTMAX: add.rn.f32
// LOGSOFTMAX: shfl.sync.bfly.b32
// LOGSOFTMAX: add.rn.f32
// LOGSOFTMAX: st.shared.b32
// LOGSOFTMAX: bar.sync 0;
// LOGSOFTMAX: ld.shared.b32
// LOGSOFTMAX: st.global.b32
// LOGSOFTMAX: and.b32 {{.*}}, -2139095041;
// LOGSOFTMAX: shr.u32 {{.*}}, 23;
// LOGSOFTMAX: cvt.rn.f32.s32
// LOGSOFTMAX: selp.f32 [[L:%r[0-9]+]], 0fFF800000,
// LOGSOFTMAX: sub.rn.f32 [[R:%r[0-9]+]], {{%r[0-9]+}}, [[L]];
// LOGSOFTMAX: st.global.b32 [{{.*}}], [[R]];
