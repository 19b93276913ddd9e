"""tracec.save / tracec.load: a traced training step kept as MLIR text,
data and structure, restored without its Python code; the loaded step
computes what the original does, updating its own variables."""
import json
import os
import subprocess
import sys
from collections import namedtuple

import numpy as np
import pytest

import tracec
import tracec.numpy as tnp


def make_step():
    w = tracec.Variable(np.linspace(-1, 1, 6, dtype=np.float32)
                        .reshape(3, 2), name="w")
    shift = np.array([0.25, -0.5], np.float32)  # captured

    @tracec.function
    def step(batch, lr):
        def loss(w):
            y = tnp.tanh(batch["x"] @ w + shift)
            return tnp.mean(tnp.square(y - batch["y"]))
        value, g = tracec.value_and_grad(loss)(w.read_value())
        w.assign(w - lr * g)
        return {"loss": value, "grad": [g]}
    return step, w


def batch(seed):
    rng = np.random.default_rng(seed)
    return {"x": rng.standard_normal((8, 3)).astype(np.float32),
            "y": rng.standard_normal((8, 2)).astype(np.float32)}


def test_loaded_step_matches_and_updates_its_own_variables(tmp_path):
    step, w = make_step()
    concrete = step.get_concrete_function(batch(0), np.float32(0.1))
    tracec.save(concrete, tmp_path / "step")
    assert sorted(os.listdir(tmp_path / "step")) == \
        ["data.npz", "module.mlir", "signature.json"]
    loaded = tracec.load(tmp_path / "step")
    assert [v.name for v in loaded.variables] == ["w"]
    for seed in range(3):
        want = step(batch(seed), np.float32(0.1))
        got = loaded(batch(seed), np.float32(0.1))
        assert sorted(got) == ["grad", "loss"] and len(got["grad"]) == 1
        np.testing.assert_allclose(got["loss"], want["loss"], rtol=1e-6)
        np.testing.assert_allclose(got["grad"][0], want["grad"][0],
                                   rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose(loaded.variables[0].numpy(), w.numpy(),
                                   rtol=1e-6)


def test_loads_in_a_process_without_the_python_code(tmp_path):
    step, w = make_step()
    tracec.save(step.get_concrete_function(batch(0), np.float32(0.1)),
                tmp_path / "step")
    want = step(batch(1), np.float32(0.1))["loss"]
    code = ("import sys, numpy as np, tracec; f = tracec.load(sys.argv[1]); "
            "rng = np.random.default_rng(1); "
            "b = {'x': rng.standard_normal((8, 3)).astype(np.float32), "
            "'y': rng.standard_normal((8, 2)).astype(np.float32)}; "
            "print(repr(float(f(b, np.float32(0.1))['loss'])))")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "step")],
                         check=True, capture_output=True, text=True)
    assert float(out.stdout) == pytest.approx(float(want), rel=1e-6)


def test_save_errors(tmp_path):
    step, _ = make_step()
    with pytest.raises(TypeError, match="ConcreteFunction"):
        tracec.save(step, tmp_path / "x")
    static = tracec.function(lambda x, n: x * n)
    with pytest.raises(ValueError, match="static"):
        tracec.save(static.get_concrete_function(np.ones(2, np.float32), 3),
                    tmp_path / "x")
    Pair = namedtuple("Pair", "a b")
    pair = tracec.function(lambda p: p.a + p.b)
    with pytest.raises(ValueError, match="Pair"):
        tracec.save(pair.get_concrete_function(
            Pair(np.ones(2, np.float32), np.ones(2, np.float32))),
            tmp_path / "x")


def test_load_errors(tmp_path):
    f = tracec.function(lambda x: x * 2)
    tracec.save(f.get_concrete_function(np.ones(2, np.float32)),
                tmp_path / "f")
    with pytest.raises(FileNotFoundError):
        tracec.load(tmp_path / "missing")
    signature = tmp_path / "f" / "signature.json"
    good = signature.read_text()
    signature.write_text(good[:40])
    with pytest.raises(ValueError, match="not JSON"):
        tracec.load(tmp_path / "f")
    signature.write_text(json.dumps(dict(json.loads(good), format=99)))
    with pytest.raises(ValueError, match="format 1"):
        tracec.load(tmp_path / "f")
    signature.write_text(json.dumps({"format": 1, "entry": "f"}))
    with pytest.raises(ValueError, match="lacks arguments, inputs, outputs"):
        tracec.load(tmp_path / "f")
    signature.write_text(good)
    (tmp_path / "f" / "module.mlir").write_text("func.func @oops(")
    with pytest.raises(ValueError, match=r"module.mlir:1:\d+: error"):
        tracec.load(tmp_path / "f")

