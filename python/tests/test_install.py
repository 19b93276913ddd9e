"""`cmake --install` puts the package where /usr/bin/python3 finds it
(<prefix>/lib/python3/dist-packages): imported from there, without the
build tree on the path, it traces, compiles and runs."""
import os
import re
import subprocess
import sys

import pytest

import tracec

BUILD = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(tracec.__file__))))


@pytest.mark.skipif(not os.path.exists(os.path.join(BUILD, "CMakeCache.txt")),
                    reason="tracec is not imported from a build tree")
def test_installed_package_imports_and_runs(tmp_path):
    subprocess.run(["cmake", "--install", BUILD, "--prefix", str(tmp_path)],
                   check=True, capture_output=True)
    site = tmp_path / "lib" / "python3" / "dist-packages"
    assert (site / "tracec" / "__init__.py").is_file()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import numpy as np, "
            "tracec; assert tracec.__file__.startswith(sys.argv[1]); "
            "f = tracec.function(lambda x: tracec.numpy.sum(x * x)); "
            "print(float(f(np.arange(4, dtype=np.float32))))")
    out = subprocess.run([sys.executable, "-c", code, str(site)], env=env,
                         check=True, capture_output=True, text=True,
                         cwd=str(tmp_path))
    assert out.stdout.strip() == "14.0"


@pytest.mark.skipif(not os.path.exists(os.path.join(BUILD, "CMakeCache.txt")),
                    reason="tracec is not imported from a build tree")
def test_version_is_the_tools_version():
    assert re.fullmatch(r"\d+\.\d+\.\d+", tracec.__version__)
    out = subprocess.run([os.path.join(BUILD, "bin", "tracec-opt"),
                          "--version"], check=True, capture_output=True,
                         text=True).stdout
    assert out.splitlines()[0] == f"tracec-opt (tracec) {tracec.__version__}"
