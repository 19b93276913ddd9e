"""tracec.import_graphdef: TensorFlow GraphDefs (the corpus under
test/Target/GraphDef) called from Python against NumPy."""
import importlib.util
import pathlib
import sys

import numpy as np
import pytest
import torch

import tracec
import tracec.numpy as tnp

CORPUS = pathlib.Path(__file__).resolve().parents[2] / "test" / "Target" / "GraphDef"


def load_generator(name):
    # The generators import their helper (graphgen) from their folder.
    if str(CORPUS / "Inputs") not in sys.path:
        sys.path.insert(0, str(CORPUS / "Inputs"))
    spec = importlib.util.spec_from_file_location(name, CORPUS / "Inputs" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_mlp_matches_numpy():
    mlp = load_generator("mlp_graph")
    f = tracec.import_graphdef(CORPUS / "Inputs" / "mlp.pbtxt", inputs=["x"],
                               outputs=["probs"])
    x = np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32)
    np.testing.assert_allclose(f(x), mlp.reference(x), rtol=1e-5, atol=1e-6)


def test_input_shape_override():
    f = tracec.import_graphdef(CORPUS / "Inputs" / "unknown-dim.pbtxt",
                               inputs=["x"], outputs=["y"],
                               input_dtypes=["DT_FLOAT"], input_shapes=[[2, 3]])
    x = np.array([[-1, 2, -3], [4, -5, 6]], np.float32)
    np.testing.assert_array_equal(f(x), np.maximum(x, 0))


def test_variables_and_control_outputs():
    w = tracec.Variable(np.array([1, 2], np.float32))
    f = tracec.import_graphdef(CORPUS / "variables.pbtxt", inputs=["x"],
                               outputs=["y"], control_outputs=["group"],
                               variables={"w": w})
    assert f.variables == {"w": w}
    x = np.array([10, 20], np.float32)
    # y = w + (w + x), and w is updated in place.
    np.testing.assert_array_equal(f(x), [12, 24])
    np.testing.assert_array_equal(w.numpy(), [11, 22])
    np.testing.assert_array_equal(f(x), [32, 64])


def test_unsupported_ops_are_listed_at_once():
    with pytest.raises(ValueError) as info:
        tracec.import_graphdef(CORPUS / "Inputs" / "unsupported.pbtxt",
                               outputs=["r"])
    message = str(info.value)
    for op in ("Cumsum", "Unique", "Bincount"):
        assert f"unsupported op '{op}'" in message
    assert "3 unsupported ops" in message


def test_missing_file_and_bad_names():
    with pytest.raises(ValueError, match="No such file"):
        tracec.import_graphdef(CORPUS / "Inputs" / "nope.pbtxt")
    with pytest.raises(ValueError, match="output array 'nope' names no node"):
        tracec.import_graphdef(CORPUS / "Inputs" / "mlp.pbtxt", inputs=["x"],
                               outputs=["nope"])


# ---------------------------------------------------------------------------
# Gradients: an imported graph is a tracec.function like a traced one.
# ---------------------------------------------------------------------------

# d/dx of sum(probs * C): a loss whose gradient is not zero (that of
# sum(probs) is, softmax rows sum to one).
def weighted(f, c):
    return lambda x: tnp.sum(tnp.multiply(f(x), c))


def finite_differences(loss, x, eps=1e-3):
    x64 = x.astype(np.float64)
    g = np.zeros_like(x64)
    for i in np.ndindex(x.shape):
        for sign in (1, -1):
            xp = x64.copy()
            xp[i] += sign * eps
            g[i] += sign * float(loss(xp)) / (2 * eps)
    return g


def torch_mlp(mlp, x, c):
    tx = torch.tensor(x, requires_grad=True)
    h = torch.relu(tx @ torch.tensor(mlp.W1) + torch.tensor(mlp.B1))
    z = h @ torch.tensor(mlp.W2) + torch.tensor(mlp.B2)
    (torch.softmax(z, 1) * torch.tensor(c)).sum().backward()
    return tx.grad.numpy()


