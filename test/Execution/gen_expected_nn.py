#!/usr/bin/python3
"""Expected values for the execution tests of conv2d, pooling, softmax,
log_softmax and argmax (test/Execution/*.mlir), computed with NumPy and,
where it has the op, cross-checked against PyTorch (CPU).

Run with Debian's interpreter: /usr/bin/python3 gen_expected_nn.py [case...]

For each case it prints the MLIR literals of the inputs and the FileCheck
lines that match `printMemrefF32` / `printMemrefI64` of the result. Floats
print as C++ `operator<<` does (%g, 6 significant digits).

The test inputs are small integers, so conv2d, max pooling and the pooling
sums are exact in float32 and an average is the correctly rounded float32
quotient: those values are matched exactly. softmax and log_softmax (exp,
log) are matched within the tolerances below: a regex of the spellings a
float32 result within tolerance can have.
"""

import sys

import numpy as np

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # The NumPy references stand alone.
    torch = None

# Tolerances (relative, absolute) of the float32 results. None: exact.
EXACT = None
# softmax: exp and one division, each correctly rounded or within an ulp or
# two; x - max is exact for the test inputs.
SOFTMAX_TOLERANCE = (1e-6, 0.0)
# log_softmax: (x - m) - log(s) cancels when s is near 1 (a dominant
# maximum), so log(s) brings an absolute error of about one ulp of 1.
LOG_SOFTMAX_TOLERANCE = (1e-6, 3e-7)


def pattern(x, tolerance):
    """Ints and floats as printMemref prints them (`%g`, 6 significant
    digits). Within a tolerance, every 6-digit spelling of the interval is
    accepted: up to 4 as alternatives, more by their common prefix."""
    if isinstance(x, (np.integer, int)):
        return str(int(x))
    x = float(x)
    if np.isnan(x):
        return "{{-?nan}}"
    if np.isinf(x):
        return "inf" if x > 0 else "-inf"
    if tolerance is EXACT:  # The float32 value itself.
        return "%g" % np.float32(x)
    relative, absolute = tolerance
    spread = relative * abs(x) + absolute
    spellings = []
    for v in [float(np.float32(x))] + list(np.linspace(x - spread, x + spread,
                                                       401)):
        s = "%g" % v
        if s not in spellings:
            spellings.append(s)
    if len(spellings) == 1:
        return spellings[0]
    if len(spellings) <= 4:
        return "{{%s}}" % "|".join(s.replace(".", "\\.") for s in spellings)
    prefix = spellings[0]
    for s in spellings[1:]:
        while not s.startswith(prefix):
            prefix = prefix[:-1]
    significant = prefix.lstrip("-0.")
    if len(significant) < 3 or "e" in "".join(spellings):
        sys.exit("%r: the tolerance leaves under 3 significant digits; pick "
                 "another input" % x)
    return "{{%s[0-9]*}}" % prefix.replace(".", "\\.")


def data_text(a, tolerance):
    """The nested-bracket layout of printMemref: innermost rows on one line,
    a line break after every other `, `."""
    if a.ndim == 0:
        return "[" + pattern(a[()], tolerance) + "]"
    if a.ndim == 1:
        return "[" + ", ".join(pattern(v, tolerance) for v in a) + "]"
    return "[" + ",\n".join(data_text(sub, tolerance) for sub in a) + "]"


