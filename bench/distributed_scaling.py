#!/usr/bin/python3
"""Data-parallel scaling on MPI (issue 35): the same global batch split
over N ranks of one thread each, against one rank of one thread.

    /usr/bin/python3 bench/distributed_scaling.py [--ranks 1,2] [--steps 40]

launches itself under `mpirun -np N` for each N and prints, per model
(the bench's MLP 784-512-512-10 and a CNN on 32x32x3 images, global
batch 256 and 64), the median step time, the throughput against one rank,
and the share of the step in the gradient all-reduce (the step timed with
and without it: same data, same compiled code but for the collectives).
Every rank checks that its weights equal rank 0's after the steps.

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
        for reduce in (True, False):
            step = make_step(reduce)
            p = params
            for _ in range(3):  # compile and warm up
                p = step(p, x, y)
            times = []
            for _ in range(args.steps):
                dist.all_reduce(np.zeros(1, np.float32))  # start together
                start = time.perf_counter()
                p = step(p, x, y)
                times.append(time.perf_counter() - start)
            timings[reduce] = float(np.median(times))
            if reduce:
                reference = dist.broadcast(np.concatenate(
                    [a.ravel() for a in p]), root=0)
                mine = np.concatenate([a.ravel() for a in p])
                if not np.array_equal(mine, reference):
                    raise SystemExit(f"rank {rank}: weights differ from "
                                     "rank 0's after the steps")
        if rank == 0:
            print(f"RESULT {name}|{global_batch}|{size}|{timings[True]}|"
                  f"{timings[False]}", flush=True)


def launch(args):
    mpirun = shutil.which("mpirun")
    if not mpirun:
        sys.exit("mpirun not found: run scripts/install-deps (OpenMPI)")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_btl="self,vader",
               OMPI_MCA_rmaps_base_oversubscribe="1", OMP_NUM_THREADS="1")
    rows = {}
    for n in [int(r) for r in args.ranks.split(",")]:
        out = subprocess.run(
            [mpirun, "-np", str(n), "--bind-to", "core", sys.executable,
             os.path.abspath(__file__), "--worker", "--steps",
             str(args.steps)], env=env, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"mpirun -np {n} failed:\n{out.stdout}\n{out.stderr}")
        for line in out.stdout.splitlines():
            if line.startswith("RESULT "):
                name, batch, size, with_reduce, without = \
                    line[7:].split("|")
                rows.setdefault((name, int(batch)), []).append(
                    (int(size), float(with_reduce), float(without)))
    print("| model | global batch | ranks | step | throughput vs 1 rank "
          "| step without the all-reduce | all-reduce share |")
    print("|---|---|---|---|---|---|---|")
    for (name, batch), results in rows.items():
        base = results[0][1]
        for size, with_reduce, without in results:
            share = max(0.0, 1 - without / with_reduce)
            print(f"| {name} | {batch} | {size} | {with_reduce * 1e3:.2f} ms "
                  f"| {base / with_reduce:.2f}x | {without * 1e3:.2f} ms "
                  f"| {share:.0%} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ranks", default="1,2")
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--worker", action="store_true",
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
    else:
        launch(args)


if __name__ == "__main__":
    main()
