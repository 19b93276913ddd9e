// RUN: tracec-opt %S/../../Execution/elementwise.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=ELEM -DCHIP=sm_80
// RUN: tracec-opt %S/../../Execution/elementwise.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=ELEM -DCHIP=sm_90
// RUN: tracec-opt %S/../../Execution/half-precision.mlir --tracec-gpu-pipeline=chip=sm_80 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=HALF -DCHIP=sm_80
// RUN: tracec-opt %S/../../Execution/half-precision.mlir --tracec-gpu-pipeline=chip=sm_90 --trace-print-gpu-assembly -o /dev/null | FileCheck %s --implicit-check-not=.extern --check-prefix=HALF -DCHIP=sm_90

// Elementwise ops (unary, binary with broadcasting, comparisons, select, cast; f16/bf16/f32/i32/i64) compile to PTX for sm_80 and sm_90: the
// functions of test/Execution/{elementwise.mlir,half-precision.mlir}, whose kernels call
// nothing unresolved (no libdevice). Numbers: run-on-gpu.mlir (needs a GPU).
//
// Each kernel is checked for its chip and for the instructions that carry its op's meaning,
// and, where the op is one instruction, that its result is what is stored:
// a kernel that computed something else would lose these lines. Math
// functions are expanded (no libdevice), so they are recognised by their
// range reduction: exp by x * log2(e) (0f3FB8AA3B), floor and the shift of
// the integer part into the exponent (shl 23); log by the mantissa mask
// and the exponent shift (shr 23); sin/cos by x * 2/pi (0f3F22F983) and
// the pi/2 step (0fBFC90FDB); erf by its first coefficients.