def torch_cnn(cnn, x, c):
    tx = torch.tensor(x, requires_grad=True)
    k = torch.tensor(cnn.K).permute(3, 2, 0, 1)  # HWIO -> OIHW
    y = torch.nn.functional.conv2d(tx.permute(0, 3, 1, 2), k, padding=1)
    y = y.permute(0, 2, 3, 1) + torch.tensor(cnn.KB)
    y = ((y - torch.tensor(cnn.MEAN)) / torch.sqrt(torch.tensor(cnn.VAR) + 0.001)
         * torch.tensor(cnn.GAMMA) + torch.tensor(cnn.BETA))
    y = torch.nn.functional.max_pool2d(torch.relu(y).permute(0, 3, 1, 2), 2)
    z = y.permute(0, 2, 3, 1).reshape(2, -1) @ torch.tensor(cnn.W) + torch.tensor(cnn.WB)
    (torch.softmax(z, 1) * torch.tensor(c)).sum().backward()
    return tx.grad.numpy()


MODELS = {
    "mlp": ("mlp_graph", "mlp.pbtxt", ["x"], lambda m: m.X, torch_mlp),
    "cnn": ("cnn_graph", "cnn.pbtxt", ["input"], lambda m: m.X, torch_cnn),
}


@pytest.fixture(scope="module", params=sorted(MODELS))
def model(request):
    generator, graph, inputs, example, reference = MODELS[request.param]
    module = load_generator(generator)
    f = tracec.import_graphdef(CORPUS / "Inputs" / graph, inputs=inputs,
                               outputs=["probs"])
    x = example(module)
    c = np.random.default_rng(1).uniform(-1, 1, f(x).shape).astype(np.float32)
    return f, x, c, reference(module, x, c), module


def test_grad_matches_torch_and_finite_differences(model):
    f, x, c, want, module = model
    g = tracec.grad(weighted(f, c))(x)
    assert g.shape == x.shape and g.dtype == np.float32
    np.testing.assert_allclose(g, want, rtol=1e-4, atol=1e-6)
    # Finite differences of the graph itself, in NumPy's reference.
    fd = finite_differences(lambda v: np.sum(module.reference(v) * c), x)
    np.testing.assert_allclose(g, fd, rtol=2e-2, atol=2e-3)


