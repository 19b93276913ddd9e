"""Rematerialization (trace.checkpoint) on a deep MLP: the residual bytes
__forward_loss saves under each policy and the train step's time.

    python3 bench/remat.py [--build build] [--layers 16] [--width 512]
                           [--batch 256] [--rounds 5] [--calls 10] [--cxx c++]

The loss is mean(a_L * a_L) with a_i = relu(a_{i-1} @ w_i + b_i); the train
step is trace.value_and_grad with respect to every w_i and b_i. For each
policy the module carries `trace.checkpoint = "<policy>"` on @loss (what
--trace-autodiff=remat=<policy> does for every function). Residual bytes
are read from __forward_loss's signature after `tracec-opt --trace-autodiff`
(total, and how much of it is the function's own arguments, which are
passed through rather than stored); times are tracec-run --benchmark
medians, policies interleaved round by round, and the median of the rounds
is reported.

The fused step (@loss_and_grads: forward and backward inlined into one
function, as trace.grad and the Python train step compile) is timed too,
and its memory measured: `tracec --class=Step` compiles it to an object
whose .bss is the workspace (every intermediate buffer, at offsets planned
so that buffers never live together share bytes: the step's peak memory
beyond its inputs and outputs), and bench/remat_rss.cpp, linked with it,
reports how much the peak resident set grows across one call (the pages
the step touches). The recomputation reads the saved values through a
trace.optimization_barrier, so CSE does not merge it with the forward ops;
gradients of the fused step are compared across policies too."""
import argparse
import os
import re
import statistics
import subprocess
import tempfile

import numpy as np

POLICIES = ("everything", "contractions", "nothing")
HERE = os.path.dirname(os.path.abspath(__file__))


def module_text(layers, width, batch, policy):
    t = lambda *s: "tensor<" + "x".join(map(str, s)) + "xf32>"  # noqa: E731
    args = [f"%x: {t(batch, width)}"]
    for i in range(layers):
        args += [f"%w{i}: {t(width, width)}", f"%b{i}: {t(width)}"]
    lines = [f'func.func private @loss({", ".join(args)}) -> tensor<f32> '
             f'attributes {{trace.checkpoint = "{policy}"}} {{']
    h = "%x"
    for i in range(layers):
        lines += [
            f"  %m{i} = trace.matmul {h}, %w{i} : ({t(batch, width)}, "
            f"{t(width, width)}) -> {t(batch, width)}",
            f"  %z{i} = trace.add %m{i}, %b{i} : ({t(batch, width)}, "
            f"{t(width)}) -> {t(batch, width)}",
            f"  %a{i} = trace.relu %z{i} : {t(batch, width)}"]
        h = f"%a{i}"
    lines += [
        f"  %sq = trace.mul {h}, {h} : ({t(batch, width)}, {t(batch, width)})"
        f" -> {t(batch, width)}",
        f"  %l = trace.reduce_mean %sq {{axes = array<i64: 0, 1>}} : "
        f"{t(batch, width)} -> tensor<f32>",
        "  return %l : tensor<f32>", "}"]
    types = [a.split(": ")[1] for a in args]
    grads = types[1:]
    wrt = ", ".join(str(i) for i in range(1, len(args)))
    names = ", ".join(a.split(":")[0] for a in args)
    lines += [
        f'func.func @loss_and_grads({", ".join(args)}) -> '
        f'(tensor<f32>, {", ".join(grads)}) {{',
        f"  %l, %g:{len(grads)} = trace.value_and_grad @loss({names}) "
        f"{{wrt = array<i64: {wrt}>}} : ({', '.join(types)}) -> "
        f"(tensor<f32>, {', '.join(grads)})",
        f"  return %l, {', '.join(f'%g#{i}' for i in range(len(grads)))} : "
        f"tensor<f32>, {', '.join(grads)}", "}"]
    return "\n".join(lines) + "\n"


