"""Nested structures (pytrees: lists, tuples, dicts, namedtuples,
registered dataclasses) as arguments, results and input signatures of
tracec.functions, and as what grad/value_and_grad/vjp differentiate:
values against NumPy, gradients against PyTorch autograd at f64."""
import collections
import dataclasses

import numpy as np
import pytest
import torch

import tracec
import tracec.numpy as tnp

Point = collections.namedtuple("Point", "x y")


def f64(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


# --- tree_util -----------------------------------------------------------------


def test_flatten_sorts_dict_keys_and_rebuilds_namedtuples():
    tree = {"b": Point(1, [2, None]), "a": (3,)}
    leaves, treedef = tracec.tree_util.tree_flatten(tree)
    assert leaves == [3, 1, 2]  # "a" before "b", as JAX flattens
    rebuilt = treedef.unflatten([30, 10, 20])
    assert rebuilt == {"a": (30,), "b": Point(10, [20, None])}
    assert type(rebuilt["b"]) is Point
    # Insertion order does not change the structure.
    assert tracec.tree_util.tree_flatten({"a": (0,), "b": Point(0, [0, None])}
                                         )[1] == treedef


# --- tracec.function -----------------------------------------------------------


def test_dict_and_namedtuple_arguments_and_results():
    @tracec.function
    def f(params, p):
        h = tnp.tanh(p.x @ params["w"] + params["b"])
        return {"h": h, "stats": Point(tnp.sum(h), tnp.max(h)),
                "none": None}

    params = {"w": f64(3, 2), "b": f64(2, seed=1)}
    p = Point(f64(4, 3, seed=2), f64(4, seed=3))
    out = f(params, p)
    h = np.tanh(p.x @ params["w"] + params["b"])
    assert set(out) == {"h", "stats", "none"} and out["none"] is None
    assert type(out["stats"]) is Point
    np.testing.assert_allclose(out["h"], h, rtol=1e-12)
    np.testing.assert_allclose(out["stats"].x, h.sum(), rtol=1e-12)
    np.testing.assert_allclose(out["stats"].y, h.max(), rtol=1e-12)
    assert f.trace_count == 1


def test_same_structure_reuses_the_trace_another_retraces():
    @tracec.function
    def f(d):
        return sum(tnp.sum(v) for v in tracec.tree_util.tree_leaves(d))

    a, b = np.ones(2, np.float32), np.ones(3, np.float32)
    f({"a": a, "b": b})
    f({"b": b * 2, "a": a * 2})  # other values and insertion order
    assert f.trace_count == 1
    f({"a": a, "b": b, "c": a})  # another key
    f([a, b])  # a list
    f((a, b))  # a tuple is another structure than a list
    assert f.trace_count == 4
    f({"a": a, "b": np.ones(4, np.float32)})  # another shape
    assert f.trace_count == 5


def test_static_leaves_are_part_of_the_key():
    @tracec.function
    def f(config, x):
        return x * config["scale"] if config["use"] else x

    x = np.ones(2, np.float32)
    np.testing.assert_array_equal(f({"scale": 3.0, "use": True}, x), 3 * x)
    np.testing.assert_array_equal(f({"scale": 3.0, "use": False}, x), x)
    np.testing.assert_array_equal(f({"scale": 3.0, "use": True}, x), 3 * x)
    assert f.trace_count == 2
    with pytest.raises(TypeError, match=r"argument 0\['s'\] is a set"):
        f({"s": set(), "use": False}, x)


def test_nested_input_signature_traces_once_for_every_batch():
    spec = tracec.TensorSpec
    sig = [{"w": spec((3, 2), np.float64), "b": spec((2,), np.float64)},
           spec((None, 3), np.float64)]

    @tracec.function(input_signature=sig)
    def layer(params, x):
        return x @ params["w"] + params["b"]

    params = {"w": f64(3, 2), "b": f64(2, seed=1)}
    for batch in (1, 5, 8):
        x = f64(batch, 3, seed=batch)
        np.testing.assert_allclose(layer(params, x),
                                   x @ params["w"] + params["b"], rtol=1e-12)
    assert layer.trace_count == 1
    # TensorFlow's errors: another structure is a ValueError, as is a leaf
    # that does not fit its spec (named by its path).
    with pytest.raises(ValueError, match="structure of the arguments"):
        layer({"w": params["w"]}, x)
    with pytest.raises(ValueError, match=r"argument 0\['w'\] does not match"):
        layer({"w": f64(4, 2), "b": params["b"]}, x)
    with pytest.raises(TypeError, match=r"input_signature\[0\]\['b'\] is a"):
        tracec.function(lambda p: p, input_signature=[{"b": 3}])
    concrete = layer.get_concrete_function()
    assert concrete.structured_outputs.shape == (None, 2)


def test_get_concrete_function_with_nested_specs():
    @tracec.function
    def f(pair):
        return {"sum": pair[0] + pair[1]}

    spec = tracec.TensorSpec((None,), np.float32)
    concrete = f.get_concrete_function((spec, spec))
    assert concrete.structured_outputs["sum"].shape == (None,)
    x = np.arange(3, dtype=np.float32)
    np.testing.assert_array_equal(concrete((x, x))["sum"], 2 * x)


@tracec.register_dataclass
@dataclasses.dataclass
class Linear:
    w: object
    b: object


def test_registered_dataclass_argument_result_and_gradient():
    @tracec.function
    def step(layer, x):
        return Linear(layer.w * 2, layer.b + tnp.sum(x))

    layer = Linear(f64(2, 2), f64(2, seed=1))
    x = f64(3, seed=2)
    out = step(layer, x)
    assert isinstance(out, Linear)
    np.testing.assert_allclose(out.w, 2 * layer.w, rtol=1e-12)
    np.testing.assert_allclose(out.b, layer.b + x.sum(), rtol=1e-12)

    g = tracec.grad(lambda layer, x: tnp.sum(tnp.tanh(layer.w * x[:2]
                                                      + layer.b)))(layer, x)
    assert isinstance(g, Linear)
    tw = torch.tensor(layer.w, requires_grad=True)
    tb = torch.tensor(layer.b, requires_grad=True)
    torch.tanh(tw * torch.tensor(x[:2]) + tb).sum().backward()
    np.testing.assert_allclose(g.w, tw.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(g.b, tb.grad.numpy(), rtol=1e-12)


def test_nested_calls_and_tapes_take_structures():
    @tracec.function
    def inner(p, x):
        return {"y": tnp.tanh(x @ p["w"])}

    @tracec.function
    def outer(p, x):
        return tnp.sum(inner(p, x)["y"])

    p, x = {"w": f64(3, 2)}, f64(4, 3, seed=1)
    np.testing.assert_allclose(outer(p, x), np.tanh(x @ p["w"]).sum(),
                               rtol=1e-12)
    # Under an eager tape (the call is one recorded op), and under a tape
    # inside a traced function (the call's reads are hoisted).
    with tracec.GradientTape() as tape:
        tape.watch(p["w"])
        y = tnp.sum(inner(p, x)["y"])
    tw = torch.tensor(p["w"], requires_grad=True)
    torch.tanh(torch.tensor(x) @ tw).sum().backward()
    np.testing.assert_allclose(tape.gradient(y, p["w"]), tw.grad.numpy(),
                               rtol=1e-12)

    @tracec.function
    def traced_tape(p, x):
        with tracec.GradientTape() as tape:
            tape.watch(p["w"])
            y = tnp.sum(inner(p, x)["y"])
        return tape.gradient(y, p)
    np.testing.assert_allclose(traced_tape(p, x)["w"], tw.grad.numpy(),
                               rtol=1e-12)


# --- grad, value_and_grad, vjp -------------------------------------------------


def mlp(params, x, lib):
    h = x
    for layer in params["layers"]:
        h = lib.tanh(h @ layer["w"] + layer["b"])
    return h


def mlp_params(seed=0):
    return {"layers": [{"w": f64(3, 4, seed=seed), "b": f64(4, seed=seed + 1)},
                       {"w": f64(4, 2, seed=seed + 2),
                        "b": f64(2, seed=seed + 3)}]}


def torch_grads(params, loss):
    tparams = [{k: torch.tensor(v, requires_grad=True) for k, v in layer.items()}
               for layer in params["layers"]]
    loss({"layers": tparams}).backward()
    return [{k: v.grad.numpy() for k, v in layer.items()} for layer in tparams]


def assert_same_tree(got, expected_layers):
    assert isinstance(got, dict) and list(got) == ["layers"]
    assert len(got["layers"]) == len(expected_layers)
    for g, e in zip(got["layers"], expected_layers):
        assert sorted(g) == ["b", "w"]
        for k in g:
            np.testing.assert_allclose(g[k], e[k], rtol=1e-10, atol=1e-12)


def test_grad_of_a_params_dict_as_jax_users_write():
    params, x = mlp_params(), f64(5, 3, seed=9)

    def loss(params, x):
        return tnp.mean(mlp(params, x, tnp) ** 2)
    expected = torch_grads(
        params, lambda p: (mlp(p, torch.tensor(x), torch) ** 2).mean())
    assert_same_tree(tracec.grad(loss)(params, x), expected)

    value, (g_params, g_x) = tracec.value_and_grad(loss, argnums=(0, 1))(
        params, x)
    np.testing.assert_allclose(value, (mlp(params, x, np) ** 2).mean(),
                               rtol=1e-12)
    assert_same_tree(g_params, expected)
    tx = torch.tensor(x, requires_grad=True)
    tp = {"layers": [{k: torch.tensor(v) for k, v in layer.items()}
                     for layer in params["layers"]]}
    (mlp(tp, tx, torch) ** 2).mean().backward()
    np.testing.assert_allclose(g_x, tx.grad.numpy(), rtol=1e-10)


def test_grad_inside_a_function_and_has_aux_with_structures():
    params, x = mlp_params(), f64(5, 3, seed=9)

    @tracec.function
    def step(params, x):
        def loss(params):
            h = mlp(params, x, tnp)
            return tnp.mean(h ** 2), {"h": h}
        grads, aux = tracec.grad(loss, has_aux=True)(params)
        return grads, aux

    grads, aux = step(params, x)
    np.testing.assert_allclose(aux["h"], mlp(params, x, np), rtol=1e-12)
    assert_same_tree(grads, torch_grads(
        params, lambda p: (mlp(p, torch.tensor(x), torch) ** 2).mean()))


def test_grad_of_an_integer_leaf_is_a_type_error_naming_it():
    def loss(p):
        return tnp.sum(p["w"])
    with pytest.raises(TypeError, match=r"argument 0\['n'\] of loss .* "
                                        "has dtype int32"):
        tracec.grad(loss)({"w": f64(2), "n": np.int32(3) * np.ones(2, np.int32)})


def test_vjp_of_structured_outputs():
    params, x = mlp_params(), f64(5, 3, seed=9)

    def f(params, x):
        h = mlp(params, x, tnp)
        return {"h": h, "sq": (h * h, tnp.sum(h))}

    out, vjp_fn = tracec.vjp(f, params, x)
    ct = {"h": f64(5, 2, seed=20), "sq": (f64(5, 2, seed=21), 0.5)}
    g_params, g_x = vjp_fn({"h": ct["h"], "sq": (ct["sq"][0],
                                                 np.float64(0.5))})
    tx = torch.tensor(x, requires_grad=True)
    tparams = [{k: torch.tensor(v, requires_grad=True) for k, v in
                layer.items()} for layer in params["layers"]]
    th = mlp({"layers": tparams}, tx, torch)
    torch.autograd.backward(
        [th, th * th, th.sum()],
        [torch.tensor(ct["h"]), torch.tensor(ct["sq"][0]),
         torch.tensor(0.5, dtype=torch.float64)])
    np.testing.assert_allclose(out["sq"][1], mlp(params, x, np).sum(),
                               rtol=1e-12)
    np.testing.assert_allclose(g_x, tx.grad.numpy(), rtol=1e-10)
    assert_same_tree(g_params, [{k: v.grad.numpy() for k, v in layer.items()}
                                for layer in tparams])
    with pytest.raises(TypeError, match="structure of the cotangent"):
        vjp_fn(ct["h"])
