"""Keyed random numbers (JAX's jax.random on trace.stateless_random_*):
bit for bit against the independent NumPy model of Philox4x32-10 in
test/Execution/Inputs/philox_reference.py, the same numbers eager, traced
and in every run, keys that split and fold in to distinct streams, and
the distributions' statistics."""
import math
import os
import sys

import numpy as np
import pytest

import tracec
import tracec.numpy as tnp
from tracec import random

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "test",
                                "Execution", "Inputs"))
import philox_reference as ref  # noqa: E402


def key_seed(key):
    words = np.asarray(key).view(np.uint32).astype(np.uint64)
    return int(words[0] | (words[1] << np.uint64(32)))


def test_prng_key_holds_the_seed_words():
    key = random.PRNGKey(0x123456789)
    assert key.dtype == np.int32 and key.shape == (2,)
    assert key.view(np.uint32).tolist() == [0x23456789, 0x1]
    assert random.PRNGKey(-1).view(np.uint32).tolist() == [0xFFFFFFFF] * 2
    assert random.key(5).tolist() == random.PRNGKey(5).tolist()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_uniform_matches_the_philox_model(dtype):
    key = random.PRNGKey(42)
    got = random.uniform(key, (3, 5), dtype, minval=-2.0, maxval=3.0)
    assert got.dtype == dtype and got.shape == (3, 5)
    want = ref.uniform((3, 5), dtype, key_seed(key), 0, -2.0, 3.0)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_normal_matches_the_philox_model(dtype):
    key = random.PRNGKey(7)
    got = random.normal(key, (4, 6), dtype)
    want = ref.normal((4, 6), dtype, key_seed(key), 0)
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)


def test_split_and_fold_in_are_the_model_words():
    key = random.PRNGKey(3)
    seed = key_seed(key)
    n = 4
    i = np.arange(2 * n, dtype=np.uint64)
    counter = [i & ref.MASK, i >> np.uint64(32), np.zeros(2 * n, np.uint64),
               np.full(2 * n, random._SPLIT_STREAM, np.uint64)]
    want = ref.philox4x32(counter, seed)[0].view(np.int32).reshape(n, 2)
    np.testing.assert_array_equal(random.split(key, n), want)

    i = np.arange(2, dtype=np.uint64)
    data = 0xFFFFFFF0  # above int32's range: folded in as its 32 bits
    counter = [i, np.zeros(2, np.uint64), np.full(2, data, np.uint64),
               np.full(2, random._FOLD_IN_STREAM, np.uint64)]
    want = ref.philox4x32(counter, seed)[0].view(np.int32)
    np.testing.assert_array_equal(random.fold_in(key, data), want)


def test_same_key_same_numbers_eager_traced_and_every_run():
    key = random.PRNGKey(0)

    @tracec.jit
    def draw(k):
        k1, k2 = random.split(k)
        return random.uniform(k1, (8,)), random.normal(k2, (8,))

    first = draw(key)
    second = draw(key)
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    k1, k2 = random.split(key)
    np.testing.assert_array_equal(first[0], random.uniform(k1, (8,)))
    np.testing.assert_array_equal(first[1], random.normal(k2, (8,)))
    # A different key, different numbers.
    other = draw(random.PRNGKey(1))
    assert not np.array_equal(other[0], first[0])


def test_derived_keys_are_distinct():
    key = random.PRNGKey(0)
    keys = [tuple(k) for k in np.asarray(random.split(key, 64))]
    keys += [tuple(random.fold_in(key, i)) for i in range(64)]
    keys.append(tuple(key))
    assert len(set(keys)) == len(keys)
    # Split keys and the key's own numbers come from different streams.
    assert not np.array_equal(random.bits(key, (2,)), random.split(key, 1)[0])


def test_fold_in_of_a_traced_step():
    key = random.PRNGKey(9)

    def body(i, total):
        return total + random.uniform(random.fold_in(key, i), (3,))

    got = tracec.jit(lambda: tracec.fori_loop(0, 5, body,
                                              tnp.zeros(3, np.float32)))()
    want = sum(random.uniform(random.fold_in(key, i), (3,)) for i in range(5))
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_statistics():
    key = random.PRNGKey(2026)
    k1, k2, k3 = random.split(key, 3)
    n = 200_000
    u = random.uniform(k1, (n,), np.float64, minval=1.0, maxval=3.0)
    assert u.min() >= 1.0 and u.max() < 3.0
    assert ref.ks_statistic((u - 1.0) / 2.0, lambda x: x) < 1.36 / math.sqrt(n) * 1.5
    z = random.normal(k2, (n,), np.float64)
    assert ref.ks_statistic(z, ref.normal_cdf) < 1.36 / math.sqrt(n) * 1.5
    b = random.bernoulli(k3, 0.3, (n,))
    assert b.dtype == np.bool_ and abs(b.mean() - 0.3) < 5 * math.sqrt(0.21 / n)


def test_randint_and_categorical():
    key = random.PRNGKey(5)
    r = random.randint(key, (10_000,), -3, 4)
    assert r.dtype == np.int32 and r.min() == -3 and r.max() == 3
    counts = np.bincount(r + 3, minlength=7) / r.size
    np.testing.assert_allclose(counts, np.full(7, 1 / 7), atol=0.02)
    logits = np.log(np.array([[0.1, 0.2, 0.7]] * 20_000, np.float32))
    c = random.categorical(key, logits)
    assert c.shape == (20_000,)
    np.testing.assert_allclose(np.bincount(c, minlength=3) / c.size,
                               [0.1, 0.2, 0.7], atol=0.015)


def test_per_example_keys_under_vmap():
    keys = random.split(random.PRNGKey(1), 4)
    got = tracec.vmap(lambda k: random.normal(k, (3,)))(keys)
    want = np.stack([random.normal(k, (3,)) for k in keys])
    np.testing.assert_array_equal(got, want)


def test_gradient_through_keyed_dropout():
    key = random.PRNGKey(4)
    x = np.arange(1.0, 9.0)

    def loss(x):
        keep = random.uniform(key, (8,), np.float64) >= 0.5
        return tnp.sum(tnp.where(keep, x * x, 0.0))

    keep = random.uniform(key, (8,), np.float64) >= 0.5
    np.testing.assert_array_equal(tracec.grad(loss)(x), np.where(keep, 2 * x, 0))


def test_stateful_forms_still_work():
    a = random.uniform((4,), seed=3)
    b = random.normal((2, 2), 0.0, 2.0, seed=1)
    assert a.shape == (4,) and b.shape == (2, 2)
    assert random.uniform([3], -1.0, 1.0).shape == (3,)


def test_bad_keys_are_type_errors():
    with pytest.raises(TypeError, match="random key"):
        random.uniform(np.zeros(3, np.int32), (2,))
    with pytest.raises(TypeError, match="random key"):
        random.split(np.zeros(2, np.float32))
    with pytest.raises(ValueError, match="num >= 1"):
        random.split(random.PRNGKey(0), 0)


def test_dropout_with_a_key_is_the_keys_mask():
    key = random.PRNGKey(8)
    x = np.ones((4, 5), np.float32)
    a = tracec.nn.dropout(x, 0.25, key=key)
    b = tracec.jit(lambda x: tracec.nn.dropout(x, 0.25, key=key))(x)
    np.testing.assert_array_equal(a, b)
    keep = random.uniform(key, (4, 5)) >= 0.25
    np.testing.assert_array_equal(a, np.where(keep, np.float32(1 / 0.75), 0))
