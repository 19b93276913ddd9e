"""One GraphDef that uses every mapped op, with NumPy references.

  ops_graph.py --pbtxt           prints the graph (Inputs/ops.pbtxt)
  ops_graph.py --flags           prints the tracec-translate/run flags
  ops_graph.py --inputs DIR      writes the placeholders' values
  ops_graph.py --check DIR       checks tracec-run's results in DIR
"""
import math
import sys

import numpy as np

from graphgen import Graph, conv, pool, same

F = "DT_FLOAT"
rng = np.random.default_rng(1414)
A = rng.uniform(-2, 2, (2, 3)).astype(np.float32)
P = rng.uniform(0.5, 2, (2, 3)).astype(np.float32)
V = rng.uniform(-1, 1, 3).astype(np.float32)
M = rng.uniform(-1, 1, (3, 4)).astype(np.float32)
IDX = np.array([2, 0, 1, 2], np.int32)
IMG = rng.uniform(-1, 1, (1, 5, 5, 2)).astype(np.float32)
FILT = rng.uniform(-1, 1, (3, 3, 2, 3)).astype(np.float32).round(2)
DWF = rng.uniform(-1, 1, (3, 3, 2, 2)).astype(np.float32).round(2)
Z = np.array([[1, 0, 2], [0, 3, 0]], np.float32)

g = Graph()
g.placeholder("a", A)
g.placeholder("p", P)
g.placeholder("v", V)
g.placeholder("m", M)
g.placeholder("idx", IDX)
g.placeholder("img", IMG)


def c(name, value):
    return g.const(name, np.asarray(value))


def out(name, op, inputs, expected, **attrs):
    g.node(name, op, inputs, **attrs)
    g.output(name, expected)


# Unary.
erf = np.vectorize(math.erf, otypes=[np.float32])
sigmoid = 1 / (1 + np.exp(-A))
unary = {
    "Neg": -A, "Abs": np.abs(A), "Relu": np.maximum(A, 0),
    "Sigmoid": sigmoid, "Tanh": np.tanh(A), "Exp": np.exp(A),
    "Sign": np.sign(A), "Floor": np.floor(A), "Square": A * A,
    "Erf": erf(A), "Sin": np.sin(A), "Cos": np.cos(A),
    "Softplus": np.log1p(np.exp(A)),
    "Elu": np.where(A > 0, A, np.expm1(A)),
    "Selu": 1.0507009873554805 * np.where(A > 0, A, 1.6732632423543772 * np.expm1(A)),
}
for op, want in unary.items():
    out(op.lower(), op, ["a"], want.astype(np.float32), T=F)
c("four", np.float32(4))
g.node("a4", "Mul", ["a", "four"], T=F)
out("relu6", "Relu6", ["a4"], np.clip(4 * A, 0, 6), T=F)
for op, want in {"Log": np.log(P), "Log1p": np.log1p(P), "Sqrt": np.sqrt(P),
                 "Rsqrt": 1 / np.sqrt(P)}.items():
    out(op.lower(), op, ["p"], want.astype(np.float32), T=F)

# Binary, with broadcasting.
binary = {
    "Add": A + V, "AddV2": A + V, "Sub": A - V, "Mul": A * V,
    "RealDiv": A / P, "Maximum": np.maximum(A, V), "Minimum": np.minimum(A, V),
    "SquaredDifference": (A - V) ** 2,
}
for op, want in binary.items():
    rhs = "p" if op == "RealDiv" else "v"
    out(op.lower(), op, ["a", rhs], want, T=F)
out("pow", "Pow", ["p", "a"], P ** A, T=F)
out("div", "Div", ["a", "p"], A / P, T=F)
out("mod", "Mod", ["a", "p"], np.fmod(A, P), T=F)
out("truncatemod", "TruncateMod", ["a", "p"], np.fmod(A, P), T=F)
c("z", Z)
out("divnonan", "DivNoNan", ["a", "z"],
    np.where(Z == 0, 0, A / np.where(Z == 0, 1, Z)).astype(np.float32), T=F)
