// RUN: tracec-opt %S/../../Execution/reshape.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=RESHAPE -DCHIP=sm_80
// RUN: tracec-opt %S/../../Execution/reshape.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=RESHAPE -DCHIP=sm_90
// RUN: tracec-opt %S/../../Execution/transpose.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=TRANSPOSE -DCHIP=sm_80
// RUN: tracec-opt %S/../../Execution/transpose.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=TRANSPOSE -DCHIP=sm_90
// RUN: tracec-opt %S/../../Execution/broadcast_to.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=BROADCAST -DCHIP=sm_80
// RUN: tracec-opt %S/../../Execution/broadcast_to.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=BROADCAST -DCHIP=sm_90
// RUN: tracec-opt %S/../../Execution/concat.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=CONCAT -DCHIP=sm_80
// RUN: tracec-opt %S/../../Execution/concat.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=CONCAT -DCHIP=sm_90
// RUN: tracec-opt %S/../../Execution/slice.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SLICE -DCHIP=sm_80
// RUN: tracec-opt %S/../../Execution/slice.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SLICE -DCHIP=sm_90
// RUN: tracec-opt %S/../../Execution/pad.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=PAD -DCHIP=sm_80
// RUN: tracec-opt %S/../../Execution/pad.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=PAD -DCHIP=sm_90
// RUN: tracec-opt %S/Inputs/gather.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=GATHER -DCHIP=sm_80
// RUN: tracec-opt %S/Inputs/gather.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=GATHER -DCHIP=sm_90
// RUN: tracec-opt %S/../../Execution/one_hot.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=ONEHOT -DCHIP=sm_80
// RUN: tracec-opt %S/../../Execution/one_hot.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=ONEHOT -DCHIP=sm_90

// Shape ops (reshape, transpose, broadcast_to, concat, slice, pad, gather, one_hot) compile to PTX for sm_80 and sm_90: the
// functions of test/Execution/{reshape.mlir,transpose.mlir,broadcast_to.mlir,concat.mlir,slice.mlir,pad.mlir,one_hot.mlir}
// and Inputs/gather.mlir (whose operands are arguments), whose kernels call
// nothing unresolved (no libdevice). Numbers: run-on-gpu.mlir (needs a GPU).
//
// Each input is checked for its chip and for the instructions that carry
// its ops' meaning, which a kernel computing something else would lose:
// Shape ops move values: what is stored is what was loaded (the meaning
// is in the addressing). gather clamps its index (max/min) before the
// load; one_hot compares the index with the position and selects.

// RESHAPE: .target [[CHIP]]
// RESHAPE: ld.global.b32 [[V:%r[0-9]+]]
// RESHAPE: st.global.b32 [{{.*}}], [[V]];

// TRANSPOSE: .target [[CHIP]]
// TRANSPOSE: ld.global.b32 [[V:%r[0-9]+]]
// TRANSPOSE: st.global.b32 [{{.*}}], [[V]];

// BROADCAST: .target [[CHIP]]
// BROADCAST: ld.global.b32 [[V:%r[0-9]+]]
// BROADCAST: st.global.b32 [{{.*}}], [[V]];

// CONCAT: .target [[CHIP]]
// CONCAT: ld.global.b32 [[V:%r[0-9]+]]
// CONCAT: st.global.b32 [{{.*}}], [[V]];

// SLICE: .target [[CHIP]]
// SLICE: ld.global.b32 [[V:%r[0-9]+]]
// SLICE: st.global.b32 [{{.*}}], [[V]];

// PAD: .target [[CHIP]]
// PAD: ld.global.b32 [[V:%r[0-9]+]]
// PAD: st.global.b32 [{{.*}}], [[V]];

// GATHER: .target [[CHIP]]
// GATHER: ld.global.s32
// GATHER: max.s64
// GATHER: min.s64
// GATHER: ld.global.b32 [[V:%r[0-9]+]]
// GATHER: st.global.b32 [{{.*}}], [[V]];

// ONEHOT: .target [[CHIP]]
// ONEHOT: ld.global.s32
// ONEHOT: setp.eq.b64 [[P:%p[0-9]+]]
// ONEHOT: selp.f32 [[R:%r[0-9]+]], {{.*}}, [[P]];
// ONEHOT: st.global.b32 [{{.*}}], [[R]];
