"""Threads: tracec.set_num_threads / get_num_threads, results that do not
depend on the count, and tracec's pool next to PyTorch's in one process."""
import os
import threading
import time

import numpy as np
import pytest

import tracec
import tracec.numpy as tnp


@pytest.fixture
def restore_threads():
    before = tracec.get_num_threads()
    yield
    tracec.set_num_threads(before)


def _block(x, w):
    h = tnp.tanh(x @ w)
    return tracec.nn.softmax(h, axis=-1), tnp.sum(h, axis=0)


def _inputs():
    rng = np.random.default_rng(0)
    return (rng.standard_normal((256, 192)).astype(np.float32),
            (0.1 * rng.standard_normal((192, 128))).astype(np.float32))


def test_default_is_omp_num_threads_else_cores():
    # The cores this process may run on, as OpenMP counts them.
    cores = len(os.sched_getaffinity(0))
    expected = int(os.environ.get("OMP_NUM_THREADS", cores))
    assert tracec.get_num_threads() == expected


def test_set_num_threads_is_process_wide(restore_threads):
    tracec.set_num_threads(3)
    assert tracec.get_num_threads() == 3
    seen = []
    t = threading.Thread(target=lambda: seen.append(tracec.get_num_threads()))
    t.start()
    t.join()
    assert seen == [3]


@pytest.mark.parametrize("bad", [0, -2])
def test_set_num_threads_rejects_nonpositive(bad):
    with pytest.raises(ValueError, match="at least 1"):
        tracec.set_num_threads(bad)


def test_results_equal_bit_for_bit_at_every_thread_count(restore_threads):
    f = tracec.function(_block)
    x, w = _inputs()
    tracec.set_num_threads(1)
    expected = [np.asarray(r) for r in f(x, w)]
    np.testing.assert_allclose(
        expected[1], np.tanh(x.astype(np.float64) @ w).sum(0), rtol=1e-4, atol=1e-4)
    for threads in (2, 4, 8):
        tracec.set_num_threads(threads)
        got = f(x, w)
        for g, e in zip(got, expected):
            assert np.array_equal(np.asarray(g), e), threads


def _busy_seconds(idle):
    """CPU seconds this process burns while its main thread sleeps `idle`
    seconds: what spinning workers of any pool take from the machine."""
    start = time.process_time()
    time.sleep(idle)
    return time.process_time() - start


def test_next_to_torch_pools_sleep_when_idle(restore_threads):
    """A tracec function called in a process that imported torch and ran
    torch ops on its own pool: both pools work, results agree with torch,
    and once the calls are over no worker of either keeps a core busy."""
    torch = pytest.importorskip("torch")
    threads = max(2, os.cpu_count() or 2)
    torch.set_num_threads(threads)
    tracec.set_num_threads(threads)
    x, w = _inputs()
    f = tracec.function(_block)
    for _ in range(5):
        t_h = torch.tanh(torch.from_numpy(x) @ torch.from_numpy(w))
        probs, sums = f(x, w)
    np.testing.assert_allclose(np.asarray(sums), t_h.sum(0).numpy(), rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(np.asarray(probs), torch.softmax(t_h, -1).numpy(),
                               rtol=1e-4, atol=1e-6)
    # Workers spin briefly after their last region, then sleep: a quarter
    # second after the calls the process uses (almost) no CPU while idle.
    time.sleep(0.25)
    assert _busy_seconds(0.5) < 0.05
