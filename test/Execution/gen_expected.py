#!/usr/bin/python3
"""Expected values for the execution tests of the source and shape ops
(test/Execution/{constant,fill,iota,identity,reshape,transpose,broadcast_to,
concat,slice,pad,gather,one_hot}.mlir), computed with NumPy.

Run with Debian's interpreter: /usr/bin/python3 gen_expected.py [case...]

Each case holds the test's inputs (NumPy arrays, written into the test as
MLIR literals) and computes the results the trace ops must produce with the
NumPy function that defines them (np.take on clipped indices for gather,
np.pad, np.concatenate, ...). For each result it prints the FileCheck lines
matching `printMemref{F32,F64,I32,I64}`: the metadata line with its sizes,
then one CHECK-NEXT per printed row. Values print as the runner's C++
`operator<<` does (%g, 6 significant digits; integers in decimal). The
inputs are chosen exactly representable, so every expected value is exact.
"""

import sys

import numpy as np

MLIR_TYPES = {
    np.dtype(np.float16): "f16",
    np.dtype(np.float32): "f32",
    np.dtype(np.float64): "f64",
    np.dtype(np.bool_): "i1",
    np.dtype(np.int32): "i32",
    np.dtype(np.int64): "i64",
}


def element(value, dtype):
    if dtype.kind == "f":
        return "{:g}".format(float(value))
    if dtype.kind == "b":
        return "1" if value else "0"
    return str(int(value))


def tensor_type(array):
    shape = "x".join(str(d) for d in array.shape)
    return "tensor<%s%s>" % (shape + "x" if shape else "", MLIR_TYPES[array.dtype])


def literal(array):
    """`dense<...> : tensor<...>` for an input."""

    def nested(a):
        if a.ndim == 0:
            v = a.item()
            if a.dtype.kind == "b":
                return "true" if v else "false"
            if a.dtype.kind == "f":
                return repr(float(v))
            return str(int(v))
        return "[" + ", ".join(nested(x) for x in a) + "]"

    return "dense<%s> : %s" % (nested(array), tensor_type(array))


def print_memref(array):
    """What MemRefDataPrinter<T>::print writes for a row-major array."""
    rank = array.ndim
    flat = array.reshape(-1)
    sizes = array.shape
    strides = [int(np.prod(sizes[d + 1:])) for d in range(rank)]
    out = []

    def rec(dim, offset, level):
        if dim == 0:
            out.append(element(flat[offset], array.dtype))
            return
        size, stride = sizes[level], strides[level]
        out.append("[")
        rec(dim - 1, offset, level + 1)
        if size <= 1:
            out.append("]")
            return
        out.append(", ")
        if dim > 1:
            out.append("\n")
        for i in range(1, size - 1):
            out.append(" " * (rank - dim + 1))
            rec(dim - 1, offset + i * stride, level + 1)
            out.append(", ")
            if dim > 1:
                out.append("\n")
        out.append(" " * (rank - dim + 1))
        rec(dim - 1, offset + (size - 1) * stride, level + 1)
        out.append("]")

    if rank == 0:
        out.append("[")
    rec(rank, 0, 0)
    if rank == 0:
        out.append("]")
    return "".join(out)


def check_lines(array):
    assert array.size > 0, "printMemref cannot print an empty memref"
    sizes = ", ".join(str(d) for d in array.shape)
    lines = ["// CHECK: rank = %d offset = {{[0-9]+}} sizes = [%s] strides = "
             "{{.*}} data =" % (array.ndim, sizes)]
    for row in print_memref(array).split("\n"):
        # `[[` opens a FileCheck variable: spell it as a regex.
        row = row.rstrip().replace("[[", "{{\\[\\[}}")
        lines.append("// CHECK-NEXT: " + row)
    return "\n".join(lines)


def report(name, inputs, results):
    print("//", "=" * 70)
    print("// case", name)
    for label, array in inputs:
        print("//   %s = %s" % (label, literal(array)))
    for label, array in results:
        print("// result %s : %s" % (label, tensor_type(array)))
        print(check_lines(array))


f32, f64, i32, i64 = np.float32, np.float64, np.int32, np.int64


