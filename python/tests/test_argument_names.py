"""A traced function's arguments carry their Python names (`trace.name`):
the parameter's, then the path into a structure; the ahead-of-time
compiler names the C arguments after them."""
import os
import re
import subprocess

import numpy as np
import pytest

import tracec
import tracec.numpy as tnp

BUILD = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(tracec.__file__))))


def predict(params, x, *rest, scale=1.0):
    return tnp.tanh(x @ params["w"] + params["b"][0]) * scale + rest[0]


def traced_ir():
    f = tracec.function(predict)
    params = {"w": np.ones((3, 2), np.float32),
              "b": [np.zeros(2, np.float32)]}
    f(params, np.ones((4, 3), np.float32), np.ones(2, np.float32),
      scale=np.float32(2))
    (concrete,) = f._cache.values()
    return concrete.ir()


def test_arguments_are_named_after_the_python_parameters():
    names = re.findall(r'trace.name = "(\w+)"', traced_ir())
    # Dicts flatten in key order, as in JAX: b before w.
    assert names == ["params_b_0", "params_w", "x", "rest_0", "scale"]


def test_input_signature_names_and_a_lambda():
    f = tracec.function(lambda a, b: a * b, input_signature=[
        tracec.TensorSpec([None], np.float32),
        tracec.TensorSpec([None], np.float32)])
    ir = f.get_concrete_function().ir()
    assert re.findall(r'trace.name = "(\w+)"', ir) == ["a", "b"]


@pytest.mark.skipif(not os.path.exists(os.path.join(BUILD, "bin", "tracec")),
                    reason="tracec is not imported from a build tree")
def test_ahead_of_time_header_uses_the_names(tmp_path):
    model = tmp_path / "model.mlir"
    model.write_text(traced_ir())
    entry = re.search(r"func.func @(\w+)", model.read_text())[1]
    subprocess.run([os.path.join(BUILD, "bin", "tracec"), str(model),
                    "--entry", entry, "-o", str(tmp_path / "model.o"),
                    "--header", str(tmp_path / "model.h")], check=True)
    header = (tmp_path / "model.h").read_text()
    assert (f"int model_{entry}(const float *params_b_0, const float "
            "*params_w, const float *x, const float *rest_0, const float "
            "*scale, float *result0);") in header


def test_variables_are_named_after_theirs():
    w = tracec.Variable(np.ones((3, 2), np.float32), name="dense/kernel")
    bias = np.ones(2, np.float32)  # closed over: a captured input

    @tracec.function
    def step(x):
        w.assign(w * 0.5)
        return x @ w + bias

    step(np.ones((4, 3), np.float32))
    (concrete,) = step._cache.values()
    signature = concrete.ir().splitlines()[1]
    assert re.findall(r'trace.name = "(\w+)"', signature) == \
        ["x", "dense_kernel", "captured_0"]
    assert signature.count("%arg") == 3
