"""`cmake --install` into a fresh prefix: every tool runs from there, and
the package, in the directory of /usr/bin/python3's own path under the
prefix (lib/python3.11/dist-packages under /usr/local), imports and runs
without the build tree on the path, from any directory."""
import os
import re
import shutil
import subprocess
import sys

import pytest

import tracec

BUILD = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(tracec.__file__))))
TOOLS = ("tracec", "tracec-opt", "tracec-run", "tracec-translate")

pytestmark = pytest.mark.skipif(
    not os.path.exists(os.path.join(BUILD, "CMakeCache.txt")),
    reason="tracec is not imported from a build tree")


def cache_value(name):
    with open(os.path.join(BUILD, "CMakeCache.txt")) as cache:
        for line in cache:
            if line.startswith(name + ":"):
                return line.split("=", 1)[1].strip()
    raise KeyError(name)


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    prefix = tmp_path_factory.mktemp("prefix")
    subprocess.run(["cmake", "--install", BUILD, "--prefix", str(prefix)],
                   check=True, capture_output=True)
    return prefix


def outside_env():
    return {k: v for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "PATH")} | {"PATH": "/usr/bin:/bin"}


def test_installed_package_imports_and_runs(prefix):
    site = prefix / cache_value("TRACEC_PYTHON_INSTALL_DIR")
    assert (site / "tracec" / "__init__.py").is_file()
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import numpy as np, "
            "tracec; assert tracec.__file__.startswith(sys.argv[1]); "
            "f = tracec.function(lambda x: tracec.numpy.sum(x * x)); "
            "print(float(f(np.arange(4, dtype=np.float32))))")
    out = subprocess.run([sys.executable, "-c", code, str(site)],
                         env=outside_env(), check=True, capture_output=True,
                         text=True, cwd=str(prefix))
    assert out.stdout.strip() == "14.0"


def test_default_prefix_installs_where_python_looks():
    """Under /usr/local (or /usr), the package lands in a directory of this
    interpreter's sys.path: `import tracec` needs no PYTHONPATH."""
    default = cache_value("CMAKE_INSTALL_PREFIX")
    if default not in ("/usr/local", "/usr"):
        pytest.skip(f"configured for the prefix {default}")
    site = os.path.join(default, cache_value("TRACEC_PYTHON_INSTALL_DIR"))
    assert site in sys.path


def test_every_tool_runs_from_the_prefix(prefix, tmp_path):
    for tool in TOOLS:
        out = subprocess.run([str(prefix / "bin" / tool), "--version"],
                             env=outside_env(), check=True,
                             capture_output=True, text=True).stdout
        assert out.startswith(tool), out
    module = tmp_path / "square.mlir"
    module.write_text(
        "func.func @square(%x: tensor<3xf32>) -> tensor<3xf32> {\n"
        "  %y = trace.mul %x, %x : (tensor<3xf32>, tensor<3xf32>) -> "
        "tensor<3xf32>\n  return %y : tensor<3xf32>\n}\n")
    out = subprocess.run(
        [str(prefix / "bin" / "tracec-run"), str(module), "--entry",
         "square", "--input=x=[1,2,3]"], env=outside_env(), check=True,
        capture_output=True, text=True, cwd=str(tmp_path)).stdout
    assert "[1. 4. 9.]" in out, out
    subprocess.run([str(prefix / "bin" / "tracec-opt"), str(module),
                    "--tracec-cpu-pipeline", "-o", os.devnull],
                   env=outside_env(), check=True, cwd=str(tmp_path))
    subprocess.run([str(prefix / "bin" / "tracec"), str(module), "--entry",
                    "square", "-o", str(tmp_path / "square.o")],
                   env=outside_env(),
                   check=True, cwd=str(tmp_path))
    assert (tmp_path / "square.o").stat().st_size > 0


def test_version_is_the_tools_version():
    assert re.fullmatch(r"\d+\.\d+\.\d+", tracec.__version__)
    out = subprocess.run([os.path.join(BUILD, "bin", "tracec-opt"),
                          "--version"], check=True, capture_output=True,
                         text=True).stdout
    assert out.splitlines()[0] == f"tracec-opt (tracec) {tracec.__version__}"


