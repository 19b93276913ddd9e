"""tracec.Checkpoint: a model's variables and Adam's slots saved and
restored; training restored in a fresh process continues bit for bit."""
import os
import subprocess
import sys

import numpy as np
import pytest

import tracec

# Written to a file and run twice: in this process (imported) and, after a
# restore, in a fresh one.
PROGRAM = '''
import numpy as np
import tracec
import tracec.numpy as tnp


class MLP(tracec.Module):
    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(0)
        self.layers = [
            {"w": tracec.Variable(rng.normal(size=(4, 8)).astype(np.float32)),
             "b": tracec.Variable(np.zeros(8, np.float32))},
            {"w": tracec.Variable(rng.normal(size=(8, 1)).astype(np.float32)),
             "b": tracec.Variable(np.zeros(1, np.float32))}]
        self.scale = tracec.Variable(np.float32(1.0), trainable=False)

    def __call__(self, x):
        h = tnp.tanh(x @ self.layers[0]["w"] + self.layers[0]["b"])
        return (h @ self.layers[1]["w"] + self.layers[1]["b"]) * self.scale


def build():
    model, opt = MLP(), tracec.Adam(0.05)

    @tracec.function
    def step(x, y):
        with tracec.GradientTape() as tape:
            loss = tnp.mean((model(x) - y) ** 2)
        variables = model.trainable_variables
        opt.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return loss
    return model, opt, step


def batch(i):
    rng = np.random.default_rng(100 + i)
    x = rng.normal(size=(16, 4)).astype(np.float32)
    return x, np.sin(x.sum(1, keepdims=True))
'''


@pytest.fixture
def program(tmp_path, monkeypatch):
    path = tmp_path / "ckpt_program.py"
    path.write_text(PROGRAM)
    monkeypatch.syspath_prepend(str(tmp_path))
    import ckpt_program
    yield ckpt_program
    sys.modules.pop("ckpt_program", None)


def test_restore_continues_training_bit_for_bit(program, tmp_path):
    model, opt, step = program.build()
    losses = [float(step(*program.batch(i))) for i in range(6)]
    final = [v.numpy() for v in model.variables]

    model, opt, step = program.build()
    for i in range(3):
        step(*program.batch(i))
    saved = tracec.Checkpoint(model=model, optimizer=opt).save(
        str(tmp_path / "run" / "ckpt.npz"))
    keys = sorted(np.load(saved).files)
    assert "model/layers/0/w" in keys and "optimizer/iterations" in keys
    assert "optimizer/slots/model/layers/1/b/v" in keys

    code = (
        "import sys, numpy as np, tracec, ckpt_program as p\n"
        "model, opt, step = p.build()\n"
        "tracec.Checkpoint(model=model, optimizer=opt).restore(sys.argv[1])\n"
        "losses = [float(step(*p.batch(i))) for i in range(3, 6)]\n"
        "np.savez(sys.argv[2], losses=np.array(losses), "
        "*[v.numpy() for v in model.variables])\n")
    env = dict(os.environ,
               PYTHONPATH=os.pathsep.join([str(tmp_path)] + sys.path))
    subprocess.run([sys.executable, "-c", code, saved,
                    str(tmp_path / "out.npz")], check=True, env=env)
    out = np.load(tmp_path / "out.npz")
    assert out["losses"].tolist() == losses[3:]
    for i, want in enumerate(final):
        np.testing.assert_array_equal(out[f"arr_{i}"], want)


def test_restore_in_process_and_errors(program, tmp_path):
    model, opt, step = program.build()
    step(*program.batch(0))
    path = str(tmp_path / "c.npz")
    tracec.Checkpoint(model=model, optimizer=opt).save(path)
    before = [v.numpy() for v in model.variables]
    step(*program.batch(1))
    tracec.Checkpoint(model=model, optimizer=opt).restore(path)
    for v, want in zip(model.variables, before):
        np.testing.assert_array_equal(v.numpy(), want)

    # Another model's structure: named differences.
    other = tracec.Module()
    other.w = tracec.Variable(np.zeros((4, 8), np.float32))
    with pytest.raises(ValueError, match="not in the file: model/w; not in "
                       "the objects: model/layers/0/b"):
        tracec.Checkpoint(model=other).restore(path)
    # A model without the optimizer's slots in the file is refused too.
    with pytest.raises(ValueError, match="not in the objects: optimizer"):
        tracec.Checkpoint(model=program.build()[0]).restore(path)
    # Another shape.
    model2, _, _ = program.build()
    model2.layers[0]["w"] = tracec.Variable(np.zeros((4, 9), np.float32))
    with pytest.raises(ValueError, match=r"model/layers/0/w is float32\[4, "
                       r"8\] in the file and float32\[4, 9\]"):
        tracec.Checkpoint(model=model2).restore(
            tracec.Checkpoint(model=model).save(str(tmp_path / "m.npz")))
    # Corrupt and foreign files.
    (tmp_path / "bad.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="bad.npz: not a readable tracec "
                       "checkpoint"):
        tracec.Checkpoint(model=model).restore(str(tmp_path / "bad.npz"))
    np.savez(tmp_path / "foreign.npz", w=np.zeros(3))
    with pytest.raises(ValueError, match="not a tracec checkpoint"):
        tracec.Checkpoint(model=model).restore(str(tmp_path / "foreign.npz"))
    with pytest.raises(ValueError, match="at least one object"):
        tracec.Checkpoint()


def test_slots_of_variables_outside_the_checkpoint_are_an_error(tmp_path):
    v = tracec.Variable(np.ones(2, np.float32))
    opt = tracec.Adam()
    opt.apply_gradients([(np.ones(2, np.float32), v)])
    with pytest.raises(ValueError, match="that none of the checkpoint's "
                       "objects holds"):
        tracec.Checkpoint(optimizer=opt).save(str(tmp_path / "x.npz"))