#===------------------------------------------------------------------------===#
# Sources
#===------------------------------------------------------------------------===#

def case_constant():
    a = np.array([[1.5, -2.0, 0.25], [4.0, 1e6, -0.125]], f32)
    b = np.array([-3, 7, 2**40], i64)
    c = np.array([True, False, True], np.bool_)
    # The constant is returned as it is; the bool one is cast to i32 to print.
    report("constant", [("a", a), ("b", b), ("c", c)],
           [("a", a), ("b", b), ("c as i32", c.astype(i32))])


def case_fill():
    v = np.array(2.5, f32)
    n = np.array(-4, i32)
    t = np.array(True, np.bool_)
    report("fill", [("v", v), ("n", n), ("t", t)],
           [("fill v 2x3", np.full((2, 3), v, f32)),
            ("fill n 3", np.full((3,), n, i32)),
            ("fill t 2x2 as i32", np.full((2, 2), t).astype(i32))])


def iota(shape, axis, dtype):
    index = np.arange(shape[axis]).reshape(
        [-1 if d == axis % len(shape) else 1 for d in range(len(shape))])
    return np.broadcast_to(index, shape).astype(dtype)


def case_iota():
    # Over 1024 elements, so the folder leaves them to the lowering; strided
    # slices and a sum keep the printout short.
    a = iota((3, 400), -1, f32)
    b = iota((1100, 2), 0, i32)
    c = iota((3, 400), 1, f64)
    d = iota((2, 3), 0, i64)  # small: folded to a constant
    report("iota", [],
           [("iota f32 3x400 axis -1 [:, ::133]", a[:, ::133]),
            ("iota i32 1100x2 axis 0 [::366, :]", b[::366, :]),
            ("iota f64 3x400 axis 1, sum over axis 1", c.sum(axis=1)),
            ("iota i64 2x3 axis 0", d)])


def case_identity():
    x = np.array([[1.5, -2.0], [0.0, 3.25]], f32)
    n = np.array([5, -6, 7], i32)
    report("identity", [("x", x), ("n", n)], [("x", x), ("n", n)])


#===------------------------------------------------------------------------===#
# Shape ops
#===------------------------------------------------------------------------===#

def case_reshape():
    x = np.arange(24, dtype=f32).reshape(2, 3, 4) * 0.5 - 3
    s = np.array([[7.5]], f32)
    n = np.array([[1, -2, 3], [-4, 5, -6]], i32)
    report("reshape", [("x", x), ("s", s), ("n", n)],
           [("x -> 6x4 (collapse)", x.reshape(6, 4)),
            ("x -> 2x3x2x2 (expand)", x.reshape(2, 3, 2, 2)),
            ("x -> 4x6 (regroup)", x.reshape(4, 6)),
            ("s -> scalar", s.reshape(())),
            ("n -> 3x1x2 (regroup)", n.reshape(3, 1, 2))])


def case_transpose():
    x = np.arange(24, dtype=f32).reshape(2, 3, 4) - 10
    n = np.array([[1, 2, 3], [4, 5, 6]], i64) * -(2**33)
    report("transpose", [("x", x), ("n", n)],
           [("x perm [2, 0, 1]", np.transpose(x, (2, 0, 1))),
            ("n perm [1, 0]", np.transpose(n, (1, 0)))])


def case_broadcast_to():
    v = np.array([1.5, -2.0, 3.0], f32)
    c = np.array([[1.0], [2.0], [-3.5]], f32)
    n = np.array([[4, -5]], i32)
    report("broadcast_to", [("v", v), ("c", c), ("n", n)],
           [("v -> 2x3", np.broadcast_to(v, (2, 3))),
            ("c -> 2x3x4", np.broadcast_to(c, (2, 3, 4))),
            ("n -> 3x2", np.broadcast_to(n, (3, 2)))])


