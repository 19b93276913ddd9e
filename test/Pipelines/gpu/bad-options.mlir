// Bad GPU options are diagnostics with a location and exit code 1.
// RUN: not tracec-opt %s --tracec-gpu-pipeline=chip=sm_99 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: bad-options.mlir:{{[0-9]+}}:{{[0-9]+}}: error: unsupported GPU chip 'sm_99': expected one of sm_50..sm_120
// RUN: not tracec-opt %s "--tracec-gpu-pipeline=chip=sm_80 features=+ptx60" 2>&1 | FileCheck %s --check-prefix=PTX
// PTX: error: GPU features '+ptx60': sm_80 needs PTX ISA 7.0 or newer (+ptx70)
// RUN: not tracec-opt %s "--tracec-gpu-pipeline=chip=sm_90 features=+ptx70" 2>&1 | FileCheck %s --check-prefix=PTX90
// PTX90: error: GPU features '+ptx70': sm_90 needs PTX ISA 7.8 or newer (+ptx78)
// RUN: not tracec-opt %s "--tracec-gpu-pipeline=threads=0" 2>&1 | FileCheck %s --check-prefix=THREADS
// THREADS: error: trace-gpu-tile-parallel-loops: threads must be positive, got 0
func.func @scale(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = trace.add %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
