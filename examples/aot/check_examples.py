#!/usr/bin/env python3
"""Builds examples/aot against the installed tracec package, runs the
examples and checks their numbers against the JIT (tracec-run) on the same
inputs; checks that the compiled model needs only libc and libm.

  check_examples.py --build-dir build [--cc clang --cxx clang++]

Steps: `cmake --install` the build into <build>/aot-examples/install,
configure and build examples/aot there as a separate project, run
train_mlp, predict_c and evaluate_dynamic (one object with a `?` batch at
batches 1, 7, 64 and 256, checked against NumPy here), then run
tracec-run on mlp.mlir with the inputs
of data.h: @predict and one @step at the initial weights (predict_c), and
@step repeated N times, each updating the variables in place, for the
training losses of train_mlp at steps 1 and N.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = 20


def run(cmd, **kwargs):
    result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {result.returncode}\n"
                 f"{result.stdout}{result.stderr}")
    return result.stdout


def example_inputs():
    """data.h's formulas (exact in float32)."""
    i = np.arange(32)
    x = (((i * 7) % 11 - 5) / 4.0).astype(np.float32).reshape(8, 4)
    labels = (np.arange(8) % 3).astype(np.int32)
    k = np.arange(64)
    w1 = (((k * 5) % 13 - 6) / 16.0).astype(np.float32).reshape(4, 16)
    k = np.arange(48)
    w2 = (((k * 3) % 7 - 3) / 8.0).astype(np.float32).reshape(16, 3)
    return dict(x=x, labels=labels, w1=w1, b1=np.zeros(16, np.float32),
                w2=w2, b2=np.zeros(3, np.float32))


def jit(tracec_run, entry, names, files, outdir, repeat=1):
    """Runs `entry` with tracec-run and returns its results (from .npy)."""
    cmd = [tracec_run, os.path.join(HERE, "mlp.mlir"), "--entry", entry,
           "--repeat", str(repeat), "--output-dir", outdir]
    cmd += [f"--input={n}=@{files[n]}" for n in names]
    run(cmd)
    results = []
    while os.path.exists(path := os.path.join(outdir, f"{entry}_result{len(results)}.npy")):
        results.append(np.load(path))
        os.remove(path)
    return results


def parse(output):
    """Lines "name v1 v2 ..." -> {name: [values]}; "loss i v" -> loss_i."""
    values = {}
    for line in output.splitlines():
        words = line.split()
        if words[0] == "loss":
            values[f"loss_{words[1]}"] = float(words[2])
        elif words[0] in ("probs", "classes"):
            values[words[0]] = np.array([float(w) for w in words[1:]])
    return values


def expect_close(what, actual, expected, rtol=1e-5, atol=1e-6, what_peer="JIT"):
    actual, expected = np.asarray(actual, np.float64), np.asarray(expected, np.float64).ravel()
    if actual.shape != expected.shape or not np.allclose(actual, expected, rtol=rtol, atol=atol):
        sys.exit(f"FAIL: {what}: AOT {actual} vs {what_peer} {expected}")
    print(f"ok: {what} matches {'the ' if what_peer == 'JIT' else ''}{what_peer}")


def check_dynamic(evaluate_dynamic):
    """evaluate_dynamic runs one object at batches 1, 7, 64 and 256 and
    checks itself against its C reference; here its losses are checked
    against NumPy's, and a call whose x and labels disagree must fail with
    the shape function's message."""
    losses = {}
    for line in run([evaluate_dynamic]).splitlines():
        words = line.split()
        if words[0] == "batch" and words[4] == "ok":
            losses[int(words[1].rstrip(":"))] = float(words[3].rstrip(","))
    if sorted(losses) != [1, 7, 64, 256]:
        sys.exit(f"FAIL: evaluate_dynamic did not check every batch: {losses}")
    w1 = (((np.arange(64) * 5) % 13 - 6) / 16.0).reshape(4, 16)
    w2 = (((np.arange(48) * 3) % 7 - 3) / 8.0).reshape(16, 3)
    b1 = (np.arange(16) % 5 - 2) / 8.0
    b2 = (np.arange(3) - 1) / 4.0
    for n, loss in losses.items():
        x = (((np.arange(4 * n) * 7) % 11 - 5) / 4.0).reshape(n, 4)
        labels = np.arange(n) % 3
        logits = np.maximum(x @ w1 + b1, 0) @ w2 + b2
        logp = logits - logits.max(1, keepdims=True)
        logp -= np.log(np.exp(logp).sum(1, keepdims=True))
        expect_close(f"evaluate_dynamic loss at batch {n}", [loss],
                     -logp[np.arange(n), labels].mean(), what_peer="NumPy")
    result = subprocess.run([evaluate_dynamic, "7", "6"], capture_output=True, text=True)
    message = "@evaluate: argument 0 (x) dim 0 is 7 but argument 1 (labels) dim 0 is 6"
    if result.returncode != 1 or message not in result.stderr:
        sys.exit(f"FAIL: evaluate_dynamic 7 6 exited {result.returncode}: {result.stderr}")
    print("ok: evaluate_dynamic 7 6 fails with the shape function's message")