def tensor_bytes(type_text):
    dims = re.match(r"tensor<((?:\d+x)*)f32>", type_text).group(1)
    return 4 * int(np.prod([int(d) for d in dims.split("x") if d] or [1]))


def autodiff(opt, path):
    """The module after trace-autodiff, with __forward_loss and
    __backward_loss public (entry points of their own)."""
    ir = subprocess.run([opt, path, "--trace-autodiff"], check=True,
                        capture_output=True, text=True).stdout
    ir = re.sub(r"@__(forward|backward)_loss_wrt[_\d]*", r"@__\1_loss", ir)
    for name in ("__forward_loss", "__backward_loss"):
        ir = ir.replace(f"func.func private @{name}(", f"func.func @{name}(")
    return ir


def residuals(ir):
    """(count, bytes, bytes that are the function's own arguments) of
    __forward_loss's residual results."""
    start = ir.index("func.func @__forward_loss(")
    header = ir[start:ir.index("{\n", start)]
    results = re.search(r"-> \((.*)\)\s*$", header).group(1)
    types = re.findall(r"tensor<[^>]*>", results)[1:]  # after the loss
    body = ir[start:ir.index("\n  }\n", start)]
    ret = re.search(r"return (.*) :", body).group(1).split(", ")[1:]
    total = sum(tensor_bytes(t) for t in types)
    passed = sum(tensor_bytes(t) for t, v in zip(types, ret)
                 if v.startswith("%arg"))
    return len(types), total, passed


def tracec_run(run, path, entry, inputs, extra=()):
    cmd = [run, path, "--entry", entry]
    cmd += [f"--input={name}=@{file}" for name, file in inputs]
    return subprocess.run(cmd + list(extra), check=True, capture_output=True,
                          text=True).stdout


def median_time(run, path, entry, inputs, calls):
    out = tracec_run(run, path, entry, inputs, [f"--benchmark={calls}"])
    value, unit = re.search(r"median\s+([\d.]+) (\w+)", out).groups()
    return float(value) * {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}[unit]


