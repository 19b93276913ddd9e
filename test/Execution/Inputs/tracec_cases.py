"""Runs functions of a module with tracec-run and compares their first
result with NumPy's. Shared by the check_*.py scripts of this folder.

Each case is NAME -> (inputs, expected): the function @NAME is run on the
inputs (saved as .npy files) and "ok NAME" or "FAIL NAME: why" is printed.
"""
import os
import subprocess

import numpy as np


def run_cases(module, work, cases, rtol, atol):
    for name, (inputs, expected) in cases.items():
        args = []
        for i, value in enumerate(inputs):
            path = f"{work}/{name}_{i}.npy"
            np.save(path, value)
            args += ["--input", f"a{i}=@{path}"]
        # TRACEC_RUN_FLAGS (e.g. --target=cuda) runs the cases elsewhere.
        flags = os.environ.get("TRACEC_RUN_FLAGS", "").split()
        run = subprocess.run(["tracec-run", module, "--entry", name, *args,
                              *flags, "--output-dir", work],
                             capture_output=True, text=True)
        if run.returncode != 0:
            print(f"FAIL {name}: {run.stderr.strip()}")
            continue
        got = np.load(f"{work}/{name}_result0.npy")
        expected = np.asarray(expected)
        if got.shape != expected.shape:
            ok = False
        elif expected.dtype.kind == "f" and got.dtype.kind == "f":
            ok = np.allclose(got, expected, rtol=rtol, atol=atol)
        else:
            ok = np.array_equal(got, expected)
        print(f"ok {name}" if ok else
              f"FAIL {name}: got {got.tolist()}, expected {expected.tolist()}")
