"""ConcreteFunction.export: a function traced and trained in Python, then
compiled ahead of time into an object, its header (the Python names) and
the variables' values as C data; a C program linking them computes what
Python computes from the same values."""
import os
import shutil
import subprocess

import numpy as np
import pytest

import tracec
import tracec.numpy as tnp

CC = shutil.which("/usr/lib/llvm-22/bin/clang") or shutil.which("cc")

MAIN = r"""
#include <stdio.h>
#include "model.h"
#include "model_data.h"

int main(void) {
  float x[12], lr = 0.1f, loss;
  for (int i = 0; i < 12; ++i)
    x[i] = -1.0f + 2.0f * i / 11.0f;
  for (int step = 0; step < 2; ++step) {
    if (model_train(x, &lr, model_dense_kernel, model_captured_0, &loss))
      return 1;
    printf("%.9g\n", loss);
  }
  for (int i = 0; i < 6; ++i)
    printf("%.9g\n", model_dense_kernel[i]);
  return 0;
}
"""

# The same steps through the header's C++ class, which owns the buffers:
# the variable starts from the exported value.
MAIN_CPP = r"""
#include <cstdio>
#include <cstring>
#include "model.h"
#include "model_data.h"

int main() {
  Model model;
  std::memcpy(model.var_dense_kernel_data(), model_dense_kernel,
              sizeof model_dense_kernel);
  for (int i = 0; i < 12; ++i)
    model.train.arg_x_data()[i] = -1.0f + 2.0f * i / 11.0f;
  *model.train.arg_lr_data() = 0.1f;
  model.train.set_arg_captured_0_data(model_captured_0);
  for (int step = 0; step < 2; ++step) {
    if (model.train.Run())
      return 1;
    std::printf("%.9g\n", *model.train.result_result0_data());
  }
  for (int i = 0; i < 6; ++i)
    std::printf("%.9g\n", model.var_dense_kernel_data()[i]);
  return 0;
}
"""
CXX = shutil.which("/usr/lib/llvm-22/bin/clang++") or shutil.which("c++")


@pytest.mark.skipif(CC is None, reason="no C compiler")
def test_exported_step_runs_from_c_as_in_python(tmp_path):
    w = tracec.Variable(np.arange(6, dtype=np.float32).reshape(3, 2) / 7,
                        name="dense/kernel")
    bias = np.array([0.5, -1], np.float32)

    @tracec.function
    def train(x, lr):
        loss, g = tracec.value_and_grad(
            lambda w: tnp.sum(tnp.tanh(x @ w + bias)))(w.read_value())
        w.assign(w - lr * g)
        return loss

    x = np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3)
    concrete = train.get_concrete_function(x, np.float32(0.1))
    written = concrete.export(tmp_path / "model")
    assert [os.path.basename(p) for p in written] == \
        ["model.o", "model.h", "model_data.h", "model_data.c"]
    header = (tmp_path / "model.h").read_text()
    assert "int model_train(const float *x, const float *lr, float " \
        "*dense_kernel, const float *captured_0, float *result0);" in header

    # Python, from the values exported.
    losses = [train(x, np.float32(0.1)) for _ in range(2)]
    (tmp_path / "main.c").write_text(MAIN)
    subprocess.run([CC, "main.c", "model.o", "model_data.c", "-lm", "-o",
                    "main"], cwd=tmp_path, check=True)
    out = subprocess.run([str(tmp_path / "main")], check=True,
                         capture_output=True, text=True).stdout.split()
    got = np.array(out, np.float32)
    np.testing.assert_allclose(got[:2], losses, rtol=1e-6)
    np.testing.assert_allclose(got[2:], w.numpy().ravel(), rtol=1e-6)

    # The object is portable: its x86-64-v3 code (no AVX-512), which it
    # runs where the CPU has no more, gives the same numbers.
    capped = subprocess.run([str(tmp_path / "main")], check=True,
                            capture_output=True, text=True,
                            env={**os.environ, "TRACEC_MAX_CPU": "x86-64-v3"})
    np.testing.assert_allclose(np.array(capped.stdout.split(), np.float32),
                               got, rtol=1e-6)
    assert "const char *model_target_cpu(void);" in header

    if CXX:
        (tmp_path / "main_cpp.cpp").write_text(MAIN_CPP)
        subprocess.run([CC, "-c", "model_data.c", "-o", "model_data.o"],
                       cwd=tmp_path, check=True)
        subprocess.run([CXX, "-std=c++17", "main_cpp.cpp", "model.o",
                        "model_data.o", "-lm", "-o", "main_cpp"],
                       cwd=tmp_path, check=True)
        out = subprocess.run([str(tmp_path / "main_cpp")], check=True,
                             capture_output=True, text=True).stdout.split()
        np.testing.assert_allclose(np.array(out, np.float32), got, rtol=1e-6)


def test_export_errors(tmp_path):
    f = tracec.function(lambda x: x * 2)
    concrete = f.get_concrete_function(np.ones(3, np.float32))
    with pytest.raises(ValueError, match="target-cpu|CPU|cpu"):
        concrete.export(tmp_path / "m", target_cpu="no-such-cpu")
    with pytest.raises(OSError):
        concrete.export(tmp_path / "missing" / "m")