// ELEM-LABEL: // gpu.binary @neg_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: neg.f32 [[R:%r[0-9]+]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @abs_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: abs.f32 [[R:%r[0-9]+]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @exp_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: mul.rn.f32 {{.*}}, 0f3FB8AA3B;
// ELEM: cvt.rmi.f32.f32
// ELEM: shl.b32 {{.*}}, 23;
// ELEM-LABEL: // gpu.binary @log_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: and.b32 {{.*}}, -2139095041;
// ELEM: shr.u32 {{.*}}, 23;
// ELEM: cvt.rn.f32.s32
// ELEM-LABEL: // gpu.binary @log1p_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: add.rn.f32 [[U:%r[0-9]+]]
// ELEM: sub.rn.f32 {{%r[0-9]+}}, [[U]],
// ELEM: and.b32 {{.*}}, -2139095041;
// ELEM: shr.u32 {{.*}}, 23;
// ELEM: cvt.rn.f32.s32
// ELEM: div.rn.f32
// ELEM-LABEL: // gpu.binary @sqrt_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: sqrt.rn.f32 [[R:%r[0-9]+]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @rsqrt_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: sqrt.rn.f32 [[S:%r[0-9]+]]
// ELEM: rcp.rn.f32 [[R:%r[0-9]+]], [[S]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @tanh_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: mul.rn.f32 {{.*}}, 0fC0000000;
// ELEM: mul.rn.f32 {{.*}}, 0f3FB8AA3B;
// ELEM: cvt.rmi.f32.f32
// ELEM: shl.b32 {{.*}}, 23;
// ELEM: div.rn.f32
// ELEM-LABEL: // gpu.binary @sigmoid_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: neg.f32
// ELEM: mul.rn.f32 {{.*}}, 0f3FB8AA3B;
// ELEM: cvt.rmi.f32.f32
// ELEM: shl.b32 {{.*}}, 23;
// ELEM: div.rn.f32
// ELEM-LABEL: // gpu.binary @relu_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: max.NaN.f32 [[R:%r[0-9]+]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @gelu_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: selp.f32 {{.*}}, 0f3F906EBA, 0f3F905225,
// ELEM: mul.rn.f32
// ELEM-LABEL: // gpu.binary @erf_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: selp.f32 {{.*}}, 0f3F906EBA, 0f3F905225,
// ELEM-LABEL: // gpu.binary @sin_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: mul.rn.f32 {{.*}}, 0f3F22F983;
// ELEM: cvt.rmi.f32.f32
// ELEM: mul.rn.f32 {{.*}}, 0fBFC90FDB;
// ELEM-LABEL: // gpu.binary @cos_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: mul.rn.f32 {{.*}}, 0f3F22F983;
// ELEM: cvt.rmi.f32.f32
// ELEM: mul.rn.f32 {{.*}}, 0fBFC90FDB;
// ELEM-LABEL: // gpu.binary @sign_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: setp.gt.f32
// ELEM: setp.lt.f32
// ELEM: selp.f32
// ELEM: selp.f32 [[R:%r[0-9]+]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @floor_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: cvt.rmi.f32.f32 [[R:%r[0-9]+]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @neg_i32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: sub.s32 [[R:%r[0-9]+]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @abs_i32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: abs.s32 [[R:%r[0-9]+]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @relu_i32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: max.s32 [[R:%r[0-9]+]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @sign_i32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: setp.gt.s32
// ELEM: setp.lt.s32
// ELEM: selp.b32
// ELEM: selp.b32 [[R:%r[0-9]+]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @add_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: add.rn.f32 [[R:%r[0-9]+]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @sub_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: sub.rn.f32 [[R:%r[0-9]+]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @mul_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: mul.rn.f32 [[R:%r[0-9]+]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @div_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: div.rn.f32 [[R:%r[0-9]+]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @pow_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: and.b32 {{.*}}, -2139095041;
// ELEM: shr.u32 {{.*}}, 23;
// ELEM: cvt.rn.f32.s32
// ELEM: mul.rn.f32 {{.*}}, 0f3FB8AA3B;
// ELEM: cvt.rmi.f32.f32
// ELEM: shl.b32 {{.*}}, 23;
// ELEM-LABEL: // gpu.binary @max_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: max.NaN.f32 [[R:%r[0-9]+]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @min_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: min.NaN.f32 [[R:%r[0-9]+]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @eq_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: setp.eq.f32 [[P:%p[0-9]+]]
// ELEM: selp.b16 [[B:%rs[0-9]+]], 1, 0, [[P]];
// ELEM: st.global.b8 [{{.*}}], [[B]];
// ELEM-LABEL: // gpu.binary @ne_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: setp.neu.f32 [[P:%p[0-9]+]]
// ELEM: selp.b16 [[B:%rs[0-9]+]], 1, 0, [[P]];
// ELEM: st.global.b8 [{{.*}}], [[B]];
// ELEM-LABEL: // gpu.binary @lt_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: setp.lt.f32 [[P:%p[0-9]+]]
// ELEM: selp.b16 [[B:%rs[0-9]+]], 1, 0, [[P]];
// ELEM: st.global.b8 [{{.*}}], [[B]];
// ELEM-LABEL: // gpu.binary @le_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: setp.le.f32 [[P:%p[0-9]+]]
// ELEM: selp.b16 [[B:%rs[0-9]+]], 1, 0, [[P]];
// ELEM: st.global.b8 [{{.*}}], [[B]];
// ELEM-LABEL: // gpu.binary @gt_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: setp.gt.f32 [[P:%p[0-9]+]]
// ELEM: selp.b16 [[B:%rs[0-9]+]], 1, 0, [[P]];
// ELEM: st.global.b8 [{{.*}}], [[B]];
// ELEM-LABEL: // gpu.binary @ge_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: setp.ge.f32 [[P:%p[0-9]+]]
// ELEM: selp.b16 [[B:%rs[0-9]+]], 1, 0, [[P]];
// ELEM: st.global.b8 [{{.*}}], [[B]];
// ELEM-LABEL: // gpu.binary @add_i32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: add.s32 [[R:%r[0-9]+]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @sub_i32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: sub.s32 [[R:%r[0-9]+]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @mul_i32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: mul.lo.s32 [[R:%r[0-9]+]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @div_i32_kernel (
// ELEM: .target [[CHIP]]
// Integer division never traps: the divisor is 1 where it is 0 or where
// INT_MIN / -1 would overflow, and x / 0 is 0.
// ELEM: div.s32 [[Q:%r[0-9]+]]
// ELEM: selp.b32 [[R:%r[0-9]+]], {{.*}}, [[Q]], %p{{[0-9]+}};
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @pow_i32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: and.b32 {{.*}}, 1;
// ELEM: shr.u32 {{.*}}, 1;
// ELEM: mul.lo.s32
// ELEM-LABEL: // gpu.binary @max_i32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: max.s32 [[R:%r[0-9]+]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @min_i32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: min.s32 [[R:%r[0-9]+]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @eq_i32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: setp.eq.b32 [[P:%p[0-9]+]]
// ELEM: selp.b16 [[B:%rs[0-9]+]], 1, 0, [[P]];
// ELEM: st.global.b8 [{{.*}}], [[B]];
// ELEM-LABEL: // gpu.binary @ne_i32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: setp.ne.b32 [[P:%p[0-9]+]]
// ELEM: selp.b16 [[B:%rs[0-9]+]], 1, 0, [[P]];
// ELEM: st.global.b8 [{{.*}}], [[B]];
// ELEM-LABEL: // gpu.binary @lt_i32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: setp.lt.s32 [[P:%p[0-9]+]]
// ELEM: selp.b16 [[B:%rs[0-9]+]], 1, 0, [[P]];
// ELEM: st.global.b8 [{{.*}}], [[B]];
// ELEM-LABEL: // gpu.binary @le_i32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: setp.le.s32 [[P:%p[0-9]+]]
// ELEM: selp.b16 [[B:%rs[0-9]+]], 1, 0, [[P]];
// ELEM: st.global.b8 [{{.*}}], [[B]];
// ELEM-LABEL: // gpu.binary @gt_i32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: setp.gt.s32 [[P:%p[0-9]+]]
// ELEM: selp.b16 [[B:%rs[0-9]+]], 1, 0, [[P]];
// ELEM: st.global.b8 [{{.*}}], [[B]];
// ELEM-LABEL: // gpu.binary @ge_i32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: setp.ge.s32 [[P:%p[0-9]+]]
// ELEM: selp.b16 [[B:%rs[0-9]+]], 1, 0, [[P]];
// ELEM: st.global.b8 [{{.*}}], [[B]];
// ELEM-LABEL: // gpu.binary @select_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: ld.global.b8
// ELEM: setp.ne.b16 [[C:%p[0-9]+]]
// ELEM: selp.b64 [[A:%rd[0-9]+]], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[C]];
// ELEM: ld.global.b32 [[R:%r[0-9]+]], {{\[}}[[A]]{{\]}};
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @cast_f32_i32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: cvt.rzi.s32.f32 [[R:%r[0-9]+]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @cast_i32_f64_kernel (
// ELEM: .target [[CHIP]]
// ELEM: cvt.rn.f64.s32 [[R:%rd[0-9]+]]
// ELEM: st.global.b64 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @cast_i1_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: ld.global.b8
// ELEM: selp.b32 {{.*}}, 1, 0,
// ELEM: cvt.rn.f32.u32 [[R:%r[0-9]+]]
// ELEM: st.global.b32 [{{.*}}], [[R]];
// ELEM-LABEL: // gpu.binary @cast_f32_i1_kernel (
// ELEM: .target [[CHIP]]
// ELEM: setp.neu.f32 [[P:%p[0-9]+]]
// ELEM: selp.b16 [[B:%rs[0-9]+]], 1, 0, [[P]];
// ELEM: st.global.b8 [{{.*}}], [[B]];
// ELEM-LABEL: // gpu.binary @log1p_small_f32_kernel (
// ELEM: .target [[CHIP]]
// ELEM: add.rn.f32 [[U:%r[0-9]+]]
// ELEM: sub.rn.f32 {{%r[0-9]+}}, [[U]],
// ELEM: and.b32 {{.*}}, -2139095041;
// ELEM: shr.u32 {{.*}}, 23;
// ELEM: cvt.rn.f32.s32
// ELEM: div.rn.f32

// f16 math in f32, the product in f16; bf16 tanh in f32, the sum y + t in
// bf16 (an FMA on sm_80, an add on sm_90), then widened to f32.
// HALF-LABEL: // gpu.binary @half_kernel (
// HALF: .target [[CHIP]]
// HALF: ld.global.b16
// HALF: cvt.f32.f16
// HALF: mul.rn.f32 {{.*}}, 0f3FB8AA3B;
// HALF: cvt.rmi.f32.f32
// HALF: shl.b32 {{.*}}, 23;
// HALF: cvt.rn.f16.f32
// HALF: mul.rn.f16 [[R:%rs[0-9]+]]
// HALF: st.global.b16 [{{.*}}], [[R]];
// HALF-LABEL: // gpu.binary @brain_kernel (
// HALF: .target [[CHIP]]
// HALF: ld.global.b16 [[Y:%rs[0-9]+]]
// HALF: mul.rn.f32 {{.*}}, 0f3FB8AA3B;
// HALF: cvt.rmi.f32.f32
// HALF: shl.b32 {{.*}}, 23;
// HALF: div.rn.f32
// HALF: cvt.rn.bf16.f32
// HALF: {{fma|add}}.rn.bf16 [[S:%rs[0-9]+]], [[Y]],
// HALF: {{cvt.u32.u16|cvt.f32.bf16}} {{%r[0-9]+}}, [[S]];
// HALF: st.global.b32