out("biasadd", "BiasAdd", ["a", "v"], A + V, T=F)
out("addn", "AddN", ["a", "p", "a"], A + P + A, T=F, N=3)

# Comparisons and logic (cast to float to check them).
c("zero", np.float32(0))
c("one", np.float32(1))
compare = {"Equal": A == P, "NotEqual": A != P, "Less": A < P,
           "LessEqual": A <= V, "Greater": A > V, "GreaterEqual": A >= P}
for op, want in compare.items():
    g.node(op.lower(), op, ["a", "v" if op in ("LessEqual", "Greater") else "p"],
           T=F)
    out(op.lower() + "_f", "Cast", [op.lower()], want.astype(np.float32),
        SrcT="DT_BOOL", DstT=F)
g.node("pos", "Greater", ["a", "zero"], T=F)
g.node("small", "Less", ["a", "one"], T=F)
out("and", "LogicalAnd", ["pos", "small"], (A > 0) & (A < 1))
out("or", "LogicalOr", ["pos", "small"], (A > 0) | (A < 1))
out("not", "LogicalNot", ["pos"], ~(A > 0))
out("select", "Select", ["pos", "a", "p"], np.where(A > 0, A, P), T=F)
out("selectv2", "SelectV2", ["pos", "a", "v"], np.where(A > 0, A, V), T=F)
c("rowcond", np.array([True, False]))
out("select_rows", "Select", ["rowcond", "a", "p"], np.where([[True], [False]], A, P), T=F)
out("cast_i32", "Cast", ["a"], A.astype(np.int32), SrcT=F, DstT="DT_INT32")

# Linear algebra, reductions.
out("matmul", "MatMul", ["a", "m"], A @ M, T=F)
out("matmul_tt", "MatMul", ["m", "a"], M.T @ A.T, T=F, transpose_a=True,
    transpose_b=True)
c("shape_b", np.array([1, 2, 3], np.int32))
g.node("a3", "Reshape", ["a", "shape_b"], T=F)
c("shape_m", np.array([1, 3, 4], np.int32))
g.node("m3", "Reshape", ["m", "shape_m"], T=F)
out("batchmatmul", "BatchMatMulV2", ["a3", "m3"], (A @ M)[None], T=F)
out("batchmatmul_v1", "BatchMatMul", ["a3", "m3"], (A @ M)[None], T=F)
out("batchmatmul_adj", "BatchMatMulV3", ["m3", "m3"], (M.T @ M)[None], T=F,
    adj_x=True)
c("ax1", np.array([1], np.int32))
c("ax_all", np.array([0, -1], np.int32))
out("sum", "Sum", ["a", "ax1"], A.sum(1, keepdims=True), T=F, keep_dims=True)
out("mean", "Mean", ["a", "ax_all"], np.float32(A.mean()), T=F)
out("max", "Max", ["a", "ax1"], A.max(1), T=F)
out("min", "Min", ["a", "ax1"], A.min(1), T=F)
c("dim1", np.int32(1))
out("argmax", "ArgMax", ["a", "dim1"], A.argmax(1).astype(np.int64), T=F)
out("argmax32", "ArgMax", ["a", "dim1"], A.argmax(1).astype(np.int32), T=F,
    output_type="DT_INT32")
e = np.exp(A - A.max(1, keepdims=True))
out("softmax", "Softmax", ["a"], e / e.sum(1, keepdims=True), T=F)
out("logsoftmax", "LogSoftmax", ["a"], np.log(e / e.sum(1, keepdims=True)), T=F)

# Shape ops.
c("shape32", np.array([3, -1], np.int32))
out("reshape", "Reshape", ["a", "shape32"], A.reshape(3, 2), T=F)
c("perm", np.array([1, 0], np.int32))
out("transpose", "Transpose", ["a", "perm"], A.T, T=F)
c("axm1", np.int32(-1))
out("expanddims", "ExpandDims", ["a", "axm1"], A[:, :, None], T=F)
out("squeeze", "Squeeze", ["a3"], A, T=F, squeeze_dims=[0])
out("concat", "ConcatV2", ["a", "p", "dim1"], np.concatenate([A, P], 1), T=F,
    N=2)
