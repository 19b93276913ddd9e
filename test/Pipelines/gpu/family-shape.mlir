// Shape ops (reshape, transpose, broadcast_to, concat, slice, pad, gather, one_hot) compile to PTX for sm_80 and sm_90: the
// functions of test/Execution/{reshape.mlir,transpose.mlir,broadcast_to.mlir,concat.mlir,slice.mlir,pad.mlir,gather.mlir,one_hot.mlir}, whose kernels call
// nothing unresolved (no libdevice). Numbers: run-on-gpu.mlir (needs a GPU).
// RUN: tracec-opt %S/../../Execution/reshape.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM80
// RUN: tracec-opt %S/../../Execution/reshape.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM90
// RUN: tracec-opt %S/../../Execution/transpose.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM80
// RUN: tracec-opt %S/../../Execution/transpose.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM90
// RUN: tracec-opt %S/../../Execution/broadcast_to.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM80
// RUN: tracec-opt %S/../../Execution/broadcast_to.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM90
// RUN: tracec-opt %S/../../Execution/concat.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM80
// RUN: tracec-opt %S/../../Execution/concat.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM90
// RUN: tracec-opt %S/../../Execution/slice.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM80
// RUN: tracec-opt %S/../../Execution/slice.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM90
// RUN: tracec-opt %S/../../Execution/pad.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM80
// RUN: tracec-opt %S/../../Execution/pad.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM90
// RUN: tracec-opt %S/../../Execution/gather.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM80
// RUN: tracec-opt %S/../../Execution/gather.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM90
// RUN: tracec-opt %S/../../Execution/one_hot.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM80
// RUN: tracec-opt %S/../../Execution/one_hot.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM90

// SM80: .target sm_80
// SM80: .visible .entry
// SM80: st.global
// SM90: .target sm_90
// SM90: .visible .entry
// SM90: st.global
