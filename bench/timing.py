"""Wall-clock timing shared by the PyTorch peers of the benchmarks."""

import statistics
import time


def time_per_call(fn, min_time, repeats):
    """Median over `repeats` batches of the mean time per call, each batch
    running at least `min_time` seconds (after a warm-up)."""
    for _ in range(10):
        fn()
    medians = []
    for _ in range(repeats):
        calls, start = 0, time.perf_counter()
        while True:
            fn()
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= min_time:
                break
        medians.append(elapsed / calls)
    return statistics.median(medians)
