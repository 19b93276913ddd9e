// RUN: tracec-opt %S/../../Execution/conv2d.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=CONV -DCHIP=sm_80
// RUN: tracec-opt %S/../../Execution/conv2d.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=CONV -DCHIP=sm_90
// RUN: tracec-opt %S/../../Execution/max_pool2d.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=MAXPOOL -DCHIP=sm_80
// RUN: tracec-opt %S/../../Execution/max_pool2d.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=MAXPOOL -DCHIP=sm_90
// RUN: tracec-opt %S/../../Execution/avg_pool2d.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=AVGPOOL -DCHIP=sm_80
// RUN: tracec-opt %S/../../Execution/avg_pool2d.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=AVGPOOL -DCHIP=sm_90

// Neural-net ops (conv2d, max_pool2d, avg_pool2d and their gradients) compile to PTX for sm_80 and sm_90: the
// functions of test/Execution/{conv2d.mlir,max_pool2d.mlir,avg_pool2d.mlir}, whose kernels call
// nothing unresolved (no libdevice). Numbers: run-on-gpu.mlir (needs a GPU).
//
// Each input is checked for its chip and for the instructions that carry
// its ops' meaning, which a kernel computing something else would lose:
// conv2d multiplies and accumulates, max_pool2d takes a NaN-propagating
// max, avg_pool2d sums and divides by the window size.

// CONV: .target [[CHIP]]
// CONV: ld.global.b32
// CONV: mul.rn.f32 [[P:%r[0-9]+]]
// CONV: add.rn.f32 {{%r[0-9]+}}, {{.*}}[[P]]
// CONV: st.global.b32

// MAXPOOL: .target [[CHIP]]
// MAXPOOL: ld.global.b32
// MAXPOOL: max.NaN.f32
// MAXPOOL: st.global.b32

// AVGPOOL: .target [[CHIP]]
// AVGPOOL: add.rn.f32
// AVGPOOL: st.global.b32
// AVGPOOL: div.rn.f32 [[R:%r[0-9]+]]
// AVGPOOL: st.global.b32 [{{.*}}], [[R]];
