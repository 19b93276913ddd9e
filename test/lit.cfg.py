# lit configuration for tracec's FileCheck suites.
import os

import lit.formats

config.name = "tracec"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test", ".td"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tracec_obj_root, "test")

# Our tools first, then LLVM's FileCheck, not, count.
config.environment["PATH"] = os.pathsep.join(
    [config.tracec_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")]
)

# Tests never write to the user's compile cache (~/.cache/tracec); those
# of the cache itself name a directory under %t.
config.environment["TRACEC_DISABLE_CACHE"] = "1"

# Independent references: NumPy (and PyTorch) under Debian's interpreter.
config.substitutions.append(("%python", "/usr/bin/python3"))
config.substitutions.append(("%tracec_version", config.tracec_version))
config.substitutions.append(("%tracec_obj_root", config.tracec_obj_root))
config.substitutions.append(("%tracec_src_root", config.tracec_src_root))
# MLIR's ODS sources (mlir/IR/OpBase.td), for tracec-tblgen's tests.
config.substitutions.append(
    ("%mlir_include",
     os.path.join(os.path.dirname(config.llvm_tools_dir), "include")))

# mlir-runner's support libraries (printMemref*), next to LLVM's tools.
llvm_lib_dir = os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")
config.substitutions.append(
    ("%mlir_runner_utils", os.path.join(llvm_lib_dir, "libmlir_runner_utils.so")))
config.substitutions.append(
    ("%mlir_c_runner_utils", os.path.join(llvm_lib_dir, "libmlir_c_runner_utils.so")))

# `REQUIRES: cuda`: tests that run kernels need a loadable CUDA driver; lit
# reports them UNSUPPORTED elsewhere.
try:
    import ctypes
    ctypes.CDLL("libcuda.so.1")
    config.available_features.add("cuda")
except OSError:
    lit_config.note("no CUDA driver (libcuda.so.1): GPU execution tests are unsupported")

# `REQUIRES: avx512`: the host has x86-64-v4's AVX-512 (the AOT CPU dispatch
# picks it).
try:
    with open("/proc/cpuinfo") as cpuinfo:
        flags = next((line.split(":", 1)[1].split() for line in cpuinfo
                      if line.startswith("flags")), [])
    if {"avx512f", "avx512dq", "avx512cd", "avx512bw", "avx512vl"} <= set(flags):
        config.available_features.add("avx512")
except OSError:
    pass

# What AOT objects link against: the C ABI (tracec_print_tensor) and the
# CUDA runtime shim; and the tests' fake driver.
config.substitutions.append(
    ("%tracec_abi",
     os.path.join(config.tracec_obj_root, "lib", "ABI", "libTracecABI.a")))
config.substitutions.append(
    ("%tracec_cuda_runtime",
     os.path.join(config.tracec_obj_root, "lib", "ABI", "Cuda", "libTracecCudaRuntime.a")))
# A build with sanitizers (scripts/sanitize): programs that link its
# instrumented libraries link the sanitizer runtime too (%sanitize_link), and
# `UNSUPPORTED: sanitizer` marks tests that cannot run under one (valgrind).
sanitize_link = ""
if config.tracec_sanitize:
    config.available_features.add("sanitizer")
    sanitize_link = "-fsanitize=%s -shared-libsan -Wl,-rpath,%s" % (
        config.tracec_sanitize, config.tracec_sanitizer_runtime_dir)
config.substitutions.append(("%sanitize_link", sanitize_link))
# AOT objects compiled with --threads call LLVM's OpenMP runtime.
config.substitutions.append(("%omp_lib", config.tracec_omp_library))
config.substitutions.append(
    ("%tracec_include", os.path.join(config.tracec_src_root, "include")))
config.substitutions.append(
    ("%fake_cuda_driver",
     os.path.join(config.tracec_obj_root, "lib", "libFakeCudaDriver.so")))
