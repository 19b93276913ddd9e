"""A model of a data-parallel step's time against the number of ranks
(issue 35): compute on a shard of the global batch, then one ring
all-reduce per gradient tensor, as `all_reduce_gradients` issues them
after the backward pass (no overlap).

    T(p) = k * (c0 + c1 * B / p)                       compute
         + sum over gradients g of
           2 (p - 1) * (alpha + bytes(g) / p * beta)   ring all-reduce

c0 is the part of a rank's step that does not shrink with its shard (the
update of every weight, the call), c1 the time per sample, both fitted
from one rank's step at two batch sizes; k = ceil(ranks on a node / its
cores) is how many single-threaded ranks share a core (bound, they
take turns). A ring all-reduce is a reduce-scatter and an all-gather of
p - 1 steps each, every step a message of bytes / p to the next rank:
the latency alpha counts 2 (p - 1) times per tensor, the bandwidth
term tends to 2 * bytes * beta. alpha and beta are fitted from timed
all-reduces by least squares (bench/distributed_scaling.py --model).

Pure Python and NumPy: python/tests/test_scaling_model.py checks it.
"""
import math

import numpy as np


def ring_all_reduce_time(ranks, nbytes, alpha, beta):
    """Seconds to all-reduce `nbytes` over `ranks` on a ring with latency
    `alpha` (s) and inverse bandwidth `beta` (s/byte); 0 on one rank."""
    if ranks <= 1:
        return 0.0
    return 2 * (ranks - 1) * (alpha + nbytes / ranks * beta)


def fit_latency_bandwidth(samples):
    """(alpha, beta) fitted to (ranks, nbytes, seconds) samples by least
    squares on the relative error: every row divided by its time, so that
    the 1 KB messages (which fix alpha) weigh as much as the 8 MB ones
    (which fix beta). Samples of no positive time (noise) are skipped."""
    rows, times = [], []
    for ranks, nbytes, seconds in samples:
        if ranks > 1 and seconds > 0:
            rows.append([2 * (ranks - 1), 2 * (ranks - 1) / ranks * nbytes])
            times.append(seconds)
    if len(rows) < 2:
        raise ValueError("fitting alpha and beta needs at least two "
                         "all-reduce timings on more than one rank")
    a = np.array(rows) / np.array(times)[:, None]
    (alpha, beta), *_ = np.linalg.lstsq(a, np.ones(len(rows)), rcond=None)
    return float(alpha), float(beta)


def fit_compute(batches, seconds):
    """(c0, c1): one rank's step time c0 + c1 * batch, the line through
    timings at (at least) two batch sizes, by least squares."""
    if len(set(batches)) < 2:
        raise ValueError("fitting the compute needs two batch sizes")
    c1, c0 = np.polyfit(np.asarray(batches, float),
                        np.asarray(seconds, float), 1)
    return float(c0), float(c1)


def ranks_per_core(ranks_on_node, cores):
    """How many bound single-threaded ranks share the busiest core."""
    return max(1, math.ceil(ranks_on_node / cores))


def step_time(ranks, global_batch, compute, gradient_bytes, alpha, beta,
              sharing=1):
    """Predicted step time and its all-reduce part, in seconds, at `ranks`
    ranks: compute = (c0, c1), gradient_bytes = one entry per gradient
    tensor (each its own all-reduce), sharing = ranks_per_core(...)."""
    c0, c1 = compute
    reduce = sum(ring_all_reduce_time(ranks, n, alpha, beta)
                 for n in gradient_bytes)
    return sharing * (c0 + c1 * global_batch / ranks) + reduce, reduce
