// RUN: tracec-opt %S/../../Execution/constant.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=CONST -DCHIP=sm_80
// RUN: tracec-opt %S/../../Execution/constant.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=CONST -DCHIP=sm_90
// RUN: tracec-opt %S/../../Execution/fill.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=FILL -DCHIP=sm_80
// RUN: tracec-opt %S/../../Execution/fill.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=FILL -DCHIP=sm_90
// RUN: tracec-opt %S/../../Execution/iota.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=IOTA -DCHIP=sm_80
// RUN: tracec-opt %S/../../Execution/iota.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=IOTA -DCHIP=sm_90

// Sources (constant, fill, iota) compile to PTX for sm_80 and sm_90: the
// functions of test/Execution/{constant.mlir,fill.mlir,iota.mlir}, whose kernels call
// nothing unresolved (no libdevice). Numbers: run-on-gpu.mlir (needs a GPU).
//
// Each input is checked for its chip and for the instructions that carry
// its ops' meaning, which a kernel computing something else would lose:
// constant and fill store the value they load; iota converts the index
// to the element type.

// CONST: .target [[CHIP]]
// CONST: ld.global.b32 [[V:%r[0-9]+]]
// CONST: st.global.b32 [{{.*}}], [[V]];

// FILL: .target [[CHIP]]
// FILL: ld.global.b32 [[V:%r[0-9]+]]
// FILL: st.global.b32 [{{.*}}], [[V]];

// IOTA: .target [[CHIP]]
// IOTA: cvt.rn.f32.s64 [[R:%r[0-9]+]]
// IOTA: st.global.b32 [{{.*}}], [[R]];
// IOTA: cvt.rn.f64.s64 [[D:%rd[0-9]+]]
// IOTA: st.global.b64 [{{.*}}], [[D]];