def case_concat():
    a = np.array([[1.0], [2.0]], f32)
    b = np.array([[3.0, 4.5, 5.0], [6.0, 7.0, -8.0]], f32)
    p = np.array([[1, 2]], i32)
    q = np.array([[3, 4], [5, 6]], i32)
    r = np.array([[-7, -8]], i32)
    report("concat", [("a", a), ("b", b), ("p", p), ("q", q), ("r", r)],
           [("a, b axis -1", np.concatenate([a, b], axis=-1)),
            ("p, q, r axis 0", np.concatenate([p, q, r], axis=0))])


def case_slice():
    x = np.arange(35, dtype=f32).reshape(5, 7) * 0.25
    n = np.array([10, 11, 12, 13, 14, 15], i64)
    report("slice", [("x", x), ("n", n)],
           [("x[1:5:2, 0:7:3]", x[1:5:2, 0:7:3]),
            ("x[0:2, 2:5]", x[0:2, 2:5]),
            ("n[1:6:2]", n[1:6:2])])


def case_pad():
    x = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], f32)
    n = np.array([1, 2, 3], i32)
    b = np.array([True, False], np.bool_)
    d = np.array([[0.5]], f64)
    # The f64 `value` converts to the element type: integers truncate toward
    # zero (-7.9 -> -7), bool tests for non-zero (0.5 -> true).
    report("pad", [("x", x), ("n", n), ("b", b), ("d", d)],
           [("x low [1, 0] high [0, 2] value -2.5",
             np.pad(x, ((1, 0), (0, 2)), constant_values=-2.5)),
            ("n low [2] high [1] value -7.9",
             np.pad(n, ((2, 1),), constant_values=int(np.trunc(-7.9)))),
            ("b low [0] high [2] value 0.5 as i32",
             np.pad(b, ((0, 2),), constant_values=bool(0.5)).astype(i32)),
            ("d low [1, 1] high [1, 0] value 1e-3",
             np.pad(d, ((1, 1), (1, 0)), constant_values=1e-3))])


def clamped_take(params, indices, axis):
    dim = params.shape[axis]
    return np.take(params, np.clip(indices, 0, dim - 1), axis=axis)


def case_gather():
    p = np.arange(12, dtype=f32).reshape(3, 4) * 1.5
    i = np.array([2, -1, 5, 0], i32)           # -1 and 5 are clamped
    q = np.array([[10, 11, 12, 13], [20, 21, 22, 23]], i64)
    j = np.array([[3, -7], [1, 9]], i64)       # -7 and 9 are clamped
    r = np.array([[1, 2], [3, 4], [5, 6]], i32)
    k = np.array(7, i32)                       # rank 0, clamped to 2
    report("gather", [("p", p), ("i", i), ("q", q), ("j", j), ("r", r), ("k", k)],
           [("p, i axis 0", clamped_take(p, i, 0)),
            ("q, j axis -1", clamped_take(q, j, -1)),
            ("r, k axis 0", clamped_take(r, k, 0))])


def one_hot(indices, depth, axis, on, off, dtype):
    rank = indices.ndim + 1
    axis = axis % rank
    positions = np.arange(depth).reshape(
        [-1 if d == axis else 1 for d in range(rank)])
    hot = np.expand_dims(indices, axis) == positions
    return np.where(hot, on, off).astype(dtype)


def case_one_hot():
    i = np.array([0, 2, -1, 3], i32)           # -1 and 3 are out of range
    j = np.array([[1, 0], [5, 2]], i64)        # 5 is out of range
    k = np.array([2, 0], i32)
    report("one_hot", [("i", i), ("j", j), ("k", k)],
           [("i depth 3 (axis -1) f32", one_hot(i, 3, -1, 1.0, 0.0, f32)),
            ("j depth 3 axis 0 on 5 off -1 i32",
             one_hot(j, 3, 0, 5, -1, i32)),
            ("j depth 4 axis -2 on 2.5 off 0.5 f64",
             one_hot(j, 4, -2, 2.5, 0.5, f64)),
            ("k depth 3 bool as i32",
             one_hot(k, 3, -1, True, False, np.bool_).astype(i32))])


CASES = {name[len("case_"):]: fn for name, fn in globals().items()
         if name.startswith("case_")}

if __name__ == "__main__":
    for name in sys.argv[1:] or CASES:
        CASES[name]()
