"""An independent NumPy model of trace.random_uniform / trace.random_normal.

Philox4x32-10 as in Random123 (checked against its known-answer vectors when
run as a script), and the mapping of docs/guides/dialect.md ("Random numbers
and print"): element i of run n of an op with seed s draws
    (x0, x1, x2, x3) = philox(counter=(lo(i), hi(i), lo(n), hi(n)), key=s).
"""
import math
import sys

import numpy as np

M0, M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
W0, W1 = 0x9E3779B9, 0xBB67AE85
MASK = np.uint64(0xFFFFFFFF)


def philox4x32(counter, key):
    """counter: four uint32 arrays; key: a 64-bit int. Four uint32 arrays."""
    c = [np.asarray(w, dtype=np.uint64) for w in counter]
    k0, k1 = key & 0xFFFFFFFF, (key >> 32) & 0xFFFFFFFF
    for _ in range(10):
        p0, p1 = M0 * c[0], M1 * c[2]
        c = [(p1 >> np.uint64(32)) ^ c[1] ^ np.uint64(k0), p1 & MASK,
             (p0 >> np.uint64(32)) ^ c[3] ^ np.uint64(k1), p0 & MASK]
        k0, k1 = (k0 + W0) & 0xFFFFFFFF, (k1 + W1) & 0xFFFFFFFF
    return [w.astype(np.uint32) for w in c]


def words(shape, seed, run):
    n = int(np.prod(shape, dtype=np.int64))
    i = np.arange(n, dtype=np.uint64)
    counter = [i & MASK, i >> np.uint64(32),
               np.full(n, run & 0xFFFFFFFF, np.uint64),
               np.full(n, run >> 32, np.uint64)]
    return philox4x32(counter, seed & 0xFFFFFFFFFFFFFFFF)


def uniform01(hi, lo, wide):
    """NumPy's floats from the top bits: 24 of a word, or 53 of two."""
    if not wide:
        return (hi >> np.uint32(8)).astype(np.float32) * np.float32(2.0**-24)
    word = (hi.astype(np.uint64) << np.uint64(32)) | lo.astype(np.uint64)
    return (word >> np.uint64(11)).astype(np.float64) * 2.0**-53


def compute_type(dtype):
    return np.float64 if dtype == np.float64 else np.float32


def uniform(shape, dtype, seed, run, low=0.0, high=1.0):
    x = words(shape, seed, run)
    ct = compute_type(dtype)
    u = uniform01(x[0], x[1], ct == np.float64)
    v = (ct(low) + u * ct(high - low)).astype(dtype)
    below_high = np.nextafter(np.asarray(high, dtype), np.asarray(-np.inf, dtype))
    return np.minimum(v, below_high).reshape(shape)


def normal(shape, dtype, seed, run, mean=0.0, stddev=1.0):
    x = words(shape, seed, run)
    ct = compute_type(dtype)
    wide = ct == np.float64
    u1 = ct(1.0) - uniform01(x[0], x[1], wide)
    u2 = uniform01(x[2], x[3], wide) if wide else uniform01(x[1], x[1], wide)
    z = np.sqrt(ct(-2.0) * np.log(u1)) * np.cos(ct(2 * math.pi) * u2)
    return (ct(mean) + ct(stddev) * z).astype(dtype).reshape(shape)


def ks_statistic(sample, cdf):
    """Kolmogorov-Smirnov distance between a sample and a continuous CDF."""
    x = np.sort(np.asarray(sample, np.float64))
    n = len(x)
    f = cdf(x)
    return max(np.max(np.arange(1, n + 1) / n - f), np.max(f - np.arange(n) / n))


def normal_cdf(x, mean=0.0, stddev=1.0):
    erf = np.vectorize(math.erf)
    return 0.5 * (1 + erf((x - mean) / (stddev * math.sqrt(2))))


KNOWN_ANSWERS = [  # Random123 tests/kat_vectors, philox4x32 10
    ((0, 0, 0, 0), 0, (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((0xFFFFFFFF,) * 4, 0xFFFFFFFFFFFFFFFF,
     (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344),
     0x299F31D0A4093822, (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
]

if __name__ == "__main__":
    for counter, key, expected in KNOWN_ANSWERS:
        got = tuple(int(np.asarray(w).ravel()[0]) for w in philox4x32(
            [np.array([w], np.uint64) for w in counter], key))
        print("ok known answer" if got == expected else
              f"FAIL known answer: {[hex(w) for w in got]}")
    sys.exit(0)
