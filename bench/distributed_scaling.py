#!/usr/bin/python3
"""Data-parallel scaling on MPI (issue 35): the same global batch split
over N ranks of one thread each, against one rank of one thread.

    /usr/bin/python3 bench/distributed_scaling.py [--ranks 1,2] [--steps 40]

launches itself under `mpirun -np N` for each N and prints, per model
(the bench's MLP 784-512-512-10 and a CNN on 32x32x3 images, global
batch 256 and 64), the median step time, the throughput against one rank,
the share of the step in the gradient all-reduce (the step timed with
and without it: same data, same compiled code but for the collectives),
and the share of the all-reduces' time that overlapping them with the
backward pass hides (the step compiled with TRACEC_OVERLAP_COLLECTIVES=1
against the default, each all-reduce blocking where the program lists
it; negative: the overlap costs more than it hides). The other columns
and the model are the default's.
Every rank checks that its weights equal rank 0's after the steps.

With --model it also fits and checks bench/scaling_model.py's step-time
model: one rank's step without the all-reduce at the global batch and at
a 16th of it (the compute's fixed and per-sample parts), and, at every N
above 1, the compiled `all_reduce` of 1 KB .. 8 MB (latency alpha and
bandwidth 1/beta, least squares over all N); it prints the measured
against the predicted step at each N, then predicted steps at
--predict ranks on a cluster of --cores-per-node cores a node (one
single-threaded rank a core, like this machine's) joined by a network of
--bandwidth Gb/s and --latency us:

    /usr/bin/python3 bench/distributed_scaling.py --ranks 1,2,4 --model \
        [--predict 8,16,64] [--cores-per-node 2] [--bandwidth 25] \
        [--latency 5]

Needs build/python on PYTHONPATH (or an installed tracec) and OpenMPI
(scripts/install-deps). As root, mpirun needs
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1, which the
launcher sets.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

import numpy as np

import scaling_model

# Message sizes of the all-reduce microbenchmark, 1 KB .. 8 MB.
MESSAGE_BYTES = [1 << k for k in range(10, 24, 2)] + [8 << 20]
# Its compiled functions chain 1 and 1 + EXTRA all-reduces: the difference
# over EXTRA is one all-reduce's time without the call's overhead.
EXTRA = 8
CORES = os.cpu_count() or 1


def mlp(rng):
    sizes = (784, 512, 512, 10)
    params = []
    for m, n in zip(sizes, sizes[1:]):
        params += [(rng.standard_normal((m, n)) / np.sqrt(m)).astype(
            np.float32), np.zeros(n, np.float32)]

    def logits(params, x):
        import tracec
        import tracec.numpy as tnp
        h = x
        for i in range(0, len(params), 2):
            h = tnp.dot(h, params[i]) + params[i + 1]
            if i + 2 < len(params):
                h = tracec.nn.relu(h)
        return h

    def data(rng, batch):
        return (rng.standard_normal((batch, 784)).astype(np.float32),
                np.eye(10, dtype=np.float32)[rng.integers(0, 10, batch)])
    return params, logits, data


def cnn(rng):
    params = [(rng.standard_normal((3, 3, 3, 16)) / np.sqrt(27)).astype(
        np.float32), np.zeros(16, np.float32),
        (rng.standard_normal((3, 3, 16, 32)) / np.sqrt(144)).astype(
            np.float32), np.zeros(32, np.float32),
        (rng.standard_normal((8 * 8 * 32, 10)) / np.sqrt(2048)).astype(
            np.float32), np.zeros(10, np.float32)]

    def logits(params, x):
        import tracec
        import tracec.numpy as tnp
        nn = tracec.nn
        h = nn.relu(nn.conv2d(x, params[0], padding="SAME") + params[1])
        h = nn.max_pool2d(h, 2)
        h = nn.relu(nn.conv2d(h, params[2], padding="SAME") + params[3])
        h = nn.max_pool2d(h, 2)
        h = tnp.reshape(h, (h.shape[0], -1))
        return tnp.dot(h, params[4]) + params[5]

    def data(rng, batch):
        return (rng.standard_normal((batch, 32, 32, 3)).astype(np.float32),
                np.eye(10, dtype=np.float32)[rng.integers(0, 10, batch)])
    return params, logits, data


MODELS = {"MLP 784-512-512-10": (mlp, 256), "CNN 32x32x3": (cnn, 64)}


def worker(args):
    import tracec
    import tracec.numpy as tnp
    from tracec import distributed as dist
    dist.init()
    rank, size = dist.rank(), dist.size()
    for name, (make, global_batch) in MODELS.items():
        rng = np.random.default_rng(0)  # the same weights and data everywhere
        params, logits, data = make(rng)
        x, y = data(rng, global_batch)
        shard = slice(rank * global_batch // size,
                      (rank + 1) * global_batch // size)
        x, y = x[shard], y[shard]

        def loss(params, x, y):
            # The shard's part of the global batch's mean loss: the sum of
            # the ranks' gradients is the global batch's gradient.
            return tnp.sum(tracec.nn.softmax_cross_entropy_with_logits(
                y, logits(params, x))) / global_batch

        def make_step(reduce):
            @tracec.jit
            def step(params, x, y):
                grads = tracec.grad(loss)(params, x, y)
                if reduce:
                    grads = dist.all_reduce_gradients(grads, "sum")
                return [p - 0.01 * g for p, g in zip(params, grads)]
            return step

        timings = {}
        # The step with its all-reduces overlapping the backward pass,
        # blocking where the program lists them (the default), and without.
        for label, reduce, overlap in (("overlap", True, "1"),
                                       ("blocking", True, "0"),
                                       ("none", False, "0")):
            # (Read when the step compiles, at its first call.)
            os.environ["TRACEC_OVERLAP_COLLECTIVES"] = overlap
            step = make_step(reduce)
            timings[label], p = median_time(
                lambda p: step(p, x, y), params, args.steps)
            if reduce:
                reference = dist.broadcast(np.concatenate(
                    [a.ravel() for a in p]), root=0)
                mine = np.concatenate([a.ravel() for a in p])
                if not np.array_equal(mine, reference):
                    raise SystemExit(f"rank {rank}: weights differ from "
                                     "rank 0's after the steps")
        if rank == 0:
            print(f"RESULT {name}|{global_batch}|{size}|"
                  f"{timings['blocking']}|{timings['none']}|"
                  f"{timings['overlap']}", flush=True)
        if args.model and size == 1:
            # The compute at a second batch size: its fixed part.
            small = max(1, global_batch // 16)
            seconds, _ = median_time(  # the step without the all-reduce
                lambda p: step(p, x[:small], y[:small]), params, args.steps)
            print(f"COMPUTE {name}|{small}|{seconds}", flush=True)
    if args.model and size > 1:
        for nbytes in MESSAGE_BYTES:
            x = np.zeros(nbytes // 4, np.float32)
            seconds = [median_time(chain(count), x, args.steps)[0]
                       for count in (1, 1 + EXTRA)]
            if rank == 0:
                print(f"ALLREDUCE {size}|{nbytes}|"
                      f"{(seconds[1] - seconds[0]) / EXTRA}", flush=True)


def median_time(call, value, steps):
    """The median over `steps` calls of value = call(value), after three
    to compile and warm up, every call started together on all ranks and
    lasting from the first rank's start to the last rank's end; and the
    last value."""
    from tracec import distributed as dist
    for _ in range(3):
        value = call(value)
    starts, ends = [], []
    for _ in range(steps):
        dist.all_reduce(np.zeros(1, np.float32))  # start together
        starts.append(time.perf_counter())
        value = call(value)
        ends.append(time.perf_counter())
    # Rank 0's own time would miss the ranks that share its core and run
    # after it. perf_counter is CLOCK_MONOTONIC, one clock for all the
    # processes of a machine (this bench runs on one).
    bounds = np.asarray(dist.all_reduce(
        np.array([-t for t in starts] + ends), "max"))
    return float(np.median(bounds[steps:] + bounds[:steps])), value


def chain(count):
    """A compiled function of `count` all-reduces in a row, as a step
    issues them (tracec.jit, trace.all_reduce to MPI_Allreduce)."""
    import tracec
    from tracec import distributed as dist

    @tracec.jit
    def reduce(x):
        for _ in range(count):
            x = dist.all_reduce(x, "sum")
        return x
    return reduce


def launch(args):
    mpirun = shutil.which("mpirun")
    if not mpirun:
        sys.exit("mpirun not found: run scripts/install-deps (OpenMPI)")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_btl="self,vader",
               OMPI_MCA_rmaps_base_oversubscribe="1", OMP_NUM_THREADS="1")
    rows, overlap, compute, messages = {}, {}, {}, []
    for n in [int(r) for r in args.ranks.split(",")]:
        # More ranks than cores: two share a core (OpenMPI refuses to bind
        # them unless told the overload is meant).
        bind = "core" if n <= CORES else "core:overload-allowed"
        command = [mpirun, "-np", str(n), "--bind-to", bind, sys.executable,
                   os.path.abspath(__file__), "--worker", "--steps",
                   str(args.steps)] + (["--model"] if args.model else [])
        out = subprocess.run(command, env=env, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"mpirun -np {n} failed:\n{out.stdout}\n{out.stderr}")
        for line in out.stdout.splitlines():
            kind, _, fields = line.partition(" ")
            fields = fields.split("|")
            if kind == "RESULT":
                name, batch, size, with_reduce, without, overlapped = fields
                rows.setdefault((name, int(batch)), []).append(
                    (int(size), float(with_reduce), float(without)))
                overlap[(name, int(batch), int(size))] = float(overlapped)
            elif kind == "COMPUTE":
                compute[fields[0]] = (int(fields[1]), float(fields[2]))
            elif kind == "ALLREDUCE":
                messages.append((int(fields[0]), int(fields[1]),
                                 float(fields[2])))
    print("| model | global batch | ranks | step | throughput vs 1 rank "
          "| step without the all-reduce | all-reduce share "
          "| step, all-reduces overlapped | hidden by the overlap |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (name, batch), results in rows.items():
        base = results[0][1]
        for size, with_reduce, without in results:
            share = max(0.0, 1 - without / with_reduce)
            overlapped = overlap[(name, batch, size)]
            # The share of the blocking all-reduces' time that the overlap
            # takes off the step (none at one rank: nothing to send).
            hidden = (f"{(with_reduce - overlapped) / (with_reduce - without):+.0%}"
                      if size > 1 and with_reduce > without else "-")
            print(f"| {name} | {batch} | {size} | {with_reduce * 1e3:.2f} ms "
                  f"| {base / with_reduce:.2f}x | {without * 1e3:.2f} ms "
                  f"| {share:.0%} | {overlapped * 1e3:.2f} ms | {hidden} |")
    if args.model:
        model(args, rows, compute, messages)


def model(args, rows, compute, messages):
    """Fits bench/scaling_model.py to this run's timings and prints its
    fit, its predictions at the measured rank counts against the
    measurements, and its predictions on a cluster."""
    if not compute or not messages:
        sys.exit("--model needs 1 and at least one more rank in --ranks")
    fit, at = all_reduce_fits(messages)
    computes = check_steps(rows, compute, fit, at)
    predict_cluster(args, rows, computes, fit)


def all_reduce_fits(messages):
    """(alpha, beta) fitted to every rank count (the ring's law in p) and
    {ranks: (alpha, beta)} fitted to each (what this machine does at that
    count: with more ranks than cores, a message also waits for its
    receiver's turn on a core); printed with each timing's error."""
    sm = scaling_model
    fit = sm.fit_latency_bandwidth(messages)
    at = {p: sm.fit_latency_bandwidth([m for m in messages if m[0] == p])
          for p in sorted({m[0] for m in messages})}
    print("\nAll-reduce fits (compiled all_reduce, 1 KB .. 8 MB):\n")
    print("| fitted at ranks | alpha | 1/beta |")
    print("|---|---|---|")
    for label, (a, b) in [(", ".join(map(str, at)), fit)] + \
            [(str(p), f) for p, f in at.items()]:
        print(f"| {label} | {a * 1e6:.2f} us | {1e-9 / b:.2f} GB/s |")
    print("\n| ranks | message | measured all-reduce | fit at all ranks "
          "| error | fit at these ranks | error |")
    print("|---|---|---|---|---|---|---|")
    for ranks, nbytes, seconds in messages:
        times = [sm.ring_all_reduce_time(ranks, nbytes, *f)
                 for f in (fit, at[ranks])]
        print(f"| {ranks} | {nbytes // 1024} KB | {seconds * 1e6:.1f} us | "
              + " | ".join(f"{t * 1e6:.1f} us | {t / seconds - 1:+.0%}"
                           for t in times) + " |")
    return fit, at


def check_steps(rows, compute, fit, at):
    """Prints the model's step against the measured one at each rank
    count; returns {model: (c0, c1)}, its compute fitted at one rank."""
    sm = scaling_model
    computes = {}
    print("\nThe model against the measured steps on this machine "
          f"({CORES} cores):\n")
    print("| model | global batch | ranks | measured step | predicted step "
          "| error | predicted, alpha and beta at these ranks | error "
          "| compute measured / predicted |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (name, batch), results in rows.items():
        single = [r for r in results if r[0] == 1]
        if not single or name not in compute:
            continue
        small, small_seconds = compute[name]
        computes[name] = sm.fit_compute([batch, small],
                                        [single[0][2], small_seconds])
        grads = gradient_bytes(name)
        for size, measured, without in results:
            sharing = sm.ranks_per_core(size, CORES)
            # (One rank has no all-reduce, and no fit of its own.)
            predicted = [sm.step_time(size, batch, computes[name], grads,
                                      *f, sharing)
                         for f in (fit, at.get(size, (0, 0)))]
            compute_part = predicted[0][0] - predicted[0][1]
            print(f"| {name} | {batch} | {size} | {measured * 1e3:.2f} ms | "
                  + " | ".join(f"{t * 1e3:.2f} ms | {t / measured - 1:+.0%}"
                               for t, _ in predicted)
                  + f" | {without * 1e3:.2f} / {compute_part * 1e3:.2f} ms |")
    return computes


def predict_cluster(args, rows, computes, fit):
    """Prints the model's steps at --predict ranks on the cluster: one
    single-threaded rank a core, the nodes' ranks in order along the
    ring, so that each ring step crosses the network once (its slowest
    link) and no node oversubscribes."""
    sm = scaling_model
    network = args.latency * 1e-6, 8 / (args.bandwidth * 1e9)
    print(f"\nPREDICTED, not measured: nodes of {args.cores_per_node} cores "
          f"like this machine's, one single-threaded rank a core, joined by "
          f"{args.bandwidth:g} Gb/s with {args.latency:g} us latency "
          "(within one node: the all-reduce fit at all ranks above):\n")
    print("| model | global batch | ranks | nodes | predicted step "
          "| predicted throughput | vs 1 rank | all-reduce share |")
    print("|---|---|---|---|---|---|---|---|")
    for (name, batch) in rows:
        if name not in computes:
            continue
        grads = gradient_bytes(name)
        one, _ = sm.step_time(1, batch, computes[name], grads, *fit)
        for ranks in [int(r) for r in args.predict.split(",")]:
            nodes = -(-ranks // args.cores_per_node)
            predicted, reduce = sm.step_time(
                ranks, batch, computes[name], grads,
                *(network if nodes > 1 else fit))
            print(f"| {name} | {batch} | {ranks} | {nodes} "
                  f"| {predicted * 1e3:.2f} ms "
                  f"| {batch / predicted:,.0f} samples/s "
                  f"| {one / predicted:.2f}x | {reduce / predicted:.0%} |")


def gradient_bytes(name):
    """The bytes of each of a model's gradients: one all-reduce each."""
    make, _ = MODELS[name]
    params, _, _ = make(np.random.default_rng(0))
    return [p.nbytes for p in params]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ranks", default="1,2")
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--model", action="store_true",
                        help="fit and check the step-time model "
                        "(bench/scaling_model.py) and predict a cluster")
    parser.add_argument("--predict", default="8,16,64",
                        help="rank counts to predict (default 8,16,64)")
    parser.add_argument("--cores-per-node", type=int, default=CORES,
                        help="the cluster's cores a node (default: this "
                        f"machine's, {CORES})")
    parser.add_argument("--bandwidth", type=float, default=25.0,
                        help="the cluster's network, Gb/s (default 25)")
    parser.add_argument("--latency", type=float, default=5.0,
                        help="the cluster's network latency, us (default 5)")
    parser.add_argument("--worker", action="store_true",
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
    else:
        launch(args)


if __name__ == "__main__":
    main()