def check_lines(a, tolerance):
    strides = [s // a.itemsize for s in a.strides] if a.ndim else []
    header = "// CHECK: rank = %d offset = 0 sizes = [%s] strides = [%s] data =" % (
        a.ndim, ", ".join(map(str, a.shape)), ", ".join(map(str, strides)))
    lines = [header]
    for line in data_text(np.ascontiguousarray(a), tolerance).split("\n"):
        # `[[` opens a FileCheck variable: match a run of brackets as a regex.
        opening = len(line) - len(line.lstrip("["))
        if opening > 1:
            line = "{{" + "\\[" * opening + "}}" + line[opening:]
        lines.append("// CHECK-NEXT: " + line)
    return "\n".join(lines)


def mlir_scalar(v, dtype):
    if np.issubdtype(dtype, np.integer):
        return str(int(v))
    v = float(v)
    if np.isnan(v):
        return "0x7FC00000"
    if np.isinf(v):
        return "0x7F800000" if v > 0 else "0xFF800000"
    return repr(v)


def mlir_literal(a):
    element = {np.dtype(np.float32): "f32", np.dtype(np.int32): "i32",
               np.dtype(np.int64): "i64"}[a.dtype]

    def nested(x):
        if x.ndim == 0:
            return mlir_scalar(x[()], a.dtype)
        return "[" + ", ".join(nested(sub) for sub in x) + "]"

    shape = "x".join(map(str, a.shape))
    return "dense<%s> : tensor<%sx%s>" % (nested(a), shape, element)


def pattern_input(shape, mul, mod, offset):
    """Small integers ((i * mul) % mod - offset) as float32."""
    n = int(np.prod(shape))
    return ((np.arange(n) * mul) % mod - offset).astype(np.float32).reshape(shape)


#===------------------------------------------------------------------------===#
# NumPy references (float64)
#===------------------------------------------------------------------------===#


def conv2d(x, f, strides=(1, 1), padding=(0, 0, 0, 0), dilations=(1, 1)):
    """NHWC input, HWCF filter, explicit [top, bottom, left, right]."""
    x = np.pad(x.astype(np.float64),
               ((0, 0), padding[0:2], padding[2:4], (0, 0)))
    n, h, w, c = x.shape
    kh, kw, _, fo = f.shape
    sh, sw = strides
    dh, dw = dilations
    oh = (h - (dh * (kh - 1) + 1)) // sh + 1
    ow = (w - (dw * (kw - 1) + 1)) // sw + 1
    out = np.zeros((n, oh, ow, fo))
    for i in range(oh):
        for j in range(ow):
            for a in range(kh):
                for b in range(kw):
                    patch = x[:, i * sh + a * dh, j * sw + b * dw, :]
                    out[:, i, j, :] += patch @ f[a, b].astype(np.float64)
    return out


def pool2d(x, window, strides, padding, reduce):
    """`reduce` over the in-bounds elements of each window only."""
    n, h, w, c = x.shape
    kh, kw = window
    sh, sw = strides
    top, bottom, left, right = padding
    oh = (h + top + bottom - kh) // sh + 1
    ow = (w + left + right - kw) // sw + 1
    out = np.zeros((n, oh, ow, c))
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * sh - top, j * sw - left
            rows = slice(max(r0, 0), min(r0 + kh, h))
            cols = slice(max(c0, 0), min(c0 + kw, w))
            out[:, i, j, :] = reduce(x[:, rows, cols, :].astype(np.float64),
                                     axis=(1, 2))
    return out


def max_pool2d(x, window, strides=(1, 1), padding=(0, 0, 0, 0)):
    return pool2d(x, window, strides, padding, np.max)


def avg_pool2d(x, window, strides=(1, 1), padding=(0, 0, 0, 0)):
    return pool2d(x, window, strides, padding, np.mean)


def softmax(x, axis):
    x = x.astype(np.float64)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def log_softmax(x, axis):
    x = x.astype(np.float64)
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


#===------------------------------------------------------------------------===#
# PyTorch cross-checks (NCHW; asymmetric padding through F.pad)
#===------------------------------------------------------------------------===#


def nchw(x):
    return torch.from_numpy(np.ascontiguousarray(x, dtype=np.float64)).permute(
        0, 3, 1, 2)


def nhwc(t):
    return t.permute(0, 2, 3, 1).numpy()


def torch_conv2d(x, f, strides, padding, dilations):
    top, bottom, left, right = padding
    xt = F.pad(nchw(x), (left, right, top, bottom))
    ft = torch.from_numpy(f.astype(np.float64)).permute(3, 2, 0, 1)  # FCHW
    return nhwc(F.conv2d(xt, ft, stride=strides, dilation=dilations))


def torch_max_pool2d(x, window, strides, padding):
    top, bottom, left, right = padding
    xt = F.pad(nchw(x), (left, right, top, bottom), value=-np.inf)
    return nhwc(F.max_pool2d(xt, window, stride=strides))


def torch_avg_pool2d(x, window, strides, padding):
    top, bottom, left, right = padding
    assert top == bottom and left == right, "torch pads symmetrically"
    return nhwc(F.avg_pool2d(nchw(x), window, stride=strides,
                             padding=(top, left), count_include_pad=False))


def cross_check(name, ours, theirs):
    if not np.allclose(ours, theirs, rtol=1e-12, atol=1e-12, equal_nan=True):
        sys.exit("%s: NumPy and PyTorch disagree:\n%s\n%s" % (name, ours, theirs))


#===------------------------------------------------------------------------===#
# The cases, one per function under test.
#===------------------------------------------------------------------------===#


def conv_cases():
    # conv2d.mlir @conv_plain: 1x4x4x1 input, 3x3x1x1 filter, no padding.
    x = pattern_input((1, 4, 4, 1), 7, 11, 5)
    f = pattern_input((3, 3, 1, 1), 5, 7, 3)
    yield "conv_plain", [x, f], conv2d(x, f), dict()
    # @conv_strided: batch 2, 3 -> 4 channels, strides [2, 2], asymmetric
    # padding [1, 0, 0, 1], dilations [1, 2].
    x = pattern_input((2, 5, 6, 3), 7, 11, 5)
    f = pattern_input((3, 2, 3, 4), 5, 7, 3)
    args = dict(strides=(2, 2), padding=(1, 0, 0, 1), dilations=(1, 2))
    yield "conv_strided", [x, f], conv2d(x, f, **args), args
    # @conv_dilated: 2 -> 3 channels, dilations [2, 2] with padding
    # [2, 2, 2, 2] ("same" size), strides [1, 1].
    x = pattern_input((1, 4, 4, 2), 3, 13, 6)
    f = pattern_input((3, 3, 2, 3), 5, 7, 3)
    args = dict(strides=(1, 1), padding=(2, 2, 2, 2), dilations=(2, 2))
    yield "conv_dilated", [x, f], conv2d(x, f, **args), args


def max_pool_cases():
    # max_pool2d.mlir @max_pool_plain: 2x2 windows, strides [2, 2].
    x = pattern_input((1, 4, 4, 1), 7, 11, 5)
    yield "max_pool_plain", [x], max_pool2d(x, (2, 2), (2, 2)), dict(
        window=(2, 2), strides=(2, 2))
    # @max_pool_negative: all inputs negative, so a zero in the padding
    # would win; batch 2, 2 channels, strides [2, 1], padding [1, 1, 0, 1].
    x = -1 - pattern_input((2, 5, 4, 2), 7, 11, 0)
    args = dict(window=(3, 2), strides=(2, 1), padding=(1, 1, 0, 1))
    yield "max_pool_negative", [x], max_pool2d(x, **args), args
    # @max_pool_overlap: overlapping 3x3 windows, stride 1, padding only
    # below and left [0, 2, 2, 0].
    x = pattern_input((1, 3, 3, 2), 5, 9, 4)
    args = dict(window=(3, 3), strides=(1, 1), padding=(0, 2, 2, 0))
    yield "max_pool_overlap", [x], max_pool2d(x, **args), args


def avg_pool_cases():
    # avg_pool2d.mlir @avg_pool_plain: 2x2 windows, strides [2, 2].
    x = pattern_input((1, 4, 4, 1), 7, 11, 5)
    yield "avg_pool_plain", [x], avg_pool2d(x, (2, 2), (2, 2)), dict(
        window=(2, 2), strides=(2, 2))
    # @avg_pool_same: batch 2, 2 channels, 3x3 windows, strides [2, 2],
    # padding [1, 1, 1, 1]: border windows average fewer elements.
    x = pattern_input((2, 5, 5, 2), 7, 11, 5)
    args = dict(window=(3, 3), strides=(2, 2), padding=(1, 1, 1, 1))
    yield "avg_pool_same", [x], avg_pool2d(x, **args), args
    # @avg_pool_asymmetric: 3 channels, 2x3 windows, strides [1, 2],
    # padding [1, 0, 2, 1].
    x = pattern_input((1, 4, 5, 3), 5, 13, 6)
    args = dict(window=(2, 3), strides=(1, 2), padding=(1, 0, 2, 1))
    yield "avg_pool_asymmetric", [x], avg_pool2d(x, **args), args


INF = np.inf
SOFTMAX_INPUTS = [
    # softmax.mlir/log_softmax.mlir @*_last: default axis -1; the second row
    # overflows float32 exp without the max subtraction; the third has -inf.
    ("last", np.array([[1, 2, 3, 4], [1000, 1001, 1002, 1003],
                       [-INF, 0, 0, -INF]], np.float32), -1),
    # @*_first: rank 3, axis -3 (= 0), large values of both signs.
    ("first", np.array([[[1000, -1000], [0, 5]], [[998, -1001], [0, 6]],
                        [[1001, -999], [0, 7]]], np.float32), -3),
    # @*_middle: rank 3, axis -2 (= 1), values around 700 (not far apart:
    # log(sum) of a dominant maximum loses digits to cancellation).
    ("middle", pattern_input((2, 3, 2), 7, 11, 5) * 0.25 + 700, -2),
]

ARGMAX_INPUTS = [
    # argmax.mlir @argmax_ties: axis -1; ties keep the first maximum.
    ("argmax_ties", np.array([[3, 1, 3, 2, 3], [-1, 5, 5, -2, 5]],
                             np.float32), -1),
    # @argmax_nan: NaN is the maximum (the first NaN wins); all -inf -> 0.
    ("argmax_nan", np.array([[1, np.nan, 5, np.nan], [-INF] * 4,
                             [2, 7, 7, np.nan], [INF, 1, INF, 0]],
                            np.float32), 1),
    # @argmax_first_axis: rank 3, axis -3 (= 0) with ties.
    ("argmax_first_axis", np.array([[[1, 2], [3, 4]], [[1, 5], [3, 0]],
                                    [[0, 5], [3, 9]]], np.float32), -3),
    # @argmax_int: i32 with INT_MIN everywhere in one column, axis 0.
    ("argmax_int", np.array([[-2**31, 4, 7], [-2**31, 9, 7],
                             [-2**31, 9, -3]], np.int32), 0),
    # @argmax_vector: rank 1 -> rank 0.
    ("argmax_vector", np.array([0.5, -1, 2.5, 2.5], np.float32), 0),
]


def all_cases():
    for name, inputs, out, args in conv_cases():
        if torch is not None:
            cross_check(name, out, torch_conv2d(
                *inputs, args.get("strides", (1, 1)),
                args.get("padding", (0, 0, 0, 0)),
                args.get("dilations", (1, 1))))
        yield name, inputs, out, EXACT
    for name, inputs, out, args in max_pool_cases():
        if torch is not None:
            cross_check(name, out, torch_max_pool2d(
                inputs[0], args["window"], args["strides"],
                args.get("padding", (0, 0, 0, 0))))
        yield name, inputs, out, EXACT
    for name, inputs, out, args in avg_pool_cases():
        padding = args.get("padding", (0, 0, 0, 0))
        if torch is not None and padding[0:2] == padding[1::-1] and \
                padding[2] == padding[3]:
            cross_check(name, out, torch_avg_pool2d(
                inputs[0], args["window"], args["strides"], padding))
        yield name, inputs, out, EXACT
    for name, x, axis in SOFTMAX_INPUTS:
        ours = softmax(x, axis)
        ours_log = log_softmax(x, axis)
        if torch is not None:
            t = torch.from_numpy(x.astype(np.float64))
            cross_check("softmax_" + name, ours,
                        torch.softmax(t, axis).numpy())
            cross_check("log_softmax_" + name, ours_log,
                        torch.log_softmax(t, axis).numpy())
        yield "softmax_" + name, [x], ours, SOFTMAX_TOLERANCE
        yield "log_softmax_" + name, [x], ours_log, LOG_SOFTMAX_TOLERANCE
    for name, x, axis in ARGMAX_INPUTS:
        yield name, [x], np.argmax(x, axis=axis).astype(np.int64), EXACT


def main(selected):
    for name, inputs, out, tolerance in all_cases():
        if selected and name not in selected:
            continue
        print("==== %s" % name)
        for i, x in enumerate(inputs):
            print("input %d: %s" % (i, mlir_literal(x)))
        print(check_lines(out, tolerance))


if __name__ == "__main__":
    main(sys.argv[1:])
