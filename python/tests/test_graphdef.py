"""tracec.import_graphdef: TensorFlow GraphDefs (the corpus under
test/Target/GraphDef) called from Python against NumPy."""
import importlib.util
import pathlib

import numpy as np
import pytest

import tracec

CORPUS = pathlib.Path(__file__).resolve().parents[2] / "test" / "Target" / "GraphDef"


def load_generator(name):
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
    f = tracec.import_graphdef(CORPUS / "variables.pbtxt", inputs=["x"],
                               outputs=["y"], control_outputs=["group"])
    x = np.array([10, 20], np.float32)
    w = np.array([1, 2], np.float32)
    np.testing.assert_array_equal(f(x, w), 2 * w + x)


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