@pytest.mark.parametrize("shared", [False, True])
def test_cpp_programs_build_against_the_prefix(prefix, tmp_path, shared):
    """examples/cpp, a project of its own: the JIT example (tracec::
    TracecRuntime) and the tracer example (tracec::TracecFrontend), or both
    on libtracec.so (tracec::TracecShared), found by find_package in the
    prefix, built outside the tree; they print what the same programs built
    in the tree print."""
    source = os.path.join(cache_value("CMAKE_HOME_DIRECTORY"), "examples",
                          "cpp")
    build = tmp_path / "build"
    # The compiler the build picks (CMakeLists.txt), else CMake's default.
    clang = "/usr/lib/llvm-22/bin/clang++"
    compiler = [f"-DCMAKE_CXX_COMPILER={clang}"] if os.path.exists(clang) \
        else []
    subprocess.run(["cmake", "-S", source, "-B", str(build), "-G", "Ninja",
                    *compiler, f"-Dtracec_DIR={prefix}/lib/cmake/tracec",
                    f"-DTRACEC_EXAMPLES_SHARED={'ON' if shared else 'OFF'}"],
                   check=True, capture_output=True)
    subprocess.run(["cmake", "--build", str(build)], check=True,
                   capture_output=True)
    for program in ("train_mlp", "train_mlp_traced"):
        args = ["--optimizer", "sgd", "--epochs", "3"]
        installed = subprocess.run([str(build / program), *args],
                                   env=outside_env(), check=True,
                                   capture_output=True, text=True,
                                   cwd=str(tmp_path)).stdout
        in_tree = subprocess.run([os.path.join(BUILD, "bin", program), *args],
                                 check=True, capture_output=True,
                                 text=True).stdout
        assert "final accuracy" in installed
        assert installed == in_tree
    if shared:
        needed = subprocess.run(["readelf", "-d", str(build / "train_mlp")],
                                check=True, capture_output=True,
                                text=True).stdout
        assert "libtracec.so.0" in needed, needed
        # The library says which version it is, against its headers'.
        (tmp_path / "version.c").write_text(
            '#include <stdio.h>\n#include "tracec/Version.h"\n'
            'int main(void) { printf("%s %s\\n", TRACEC_VERSION, '
            'tracec_shared_library_version()); return 0; }\n')
        subprocess.run(["cc", "version.c", f"-I{prefix}/include",
                        f"-L{prefix}/lib", "-ltracec",
                        f"-Wl,-rpath,{prefix}/lib", "-o", "version"],
                       check=True, cwd=str(tmp_path))
        out = subprocess.run([str(tmp_path / "version")], check=True,
                             capture_output=True, text=True).stdout.split()
        assert out == [tracec.__version__] * 2


def test_pip_installs_and_uninstalls_the_package(tmp_path):
    """`pip install .` (pyproject.toml, the backend python/packaging/
    tracec_wheel.py) with no package index, into a venv that sees Debian's
    NumPy, reusing this build (--config-settings build-dir); `pip uninstall` removes it."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages",
                    "--without-pip", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    subprocess.run([python, "-m", "pip", "install", "--no-index",
                    "--config-settings", f"build-dir={BUILD}",
                    cache_value("CMAKE_HOME_DIRECTORY")],
                   env=outside_env(), check=True, capture_output=True,
                   cwd=str(tmp_path))
    code = ("import numpy as np, tracec; print(tracec.__file__); "
            "print(tracec.__version__); f = tracec.function(lambda x: "
            "tracec.numpy.sum(x * x)); print(f(np.arange(4.0)))")
    out = subprocess.run([python, "-c", code], env=outside_env(),
                         check=True, capture_output=True, text=True,
                         cwd=str(tmp_path)).stdout.split()
    assert out[0].startswith(str(venv)), out
    assert out[1:] == [tracec.__version__, "14.0"]
    subprocess.run([python, "-m", "pip", "uninstall", "-y", "tracec"],
                   env=outside_env(), check=True, capture_output=True)
    gone = subprocess.run([python, "-c", "import tracec"], env=outside_env(),
                          capture_output=True, text=True, cwd=str(tmp_path))
    assert "No module named 'tracec'" in gone.stderr
    assert not list((venv / "lib").glob("python3*/site-packages/tracec*"))


def test_debian_package(tmp_path):
    """`cpack -G DEB` packs what `cmake --install` installs, with the
    Debian packages its binaries load as dependencies; its tools run and
    its Python package imports from the unpacked tree."""
    subprocess.run(["cpack", "-G", "DEB", "-B", str(tmp_path / "out"),
                    "--config", os.path.join(BUILD, "CPackConfig.cmake")],
                   check=True, capture_output=True, cwd=str(tmp_path))
    deb, = (tmp_path / "out").glob("tracec_*.deb")
    info = subprocess.run(["dpkg-deb", "--field", str(deb), "Version",
                           "Depends"], check=True, capture_output=True,
                          text=True).stdout
    assert f"Version: {tracec.__version__}" in info
    for package in ("libllvm22", "libmlir-22", "libomp-22-dev",
                    "libprotobuf32", "python3-numpy"):
        assert package in info, info
    root = tmp_path / "root"
    subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    prefix = root / cache_value("CMAKE_INSTALL_PREFIX").lstrip("/")
    for tool in TOOLS:
        out = subprocess.run([str(prefix / "bin" / tool), "--version"],
                             env=outside_env(), check=True,
                             capture_output=True, text=True).stdout
        assert out.startswith(tool), out
    assert (prefix / "lib" / "cmake" / "tracec" / "tracecConfig.cmake").is_file()
    site = prefix / cache_value("TRACEC_PYTHON_INSTALL_DIR")
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import tracec; "
            "assert tracec.__file__.startswith(sys.argv[1]); "
            "print(tracec.__version__)")
    out = subprocess.run([sys.executable, "-c", code, str(site)],
                         env=outside_env(), check=True, capture_output=True,
                         text=True, cwd=str(tmp_path))
    assert out.stdout.strip() == tracec.__version__


DISTRIBUTED_MAIN = r"""
#include "tracec/Distributed/Distributed.h"
#include "tracec/Frontend/Frontend.h"
#include <cstdio>

