#!/usr/bin/python3
"""The GPU bench of issue 37, one command for a machine with a GPU:

    PYTHONPATH=build/python /usr/bin/python3 bench/gpu_bench.py [--quick]

times each workload compiled for the CPU (all its cores) and for the GPU
(tracec.jit(..., device="gpu")) on the same machine, as medians, and
prints their ratio and each one's share of a peak: the GPU's from
--gpu-peak-tflops (dense, of the workload's dtype) and --gpu-bandwidth,
H200 defaults (989 TFLOP/s BF16 and FP16, 494 TF32, 67 FP32 without
tensor cores, 4.8 TB/s). Workloads: sgemm 4096 (f32, tf32: f32 compiled
with TRACEC_ALLOW_TF32=1, f16 and bf16), GELU over 256M floats, the
MLP and CNN training steps of bench/distributed_scaling.py, and an
attention and a 2-layer transformer training step. On the GPU the
inputs are put in its memory first (tracec.device_put) and a training
step's new weights are the next step's, so the steady state copies
nothing through the host, as a training loop on the device runs (on the
CPU the same loop on host arrays). --quick shrinks every
size (a dry run; --devices cpu runs without a GPU; under the C++ tests'
fake driver, TRACEC_CUDA_DRIVER=build/lib/libFakeCudaDriver.so, the
script runs through but the kernels do not: its GPU times mean nothing).
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import distributed_scaling  # noqa: E402  (the models)


def median_seconds(call, rounds, repeats):
    call()  # compile and warm up
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(repeats):
            call()
        times.append((time.perf_counter() - start) / repeats)
    return float(np.median(times))


def workloads(quick):
    """(name, make(device) -> call, flops, bytes, peak dtype)."""
    import tracec
    import tracec.numpy as tnp
    n = 256 if quick else 4096
    rng = np.random.default_rng(0)

    def on(device, *arrays):
        """The arrays where `device` computes: GPU memory for the GPU."""
        if device != "gpu":
            return arrays
        return tuple(tracec.device_put(a) for a in arrays)

    def training(train, params, *data):
        """A call of one step of a loop whose weights feed the next."""
        state = {"params": list(params)}

        def call():
            state["params"] = train(state["params"], *data)
        return call

    def sgemm(dtype):
        # tf32: f32 operands, the matmul on tensor cores in TF32.
        stored = "f32" if dtype == "tf32" else dtype
        a = rng.standard_normal((n, n)).astype(np.float32)
        b = rng.standard_normal((n, n)).astype(np.float32)

        def make(device):
            f = tracec.jit(lambda a, b: tnp.dot(tnp.astype(a, stored),
                                                tnp.astype(b, stored)),
                           device=device)
            os.environ["TRACEC_ALLOW_TF32"] = "1" if dtype == "tf32" else "0"
            da, db = on(device, a, b)
            f(da, db)  # compiled now, with the option read now
            del os.environ["TRACEC_ALLOW_TF32"]
            return lambda: f(da, db)
        return (f"sgemm {n} {dtype}", make, 2 * n ** 3, 0, dtype)

    count = (1 << 20) if quick else (256 << 20)
    x = rng.standard_normal(count).astype(np.float32)

    def gelu(device):
        f = tracec.jit(tracec.nn.gelu, device=device)
        (dx,) = on(device, x)
        return lambda: f(dx)

    def step(model):
        make_model, batch = distributed_scaling.MODELS[model]
        params, logits, data = make_model(np.random.default_rng(0))
        inputs, labels = data(np.random.default_rng(1), batch)

        def loss(params, x, y):
            return tnp.mean(tracec.nn.softmax_cross_entropy_with_logits(
                y, logits(params, x)))

        def make(device):
            @tracec.jit(device=device)
            def train(params, x, y):
                grads = tracec.grad(loss)(params, x, y)
                return [p - 0.01 * g for p, g in zip(params, grads)]
            return training(train, on(device, *params),
                            *on(device, inputs, labels))
        return (f"{model} step, batch {batch}", make, 0, 0, "f32")

    def transformer(layers):
        """A causal self-attention block (one head of width d) and its
        MLP, with layer norms and residuals, `layers` deep, trained on
        next-token prediction over a vocabulary of `vocabulary`: attention
        alone at layers=0 (no MLP, one attention)."""
        batch, length, d, vocabulary = (2, 16, 32, 64) if quick else \
            (16, 256, 256, 1024)
        init = np.random.default_rng(2)

        def weight(*shape):
            return (init.standard_normal(shape) / np.sqrt(shape[0])).astype(
                np.float32)
        blocks = max(layers, 1)
        params = [weight(vocabulary, d), weight(d, vocabulary)] + [
            weight(d, d) for _ in range(4 * blocks)] + (
            [weight(d, 4 * d), weight(4 * d, d)] * layers)
        tokens = init.integers(0, vocabulary, (batch, length + 1))
        mask = np.tril(np.ones((length, length), np.float32))
        onehot = np.eye(vocabulary, dtype=np.float32)

        def loss(params, tokens):
            nn = tracec.nn
            h = tnp.take(params[0], tokens[:, :-1], axis=0)
            for b in range(blocks):
                q, k, v, o = params[2 + 4 * b:6 + 4 * b]
                x = nn.layer_norm(h)
                scores = tnp.matmul(x @ q, tnp.swapaxes(x @ k, 1, 2)) / \
                    np.float32(np.sqrt(d))
                scores = tnp.where(mask > 0, scores, np.float32(-1e9))
                h = h + tnp.matmul(nn.softmax(scores), x @ v) @ o
                if layers:
                    up, down = params[2 + 4 * blocks + 2 * b:
                                      4 + 4 * blocks + 2 * b]
                    h = h + nn.gelu(nn.layer_norm(h) @ up) @ down
            logits = nn.layer_norm(h) @ params[1]
            labels = tnp.take(onehot, tokens[:, 1:], axis=0)
            return tnp.mean(nn.softmax_cross_entropy_with_logits(
                labels, logits))

        def make(device):
            @tracec.jit(device=device)
            def train(params, tokens):
                grads = tracec.grad(loss)(params, tokens)
                return [p - 0.01 * g for p, g in zip(params, grads)]
            return training(train, on(device, *params),
                            *on(device, tokens))
        name = (f"transformer {layers} layers" if layers else "attention") \
            + f" step, batch {batch}x{length}, d {d}"
        return (name, make, 0, 0, "f32")

    return [sgemm("f32"), sgemm("tf32"), sgemm("f16"), sgemm("bf16"),
            (f"GELU {count >> 20}M f32", gelu, 0, 2 * 4 * count, "f32"),
            step("MLP 784-512-512-10"), step("CNN 32x32x3"),
            transformer(0), transformer(2)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--devices", default="cpu,gpu")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--gpu-peak-tflops",
                        default="bf16=989,f16=989,tf32=494,f32=67")
    parser.add_argument("--gpu-bandwidth", type=float, default=4.8,
                        help="TB/s")
    args = parser.parse_args()
    import tracec
    peaks = dict((k, float(v) * 1e12) for k, v in
                 (p.split("=") for p in args.gpu_peak_tflops.split(",")))
    devices = args.devices.split(",")
    print(f"tracec {tracec.__version__}, CPU threads "
          f"{tracec.get_num_threads()}, devices {devices}\n")
    print("| workload | " + " | ".join(f"{d} ms" for d in devices)
          + " | gpu vs cpu | gpu share of peak |")
    print("|---|" + "---|" * len(devices) + "---|---|")
    for name, make, flops, nbytes, dtype in workloads(args.quick):
        seconds = {}
        for device in devices:
            try:
                seconds[device] = median_seconds(make(device), args.rounds,
                                                 1 if not args.quick else 3)
            except RuntimeError as error:  # no CUDA driver
                print(f"{name}: {device}: {error}", file=sys.stderr)
        row = [f"{seconds[d] * 1e3:.3f}" if d in seconds else "-"
               for d in devices]
        ratio = share = "-"
        if "gpu" in seconds and "cpu" in seconds:
            ratio = f"{seconds['cpu'] / seconds['gpu']:.2f}x"
        if "gpu" in seconds and flops and dtype in peaks:
            share = f"{flops / seconds['gpu'] / peaks[dtype]:.1%}"
        elif "gpu" in seconds and nbytes:
            bandwidth = nbytes / seconds["gpu"] / (args.gpu_bandwidth * 1e12)
            share = f"{bandwidth:.1%} of bandwidth"
        print(f"| {name} | " + " | ".join(row) + f" | {ratio} | {share} |",
              flush=True)


if __name__ == "__main__":
    main()