out("pack", "Pack", ["a", "p"], np.stack([A, P], 1), T=F, N=2, axis=1)
g.node("unpack", "Unpack", ["a"], T=F, num=3, axis=1)
g.output("unpack:2", A[:, 2])
g.output("unpack", A[:, 0])
c("begin", np.array([0, 1], np.int32))
c("size", np.array([-1, 2], np.int32))
out("slice", "Slice", ["a", "begin", "size"], A[:, 1:3], T=F)
c("ss_b", np.array([0, 0, 1], np.int32))
c("ss_e", np.array([0, 0, 3], np.int32))
c("ss_s", np.array([1, 1, 2], np.int32))
# a[1, tf.newaxis, 1::2] (shrink dim 0, a new axis, strided dim 1).
c("ss_b1", np.array([1, 0, 1], np.int32))
out("stridedslice", "StridedSlice", ["a", "ss_b1", "ss_e", "ss_s"],
    A[1, None, 1::2], T=F, Index="DT_INT32", shrink_axis_mask=1,
    new_axis_mask=2, begin_mask=0, end_mask=0)
# img[..., ::-1 is unsupported; img[..., 1] (ellipsis, shrink last).
c("ell_b", np.array([0, 1], np.int32))
c("ell_e", np.array([0, 2], np.int32))
c("ell_s", np.array([1, 1], np.int32))
out("stridedslice_ellipsis", "StridedSlice", ["img", "ell_b", "ell_e", "ell_s"],
    IMG[..., 1], T=F, Index="DT_INT32", ellipsis_mask=1, shrink_axis_mask=2)
# a[:, :-1] with begin/end masks.
c("me_b", np.array([5, 0], np.int32))
c("me_e", np.array([0, -1], np.int32))
c("me_s", np.array([1, 1], np.int32))
out("stridedslice_masks", "StridedSlice", ["a", "me_b", "me_e", "me_s"],
    A[:, :-1], T=F, Index="DT_INT32", begin_mask=3, end_mask=1)
c("paddings", np.array([[1, 0], [0, 2]], np.int32))
out("pad", "Pad", ["a", "paddings"], np.pad(A, [[1, 0], [0, 2]]), T=F)
c("padval", np.float32(7.5))
out("padv2", "PadV2", ["a", "paddings", "padval"],
    np.pad(A, [[1, 0], [0, 2]], constant_values=7.5), T=F)
out("gather", "GatherV2", ["a", "idx", "dim1"], np.take(A, IDX, 1), Tparams=F,
    Tindices="DT_INT32", Taxis="DT_INT32")
c("depth", np.int32(3))
c("on", np.float32(5))
c("off", np.float32(-1))
c("rows", np.array([1, 0, 1], np.int32))
out("gather_v1", "Gather", ["a", "rows"], A[[1, 0, 1]], Tparams=F,
    Tindices="DT_INT32")
out("onehot", "OneHot", ["idx", "depth", "on", "off"],
    np.where(IDX[:, None] == np.arange(3), 5, -1).astype(np.float32), T=F,
    axis=-1)
c("dims", np.array([2, 2], np.int32))
out("fill", "Fill", ["dims", "padval"], np.full((2, 2), 7.5, np.float32), T=F)
out("zeroslike", "ZerosLike", ["a"], np.zeros_like(A), T=F)
out("oneslike", "OnesLike", ["a"], np.ones_like(A), T=F)
c("r0", np.int32(1))
c("r1", np.int32(10))
c("r2", np.int32(3))
out("range", "Range", ["r0", "r1", "r2"], np.arange(1, 10, 3, dtype=np.int32),
    Tidx="DT_INT32")
