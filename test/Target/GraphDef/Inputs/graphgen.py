"""A small writer of TensorFlow GraphDefs in text form, for the tests'
graph generators (no TensorFlow needed)."""
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
