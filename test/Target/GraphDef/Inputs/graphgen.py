"""A small writer of TensorFlow GraphDefs in text form, for the tests'
graph generators (no TensorFlow needed)."""
import sys

import numpy as np

DTYPES = {
    np.dtype(np.float32): ("DT_FLOAT", "float_val"),
    np.dtype(np.float64): ("DT_DOUBLE", "double_val"),
    np.dtype(np.int32): ("DT_INT32", "int_val"),
    np.dtype(np.int64): ("DT_INT64", "int64_val"),
    np.dtype(np.bool_): ("DT_BOOL", "bool_val"),
}


def shape_text(shape):
    return "shape {" + "".join(f" dim {{ size: {d} }}" for d in shape) + " }"


def scalar_text(v, dtype):
    if dtype == np.bool_:
        return "true" if v else "false"
    if dtype.kind == "f":
        return np.format_float_positional(v, unique=True)
    return str(int(v))


def tensor_text(value):
    value = np.asarray(value)
    name, field = DTYPES[value.dtype]
    dims = "".join(f" dim {{ size: {d} }}" for d in value.shape)
    vals = " ".join(f"{field}: {scalar_text(v, value.dtype)}"
                    for v in value.reshape(-1))
    return f"tensor {{ dtype: {name} tensor_shape {{{dims} }} {vals} }}"


def attr_text(value):
    if isinstance(value, bool):
        return "b: " + ("true" if value else "false")
    if isinstance(value, int):
        return f"i: {value}"
    if isinstance(value, float):
        return f"f: {value}"
    if isinstance(value, str):
        return f"type: {value}" if value.startswith("DT_") else f's: "{value}"'
    if isinstance(value, list):
        return "list {" + "".join(f" i: {v}" for v in value) + " }"
    if isinstance(value, np.ndarray):
        return tensor_text(value)
    raise TypeError(value)


class Graph:
    def __init__(self):
        self.nodes = []
        self.inputs = []  # (name, array)
        self.outputs = []  # (tensor name, expected array)

    def node(self, name, op, inputs=(), **attrs):
        lines = [f'node {{\n  name: "{name}"\n  op: "{op}"\n']
        lines += [f'  input: "{i}"\n' for i in inputs]
        for key, value in attrs.items():
            lines.append(f'  attr {{ key: "{key}" value {{ {attr_text(value)} }} }}\n')
        lines.append("}\n")
        self.nodes.append("".join(lines))
        return name

    def placeholder(self, name, value):
        value = np.asarray(value)
        self.inputs.append((name, value))
        self.nodes.append(
            f'node {{\n  name: "{name}"\n  op: "Placeholder"\n'
            f'  attr {{ key: "dtype" value {{ type: {DTYPES[value.dtype][0]} }} }}\n'
            f'  attr {{ key: "shape" value {{ {shape_text(value.shape)} }} }}\n}}\n')
        return name

    def const(self, name, value):
        value = np.asarray(value)
        return self.node(name, "Const", dtype=DTYPES[value.dtype][0],
                         value=value)

    def output(self, tensor, expected):
        self.outputs.append((tensor, np.asarray(expected)))

    def pbtxt(self, header):
        return "".join([f"# {header}\n"] + self.nodes)

    def check(self, out_dir, rtol=1e-5, atol=1e-5):
        for i, (name, want) in enumerate(self.outputs):
            got = np.load(f"{out_dir}/main_result{i}.npy")
            assert got.shape == want.shape, (name, got.shape, want.shape)
            assert got.dtype == want.dtype, (name, got.dtype, want.dtype)
            np.testing.assert_allclose(got, want, rtol=rtol, atol=atol,
                                       err_msg=name)
        print(f"{len(self.outputs)} outputs match NumPy")


# NumPy references of the NHWC neural-net ops (HWIO filters; SAME padding
# puts the extra row/column at the bottom/right, as TensorFlow does).
def conv(x, w, stride, pad):
    x = np.pad(x, [(0, 0), pad[0], pad[1], (0, 0)])
    kh, kw = w.shape[:2]
    oh = (x.shape[1] - kh) // stride + 1
    ow = (x.shape[2] - kw) // stride + 1
    y = np.zeros((x.shape[0], oh, ow, w.shape[3]), np.float32)
    for i in range(oh):
        for j in range(ow):
            patch = x[:, i * stride:i * stride + kh, j * stride:j * stride + kw]
            y[:, i, j] = np.tensordot(patch, w, axes=([1, 2, 3], [0, 1, 2]))
    return y


def same(size, k, s):
    out_size = -(-size // s)
    total = max((out_size - 1) * s + k - size, 0)
    return (total // 2, total - total // 2)


def pool(x, k, s, reduce, avg):
    ph, pw = same(x.shape[1], k, s), same(x.shape[2], k, s)
    fill = -np.inf if not avg else 0
    xp = np.pad(x, [(0, 0), ph, pw, (0, 0)], constant_values=fill)
    ones = np.pad(np.ones_like(x), [(0, 0), ph, pw, (0, 0)])
    oh, ow = -(-x.shape[1] // s), -(-x.shape[2] // s)
    y = np.zeros((x.shape[0], oh, ow, x.shape[3]), np.float32)
    for i in range(oh):
        for j in range(ow):
            win = xp[:, i * s:i * s + k, j * s:j * s + k]
            if avg:
                count = ones[:, i * s:i * s + k, j * s:j * s + k].sum((1, 2))
                y[:, i, j] = win.sum((1, 2)) / count
            else:
                y[:, i, j] = win.max((1, 2))
    return y


def main(graph, header, argv):
    """The generators' command line: --pbtxt (the graph), --flags
    (tracec-translate's output arrays), --run-flags DIR (tracec-run's
    inputs), --inputs DIR (the placeholders' values), --check DIR."""
    if argv[1] == "--pbtxt":
        sys.stdout.write(graph.pbtxt(header))
    elif argv[1] == "--flags":
        print("--tf-output-arrays=" + ",".join(n for n, _ in graph.outputs))
    elif argv[1] == "--run-flags":
        print(" ".join(f"--input {n}=@{argv[2]}/{n}.npy" for n, _ in graph.inputs))
    elif argv[1] == "--inputs":
        for name, value in graph.inputs:
            np.save(f"{argv[2]}/{name}.npy", value)
    elif argv[1] == "--check":
        graph.check(argv[2])
