// Neural-net ops (conv2d, max_pool2d, avg_pool2d and their gradients) compile to PTX for sm_80 and sm_90: the
// functions of test/Execution/{conv2d.mlir,max_pool2d.mlir,avg_pool2d.mlir}, whose kernels call
// nothing unresolved (no libdevice). Numbers: run-on-gpu.mlir (needs a GPU).
// RUN: tracec-opt %S/../../Execution/conv2d.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM80
// RUN: tracec-opt %S/../../Execution/conv2d.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM90
// RUN: tracec-opt %S/../../Execution/max_pool2d.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM80
// RUN: tracec-opt %S/../../Execution/max_pool2d.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM90
// RUN: tracec-opt %S/../../Execution/avg_pool2d.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM80
// RUN: tracec-opt %S/../../Execution/avg_pool2d.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM90

// SM80: .target sm_80
// SM80: .visible .entry
// SM80: st.global
// SM90: .target sm_90
// SM90: .visible .entry
// SM90: st.global