def test_value_and_grad(model):
    f, x, c, want, module = model
    value, g = tracec.value_and_grad(weighted(f, c))(x)
    np.testing.assert_allclose(value, np.sum(module.reference(x) * c),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(g, want, rtol=1e-4, atol=1e-6)


def test_vjp(model):
    f, x, c, want, module = model
    y, vjp_fn = tracec.vjp(f, x)
    np.testing.assert_allclose(y, module.reference(x), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(vjp_fn(c)[0], want, rtol=1e-4, atol=1e-6)


def test_eager_gradient_tape(model):
    f, x, c, want, _ = model
    x = x.copy()
    with tracec.GradientTape() as tape:
        tape.watch(x)
        loss = weighted(f, c)(x)
    np.testing.assert_allclose(tape.gradient(loss, x), want, rtol=1e-4,
                               atol=1e-6)


def test_gradient_tape_inside_function(model):
    f, x, c, want, _ = model

    @tracec.function
    def step(x):
        with tracec.GradientTape() as tape:
            tape.watch(x)
            loss = weighted(f, c)(x)
        return loss, tape.gradient(loss, x)
    loss, g = step(x)
    np.testing.assert_allclose(g, want, rtol=1e-4, atol=1e-6)
    # The graph is a func.call in the traced function (no copy of its ops).
    ir = step.get_concrete_function(x).ir()
    assert "call @graph_" in ir


def test_called_from_a_function_and_jax_style_grad_of_grad_input(model):
    f, x, c, want, module = model

    @tracec.function
    def twice(x):
        return tnp.add(f(x), f(x))
    np.testing.assert_allclose(twice(x), 2 * module.reference(x), rtol=1e-5,
                               atol=1e-6)

    @tracec.function
    def grad_in_function(x):
        return tracec.grad(weighted(f, c))(x)
    np.testing.assert_allclose(grad_in_function(x), want, rtol=1e-4,
                               atol=1e-6)


def test_gradients_of_variables():
    w0 = np.random.default_rng(2).standard_normal((3, 2)).astype(np.float32)
    x = np.random.default_rng(3).standard_normal((2, 3)).astype(np.float32)
    f = tracec.import_graphdef(CORPUS / "Inputs" / "linear-variable.pbtxt",
                               inputs=["x"], outputs=["y"],
                               variables={"dense/kernel": w0})
    w = f.variables["dense/kernel"]
    assert isinstance(w, tracec.Variable) and w.shape == (3, 2)
    np.testing.assert_allclose(f(x), np.tanh(x @ w0), rtol=1e-5, atol=1e-6)
    with tracec.GradientTape() as tape:
        tape.watch(x)
        loss = tnp.sum(tnp.square(f(x)))
    gx, gw = tape.gradient(loss, [x, w])
    tx, tw = (torch.tensor(a, requires_grad=True) for a in (x, w0))
    (torch.tanh(tx @ tw) ** 2).sum().backward()
    np.testing.assert_allclose(gx, tx.grad.numpy(), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(gw, tw.grad.numpy(), rtol=1e-4, atol=1e-6)
    # A shared variable: assigning it changes what the graph computes.
    w.assign(np.zeros((3, 2), np.float32))
    np.testing.assert_array_equal(f(x), np.zeros((2, 2), np.float32))


def test_variables_errors():
    path = CORPUS / "Inputs" / "linear-variable.pbtxt"
    with pytest.raises(ValueError, match=r"\['nope'\] are not variables of the graph"):
        tracec.import_graphdef(path, inputs=["x"], outputs=["y"],
                               variables={"nope": np.zeros(2, np.float32)})
    with pytest.raises(ValueError, match="is \\(3, 2\\) float32, but the one given is \\(2,\\)"):
        tracec.import_graphdef(path, inputs=["x"], outputs=["y"],
                               variables={"dense/kernel": np.zeros(2, np.float32)})


def test_wrong_input_shape_names_the_input():
    f = tracec.import_graphdef(CORPUS / "Inputs" / "mlp.pbtxt", inputs=["x"],
                               outputs=["probs"])
    with pytest.raises(ValueError, match=r"argument 0 \(x\) does not match"):
        f(np.zeros((2, 3), np.float32))


def test_tape_inside_function_through_a_graph_with_variables():
    # Under a user tape inside a traced function, callees' reads are hoisted
    # to the call site; a graph's cannot be, so the call is made inline.
    w0 = np.random.default_rng(4).standard_normal((3, 2)).astype(np.float32)
    x = np.random.default_rng(5).standard_normal((2, 3)).astype(np.float32)
    f = tracec.import_graphdef(CORPUS / "Inputs" / "linear-variable.pbtxt",
                               inputs=["x"], outputs=["y"],
                               variables={"dense/kernel": w0})

    @tracec.function
    def step(x):
        with tracec.GradientTape() as tape:
            tape.watch(x)
            loss = tnp.sum(f(x))
        return tape.gradient(loss, x)
    want = (1 - np.tanh(x @ w0) ** 2) @ w0.T
    np.testing.assert_allclose(step(x), want, rtol=1e-5, atol=1e-6)


def test_prod_gradient_with_zeros_matches_torch():
    # Rows with no zero, one zero, two zeros: the product of the others.
    x = np.array([[2, -3, 0.5, 4], [1.5, 0, 2, -1], [0, 3, 0, 2]])
    c = np.array([0.5, -2.0, 3.0])
    f = tracec.import_graphdef(CORPUS / "Inputs" / "prod.pbtxt",
                               inputs=["x"], outputs=["y"])
    np.testing.assert_array_equal(f(x), x.prod(1))
    g = tracec.grad(lambda x: tnp.sum(tnp.multiply(f(x), c)))(x)
    tx = torch.tensor(x, requires_grad=True)
    (tx.prod(1) * torch.tensor(c)).sum().backward()
    np.testing.assert_allclose(g, tx.grad.numpy(), rtol=1e-12, atol=1e-12)
    fd = finite_differences(lambda v: np.sum(v.prod(1) * c), x, eps=1e-4)
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-8)


def test_tf1_reference_variables_are_tracec_variables():
    f = tracec.import_graphdef(CORPUS / "tf1-variables.pbtxt", inputs=["x"],
                               outputs=["y", "z", "v"],
                               prune_unused_nodes=True,
                               variables={"w": np.array([1, 2], np.float32),
                                          "counter": np.array([3, 4], np.float32)})
    y, z, v = f(np.array([10, 20], np.float32))
    np.testing.assert_array_equal(y, [10, 40])   # w * x
    np.testing.assert_array_equal(z, [21, 62])   # (w + x) + y
    np.testing.assert_array_equal(v, [5, 6])
    np.testing.assert_array_equal(f.variables["w"].numpy(), [11, 22])
    np.testing.assert_array_equal(f.variables["counter"].numpy(), [5, 6])
