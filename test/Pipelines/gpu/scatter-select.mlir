// RUN: tracec-opt %S/../../Execution/Inputs/scatter_add.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern -DCHIP=sm_80
// RUN: tracec-opt %S/../../Execution/Inputs/scatter_add.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern -DCHIP=sm_90

// trace.scatter_add and trace.max_pool2d_select compile to PTX for sm_80
// and sm_90 (the functions of test/Execution/Inputs/scatter_add.mlir; the
// numbers are checked on the CPU by scatter-add.test, no GPU here). Race-
// free by construction: the loop over the indices stays on the host, in
// order, and each iteration launches one kernel over the row's elements,
// which loads the update and the row's element, adds and stores back (repeated indices are later iterations, never
// concurrent threads). (A row of one element, axis = -1, is host code.)
// max_pool2d_select is max_pool2d_grad's argmax reduction (NaN and ties:
// setp.nan / setp.gt / setp.eq) carrying t's value with the same
// predicate (the third selp).

// CHECK: .target [[CHIP]]
// CHECK: .entry scatter_static_kernel(
// CHECK: add.rn.f32 [[SUM:%r[0-9]+]], {{%r[0-9]+}}, {{%r[0-9]+}};
// CHECK: st.global.b32 [{{%rd[0-9]+}}], [[SUM]];

// CHECK: .entry scatter_dynamic_kernel(
// CHECK: add.rn.f32
// CHECK: .entry select_static_kernel(
// CHECK: setp.nan.f32 {{%p[0-9]+}}, [[X:%r[0-9]+]], [[X]];
// CHECK: setp.gt.f32 {{%p[0-9]+}}, [[X]], [[BEST:%r[0-9]+]];
// CHECK: setp.eq.f32 {{%p[0-9]+}}, [[X]], [[BEST]];
// CHECK: selp.f32 {{%r[0-9]+}}, [[X]], [[BEST]], [[TAKE:%p[0-9]+]];
// CHECK: selp.b64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[TAKE]];
// CHECK: selp.f32 [[T:%r[0-9]+]], {{%r[0-9]+}}, [[T]], [[TAKE]];
// CHECK: .entry select_dynamic_kernel(
// CHECK: selp.f32