def fused_memory(tracec, cxx, path, tmp, name):
    """(workspace bytes, resident set growth in bytes) of the compiled
    fused step of the module at `path`."""
    obj = os.path.join(tmp, name + ".o")
    header = os.path.join(tmp, name + ".h")
    subprocess.run([tracec, path, "--entry", "loss_and_grads", "--class=Step",
                    "-o", obj, "--header", header], check=True)
    sections = subprocess.run(["size", "-A", obj], check=True,
                              capture_output=True, text=True).stdout
    bss = sum(int(line.split()[1]) for line in sections.splitlines()
              if line.startswith(".bss"))
    exe = os.path.join(tmp, name + "-rss")
    subprocess.run([cxx, "-O1", "-include", header,
                    os.path.join(HERE, "remat_rss.cpp"), obj, "-lm", "-o", exe],
                   check=True)
    out = subprocess.run([exe], check=True, capture_output=True,
                         text=True).stdout
    return bss, 1024 * int(re.search(r"rss_kib (\d+)", out).group(1))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--build", default="build")
    p.add_argument("--layers", type=int, default=16)
    p.add_argument("--width", type=int, default=512)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--calls", type=int, default=10)
    p.add_argument("--cxx", default="c++",
                   help="C++ compiler that links the AOT step's driver")
    a = p.parse_args()
    opt = os.path.join(a.build, "bin", "tracec-opt")
    run = os.path.join(a.build, "bin", "tracec-run")
    tracec = os.path.join(a.build, "bin", "tracec")
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        inputs = []
        arrays = [("x", rng.standard_normal((a.batch, a.width)))]
        for i in range(a.layers):
            arrays += [(f"w{i}", rng.standard_normal((a.width, a.width)) /
                        np.sqrt(a.width)),
                       (f"b{i}", 0.1 * rng.standard_normal(a.width))]
        for name, array in arrays:
            file = os.path.join(tmp, name + ".npy")
            np.save(file, array.astype(np.float32))
            inputs.append((name, file))
        dl = os.path.join(tmp, "dl.npy")
        np.save(dl, np.ones((), np.float32))
        paths, info, bwd_inputs, grads, fused, memory = {}, {}, {}, {}, {}, {}
        for policy in POLICIES:
            paths[policy] = os.path.join(tmp, policy + ".mlir")
            with open(paths[policy], "w") as f:
                f.write(module_text(a.layers, a.width, a.batch, policy))
            ir = autodiff(opt, paths[policy])
            info[policy] = residuals(ir)
            split = os.path.join(tmp, policy + "-split.mlir")
            with open(split, "w") as f:
                f.write(ir)
            paths[policy, "split"] = split
            out = os.path.join(tmp, policy)
            tracec_run(run, split, "__forward_loss", inputs,
                       ["--output-dir", out])
            bwd_inputs[policy] = [
                (f"r{k}", os.path.join(out, f"__forward_loss_result{k + 1}.npy"))
                for k in range(info[policy][0])] + [("dl", dl)]
            tracec_run(run, split, "__backward_loss", bwd_inputs[policy],
                       ["--output-dir", out])
            grads[policy] = [np.load(os.path.join(
                out, f"__backward_loss_result{k}.npy"))
                for k in range(2 * a.layers)]
            fused_out = os.path.join(tmp, policy + "-fused")
            tracec_run(run, paths[policy], "loss_and_grads", inputs,
                       ["--output-dir", fused_out])
            fused[policy] = [np.load(os.path.join(
                fused_out, f"loss_and_grads_result{k}.npy"))
                for k in range(1, 2 * a.layers + 1)]
            memory[policy] = fused_memory(tracec, a.cxx, paths[policy], tmp,
                                          policy)
        same = all(np.array_equal(g, h) for p in POLICIES
                   for g, h in zip(grads[p], grads["everything"]))
        same_fused = all(np.array_equal(g, h) for p in POLICIES
                         for g, h in zip(fused[p], fused["everything"]))
        times = {(policy, what): [] for policy in POLICIES
                 for what in ("step", "fwd", "bwd")}
        for _ in range(a.rounds):
            for policy in POLICIES:
                split = paths[policy, "split"]
                times[policy, "step"].append(median_time(
                    run, paths[policy], "loss_and_grads", inputs, a.calls))
                times[policy, "fwd"].append(median_time(
                    run, split, "__forward_loss", inputs, a.calls))
                times[policy, "bwd"].append(median_time(
                    run, split, "__backward_loss", bwd_inputs[policy],
                    a.calls))
    print(f"MLP {a.layers} layers, width {a.width}, batch {a.batch}, f32; "
          f"gradients wrt all weights and biases; medians of {a.rounds} "
          f"rounds of tracec-run --benchmark={a.calls}")
    print(f"{'policy':<13}{'residuals':>10}{'MiB':>9}{'of which args':>15}"
          f"{'fwd ms':>9}{'bwd ms':>9}{'fwd+bwd':>9}{'fused step ms':>15}"
          f"{'workspace MiB':>15}{'RSS growth MiB':>16}")
    med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
    for policy in POLICIES:
        n, total, passed = info[policy]
        print(f"{policy:<13}{n:>10}{total / 2**20:>9.2f}{passed / 2**20:>15.2f}"
              f"{med[policy, 'fwd']:>9.2f}{med[policy, 'bwd']:>9.2f}"
              f"{med[policy, 'fwd'] + med[policy, 'bwd']:>9.2f}"
              f"{med[policy, 'step']:>15.2f}"
              f"{memory[policy][0] / 2**20:>15.2f}"
              f"{memory[policy][1] / 2**20:>16.2f}")
    print("gradients bit-for-bit equal across policies:", same,
          "(split),", same_fused, "(fused step)")
    for key, values in sorted(times.items()):
        print(f"  {key[0]}/{key[1]} rounds (ms): " +
              ", ".join(f"{t * 1e3:.1f}" for t in values))


if __name__ == "__main__":
    main()
