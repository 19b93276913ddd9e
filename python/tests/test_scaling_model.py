"""bench/scaling_model.py: the data-parallel step-time model's fits recover
known parameters, and its formulas give hand-computed values."""
import importlib.util
import pathlib

import numpy as np
import pytest

_PATH = (pathlib.Path(__file__).resolve().parents[2] / "bench"
         / "scaling_model.py")
_spec = importlib.util.spec_from_file_location("scaling_model", _PATH)
sm = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sm)

SIZES = [1 << k for k in range(10, 24)]  # 1 KB .. 8 MB


def test_ring_all_reduce_time_by_hand():
    # 2 (p - 1) steps of alpha + bytes / p * beta.
    assert sm.ring_all_reduce_time(1, 10 ** 6, 1e-6, 1e-9) == 0.0
    assert sm.ring_all_reduce_time(2, 1000, 1e-6, 1e-9) == pytest.approx(
        2 * (1e-6 + 500e-9))
    assert sm.ring_all_reduce_time(4, 4000, 1e-6, 1e-9) == pytest.approx(
        6 * (1e-6 + 1000e-9))


def test_fit_recovers_latency_and_bandwidth():
    alpha, beta = 3e-6, 1 / 5e9
    samples = [(p, n, sm.ring_all_reduce_time(p, n, alpha, beta))
               for p in (2, 4) for n in SIZES]
    fitted = sm.fit_latency_bandwidth(samples)
    assert fitted == pytest.approx((alpha, beta), rel=1e-9)


def test_fit_with_noise_is_close_and_skips_nonpositive_times():
    alpha, beta = 5e-6, 8 / 25e9
    noise = np.random.default_rng(0).uniform(0.97, 1.03, 2 * len(SIZES))
    samples = [(p, n, sm.ring_all_reduce_time(p, n, alpha, beta) * e)
               for (p, n), e in zip([(p, n) for p in (2, 4) for n in SIZES],
                                    noise)]
    samples += [(2, 1024, -1e-7), (2, 2048, 0.0), (1, 4096, 1.0)]
    fitted_alpha, fitted_beta = sm.fit_latency_bandwidth(samples)
    assert fitted_alpha == pytest.approx(alpha, rel=0.1)
    assert fitted_beta == pytest.approx(beta, rel=0.05)


def test_fits_need_enough_points():
    with pytest.raises(ValueError, match="at least two"):
        sm.fit_latency_bandwidth([(2, 1024, 1e-6), (1, 2048, 1e-6)])
    with pytest.raises(ValueError, match="two batch sizes"):
        sm.fit_compute([256, 256], [1e-3, 1e-3])


def test_fit_compute_is_the_line_through_the_timings():
    c0, c1 = sm.fit_compute([256, 16], [1e-3 + 256e-5, 1e-3 + 16e-5])
    assert (c0, c1) == pytest.approx((1e-3, 1e-5))


def test_ranks_per_core():
    assert [sm.ranks_per_core(r, 2) for r in (1, 2, 3, 4, 5)] == \
        [1, 1, 2, 2, 3]


def test_step_time_by_hand():
    # 4 ranks on 2 cores: two share a core, each on 256 / 4 = 64 samples.
    compute = 2 * (1e-3 + 1e-5 * 64)
    reduce = 6 * (1e-6 + 1000e-9) + 6 * (1e-6 + 100e-9)
    total, reduce_part = sm.step_time(4, 256, (1e-3, 1e-5), [4000, 400],
                                      1e-6, 1e-9, sharing=2)
    assert total == pytest.approx(compute + reduce)
    assert reduce_part == pytest.approx(reduce)
    # One rank: the whole batch, no all-reduce.
    assert sm.step_time(1, 256, (1e-3, 1e-5), [4000], 1.0, 1.0) == \
        pytest.approx((1e-3 + 256e-5, 0.0))