c("multiples", np.array([2, 3], np.int32))
out("tile", "Tile", ["a", "multiples"], np.tile(A, (2, 3)), T=F)
out("shape", "Shape", ["img"], np.array(IMG.shape, np.int32), T=F)
out("identity", "Identity", ["a"], A, T=F)
g.node("identityn", "IdentityN", ["a", "p"])
g.output("identityn:1", P)
out("stopgradient", "StopGradient", ["a"], A, T=F)
out("preventgradient", "PreventGradient", ["a"], A, T=F)
out("snapshot", "Snapshot", ["a"], A, T=F)
out("withdefault", "PlaceholderWithDefault", ["a"], A, dtype=F)


# Neural nets: NHWC, HWIO filters, SAME and VALID padding.
c("filt", FILT)
c("dwf", DWF)
out("conv_same", "Conv2D", ["img", "filt"],
    conv(IMG, FILT, 2, [same(5, 3, 2), same(5, 3, 2)]), T=F,
    strides=[1, 2, 2, 1], padding="SAME")
out("conv_valid", "Conv2D", ["img", "filt"], conv(IMG, FILT, 1, [(0, 0), (0, 0)]),
    T=F, strides=[1, 1, 1, 1], padding="VALID")
dw = np.concatenate(
    [conv(IMG[..., ch:ch + 1], DWF[:, :, ch:ch + 1, :], 1, [(1, 1), (1, 1)])
     for ch in range(2)], axis=3)
out("depthwise", "DepthwiseConv2dNative", ["img", "dwf"], dw, T=F,
    strides=[1, 1, 1, 1], padding="SAME")


out("maxpool", "MaxPool", ["img"], pool(IMG, 2, 2, np.max, False), T=F,
    ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")
out("avgpool", "AvgPool", ["img"], pool(IMG, 3, 2, np.mean, True), T=F,
    ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1], padding="SAME")
SCALE = np.array([1.5, 0.5], np.float32)
OFFSET = np.array([0.1, -0.2], np.float32)
MEAN = np.array([0.05, -0.1], np.float32)
VAR = np.array([0.8, 1.2], np.float32)
for name, value in [("bn_scale", SCALE), ("bn_offset", OFFSET),
                    ("bn_mean", MEAN), ("bn_var", VAR)]:
    c(name, value)
out("batchnorm", "FusedBatchNormV3",
    ["img", "bn_scale", "bn_offset", "bn_mean", "bn_var"],
    (IMG - MEAN) / np.sqrt(VAR + 0.001) * SCALE + OFFSET, T=F, U=F,
    epsilon=0.001, is_training=False)
g.output("batchnorm:2", VAR)
out("batchnorm_v1", "FusedBatchNorm",
    ["img", "bn_scale", "bn_offset", "bn_mean", "bn_var"],
    (IMG - MEAN) / np.sqrt(VAR + 1e-4) * SCALE + OFFSET, T=F,
    is_training=False)
out("batchnorm_v2", "FusedBatchNormV2",
    ["img", "bn_scale", "bn_offset", "bn_mean", "bn_var"],
    (IMG - MEAN) / np.sqrt(VAR + 0.001) * SCALE + OFFSET, T=F, U=F,
    epsilon=0.001, is_training=False)

if __name__ == "__main__":
    if sys.argv[1] == "--pbtxt":
        sys.stdout.write(g.pbtxt("Every mapped op (generated by Inputs/ops_graph.py --pbtxt)."))
    elif sys.argv[1] == "--flags":
        print("--tf-output-arrays=" + ",".join(n for n, _ in g.outputs))
    elif sys.argv[1] == "--run-flags":
        print(" ".join(f"--input {n}=@{sys.argv[2]}/{n}.npy" for n, _ in g.inputs))
    elif sys.argv[1] == "--inputs":
        for name, value in g.inputs:
            np.save(f"{sys.argv[2]}/{name}.npy", value)
    elif sys.argv[1] == "--check":
        g.check(sys.argv[2])