using namespace tracec;

int main() {
  if (llvm::Error error = distributed::init()) {
    llvm::errs() << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  int rank = *distributed::rank(), size = *distributed::size();
  ConcreteFunction f = trace("sum", {{DType::f64, {2}, false}},
                             [](llvm::ArrayRef<Value> a) {
                               return std::vector<Value>{all_reduce(a[0])};
                             });
  if (llvm::Error error = f.compile()) {
    llvm::errs() << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  Tensor x = *Tensor::fromVector<double>({double(rank), 1.0}, {2});
  std::vector<double> sum = (*f({x}))[0].toVector<double>();
  std::printf("rank %d of %d: %g %g\n", rank, size, sum[0], sum[1]);
}
"""


@pytest.mark.skipif(shutil.which("mpirun") is None,
                    reason="OpenMPI is not installed (scripts/install-deps)")
def test_distributed_program_builds_against_the_prefix(prefix, tmp_path):
    """tracec::TracecDistributed, found by find_package in the prefix (the
    config file finds MPI again): a program that all-reduces in a compiled
    function runs under mpirun -np 2."""
    (tmp_path / "main.cpp").write_text(DISTRIBUTED_MAIN)
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.20)\nproject(d CXX)\n"
        "set(CMAKE_CXX_STANDARD 17)\n"
        "find_package(tracec REQUIRED CONFIG)\n"
        "if(NOT tracec_DISTRIBUTED_FOUND)\n"
        "  message(FATAL_ERROR \"no tracec::TracecDistributed\")\n"
        "endif()\n"
        "add_executable(d main.cpp)\n"
        "target_link_libraries(d PRIVATE tracec::TracecDistributed)\n")
    build = tmp_path / "build"
    clang = "/usr/lib/llvm-22/bin/clang++"
    compiler = [f"-DCMAKE_CXX_COMPILER={clang}"] if os.path.exists(clang) \
        else []
    configured = subprocess.run(
        ["cmake", "-S", str(tmp_path), "-B", str(build), "-G", "Ninja",
         *compiler, f"-Dtracec_DIR={prefix}/lib/cmake/tracec"],
        capture_output=True, text=True)
    assert configured.returncode == 0, configured.stdout + configured.stderr
    built = subprocess.run(["cmake", "--build", str(build)],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + built.stderr
    env = outside_env() | {
        "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
        "OMPI_MCA_btl": "self,vader", "OMPI_MCA_rmaps_base_oversubscribe": "1"}
    out = subprocess.run(["mpirun", "-np", "2", str(build / "d")], env=env,
                         capture_output=True, text=True, cwd=str(tmp_path))
    assert out.returncode == 0, out.stdout + out.stderr
    assert sorted(out.stdout.splitlines()) == [
        "rank 0 of 2: 1 2", "rank 1 of 2: 1 2"]
