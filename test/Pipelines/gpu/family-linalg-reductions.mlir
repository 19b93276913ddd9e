// matmul (plain, transposed, batched) and the reductions (reduce_*, argmax, softmax, log_softmax) compile to PTX for sm_80 and sm_90: the
// functions of test/Execution/{matmul-reductions.mlir,argmax.mlir,softmax.mlir,log_softmax.mlir}, whose kernels call
// nothing unresolved (no libdevice). Numbers: run-on-gpu.mlir (needs a GPU).
// RUN: tracec-opt %S/../../Execution/matmul-reductions.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM80
// RUN: tracec-opt %S/../../Execution/matmul-reductions.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM90
// RUN: tracec-opt %S/../../Execution/argmax.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM80
// RUN: tracec-opt %S/../../Execution/argmax.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM90
// RUN: tracec-opt %S/../../Execution/softmax.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM80
// RUN: tracec-opt %S/../../Execution/softmax.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM90
// RUN: tracec-opt %S/../../Execution/log_softmax.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM80
// RUN: tracec-opt %S/../../Execution/log_softmax.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=SM90

// SM80: .target sm_80
// SM80: .visible .entry
// SM80: st.global
// SM90: .target sm_90
// SM90: .visible .entry
// SM90: st.global