def check_libc_only(build, artifacts, sanitized):
    """Every undefined symbol of the model's object is defined by libc/libm,
    and the C program loads no other shared library (but the sanitizer
    runtime and what it needs, in a build with sanitizers)."""
    libs = [l for l in run(["ldd", artifacts["predict_c"]]).split("\n") if l.strip()]
    allowed = r"linux-vdso|ld-linux|libc\.so|libm\.so"
    if sanitized:
        allowed += r"|libclang_rt\.|libstdc\+\+\.so|libgcc_s\.so"
    extra = [l for l in libs if not re.search(allowed, l)]
    if extra:
        sys.exit("FAIL: predict_c loads more than libc/libm:\n" + "\n".join(extra))
    undefined = []
    for obj in artifacts["objects"]:
        undefined += run(["nm", "-u", obj]).split()
    undefined = sorted({s for s in undefined if s != "U"})
    provided = set()
    for lib in ("libc.so.6", "libm.so.6"):
        path = next((l.split("=>")[1].split()[0] for l in libs if lib in l), None)
        if path:
            provided |= {line.split()[-1].split("@")[0]
                         for line in run(["nm", "-D", "--defined-only", path]).splitlines()
                         if line.strip()}
    missing = [s for s in undefined if s not in provided]
    if missing:
        sys.exit(f"FAIL: the model objects need symbols outside libc/libm: {missing}")
    print(f"ok: the model objects need only libc/libm ({', '.join(undefined)})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--cc", default="cc")
    parser.add_argument("--cxx", default="c++")
    parser.add_argument("--sanitized", action="store_true",
                        help="tracec was built with sanitizers")
    args = parser.parse_args()
    build = os.path.abspath(args.build_dir)
    work = os.path.join(build, "aot-examples")
    prefix, example_build = os.path.join(work, "install"), os.path.join(work, "build")

    run(["cmake", "--install", build, "--prefix", prefix])
    run(["cmake", "-S", HERE, "-B", example_build, "-G", "Ninja",
         f"-Dtracec_DIR={prefix}/lib/cmake/tracec",
         f"-DCMAKE_C_COMPILER={args.cc}", f"-DCMAKE_CXX_COMPILER={args.cxx}"])
    run(["cmake", "--build", example_build])
    run(["ctest", "--test-dir", example_build, "--output-on-failure"])
    artifacts = {
        "predict_c": os.path.join(example_build, "predict_c"),
        "objects": [os.path.join(example_build, "mlp_model_aot", "mlp_model.o"),
                    os.path.join(example_build, "mlp_dynamic_model_aot", "mlp_dynamic_model.o")],
    }
    trained = parse(run([os.path.join(example_build, "train_mlp"), str(STEPS)]))
    c_output = run([artifacts["predict_c"]])
    if "null buffer -> 1" not in c_output:
        sys.exit("FAIL: predict_c: a null buffer did not return 1:\n" + c_output)
    untrained = parse(c_output)

    tracec_run = os.path.join(build, "bin", "tracec-run")
    inputs = example_inputs()
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for name, value in inputs.items():
            files[name] = os.path.join(tmp, name + ".npy")
            np.save(files[name], value)
        step_args = ["x", "labels", "w1", "b1", "w2", "b2"]
        probs, classes = jit(tracec_run, "predict", ["x", "w1", "b1", "w2", "b2"], files, tmp)
        expect_close("predict_c probs", untrained["probs"], probs)
        expect_close("predict_c classes", untrained["classes"], classes, rtol=0, atol=0)
        (loss,) = jit(tracec_run, "step", step_args, files, tmp)
        expect_close("predict_c step loss", [untrained["loss_1"]], loss)
        expect_close("train_mlp loss at step 1", [trained["loss_1"]], loss)
        (loss,) = jit(tracec_run, "step", step_args, files, tmp, repeat=STEPS)
        expect_close(f"train_mlp loss at step {STEPS}", [trained[f"loss_{STEPS}"]], loss)
    if not trained[f"loss_{STEPS}"] < trained["loss_1"]:
        sys.exit("FAIL: train_mlp's loss did not decrease")
    check_dynamic(os.path.join(example_build, "evaluate_dynamic"))
    check_libc_only(build, artifacts, args.sanitized)


if __name__ == "__main__":
    main()
