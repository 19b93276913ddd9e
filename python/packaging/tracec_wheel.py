"""The PEP 517 build backend of `pip install .` (pyproject.toml): CMake
builds the extension, `cmake --install --component python` stages the
package as `cmake --install` would install it, and the wheel is zipped
here with the standard library alone, so that pip's isolated build needs
nothing from PyPI.

Config settings (`pip install . -C key=value`):
  build-dir   the CMake build directory (default build/wheel); an existing,
              configured one (`--config-settings build-dir=build`) is reused as it is
  jobs        parallel build jobs (default: CMake's)

A fresh build directory builds every library the extension links (most of
the tree: about as long as scripts/build).
"""
import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import tomllib
import zipfile

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def _project():
    with open(os.path.join(SOURCE, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    with open(os.path.join(SOURCE, "CMakeLists.txt")) as f:
        version = re.search(r"project\(tracec VERSION (\S+)", f.read())[1]
    return project, version


def _metadata(project, version):
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}",
             f"Version: {version}", f"Summary: {project['description']}",
             f"Requires-Python: {project['requires-python']}"]
    lines += [f"Requires-Dist: {d}" for d in project["dependencies"]]
    return "\n".join(lines) + "\n"


def _tag():
    """cp311-cp311-linux_x86_64: the extension is for this interpreter."""
    python = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{python}-{python}{sys.abiflags}-{platform}"


def _cmake(*args):
    subprocess.run(["cmake", *args], check=True, stdout=sys.stderr)


def _stage_package(config_settings, staging):
    """Builds the extension and installs the python component under
    `staging`; returns the directory holding the `tracec` package."""
    settings = config_settings or {}
    build = os.path.join(SOURCE, settings.get("build-dir", "build/wheel"))
    if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        _cmake("-S", SOURCE, "-B", build, *generator,
               "-DCMAKE_BUILD_TYPE=Release", "-DTRACEC_FUZZERS=OFF",
               f"-DPython_EXECUTABLE={sys.executable}")
    jobs = ["--parallel", settings["jobs"]] if "jobs" in settings else []
    _cmake("--build", build, "--target", "_tracec", *jobs)
    _cmake("--install", build, "--component", "python", "--prefix", staging)
    for root, dirs, files in os.walk(staging):
        if os.path.basename(root) == "tracec" and "__init__.py" in files:
            return os.path.dirname(root)
    raise RuntimeError(f"cmake --install put no tracec package in {staging}")


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest())
    return f"{name},sha256={digest.rstrip(b'=').decode()},{len(data)}"


def build_wheel(wheel_directory, config_settings=None,
                metadata_directory=None):
    project, version = _project()
    name = f"{project['name']}-{version}"
    wheel_name = f"{name}-{_tag()}.whl"
    info = f"{name}.dist-info"
    with tempfile.TemporaryDirectory() as staging:
        site = _stage_package(config_settings, staging)
        files = {}
        for root, _, names in os.walk(os.path.join(site, "tracec")):
            for file in sorted(names):
                path = os.path.join(root, file)
                with open(path, "rb") as f:
                    files[os.path.relpath(path, site)] = f.read()
        files[f"{info}/METADATA"] = _metadata(project, version).encode()
        files[f"{info}/WHEEL"] = (
            "Wheel-Version: 1.0\nGenerator: tracec_wheel\n"
            f"Root-Is-Purelib: false\nTag: {_tag()}\n").encode()
        record = [_record_line(n, d) for n, d in files.items()]
        record.append(f"{info}/RECORD,,")
        files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
        with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w",
                             zipfile.ZIP_DEFLATED) as wheel:
            for file, data in files.items():
                entry = zipfile.ZipInfo(file, (2020, 1, 1, 0, 0, 0))
                # The extension executable, the rest readable.
                mode = 0o755 if file.endswith(".so") else 0o644
                entry.external_attr = mode << 16
                entry.compress_type = zipfile.ZIP_DEFLATED
                wheel.writestr(entry, data)
    return wheel_name


def build_sdist(sdist_directory, config_settings=None):
    """The files git tracks, as tracec-<version>.tar.gz."""
    project, version = _project()
    name = f"{project['name']}-{version}"
    tracked = subprocess.run(["git", "-C", SOURCE, "ls-files", "-z"],
                             check=True, capture_output=True).stdout
    with tarfile.open(os.path.join(sdist_directory, f"{name}.tar.gz"),
                      "w:gz") as sdist:
        for file in tracked.decode().split("\0"):
            if file:
                sdist.add(os.path.join(SOURCE, file), f"{name}/{file}")
    return f"{name}.tar.gz"
