// Sources (constant, fill, iota) compile to PTX for sm_80 and sm_90: the
// functions of test/Execution/{constant.mlir,fill.mlir,iota.mlir}, whose kernels call
// nothing unresolved (no libdevice). Numbers: run-on-gpu.mlir (needs a GPU).
// RUN: tracec-opt %S/../../Execution/constant.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM80
// RUN: tracec-opt %S/../../Execution/constant.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM90
// RUN: tracec-opt %S/../../Execution/fill.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM80
// RUN: tracec-opt %S/../../Execution/fill.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM90
// RUN: tracec-opt %S/../../Execution/iota.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM80
// RUN: tracec-opt %S/../../Execution/iota.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM90

// SM80: .target sm_80
// SM80: .visible .entry
// SM80: st.global
// SM90: .target sm_90
// SM90: .visible .entry
// SM90: st.global
