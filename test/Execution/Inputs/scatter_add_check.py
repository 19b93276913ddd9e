"""Inputs and NumPy references for scatter-add.test.

    scatter_add_check.py inputs DIR N   writes the .npy inputs (size N)
    scatter_add_check.py check DIR N    compares DIR/<entry>_result<k>.npy

scatter_add's reference is np.add.at at the indices clamped to
[0, dim - 1], as trace.gather clamps them. max_pool2d_select's picks t at
the first maximum of x in row-major window order (padding never wins).
"""
import numpy as np

from results_check import main


def inputs(n):
    rng = np.random.RandomState(n)
    f32 = lambda *shape: rng.randn(*shape).astype(np.float32)
    rows = 3 + n
    x = f32(2, 5, 5, 3)
    # Ties: a row of equal values, so the first maximum must win.
    x[0, 0, :, 0] = 1.0
    xd = f32(n, 4 + n % 3, 5 + n % 2, 3)
    xd[:, 0, :, 1] = 2.0
    return {
        # Duplicates (3 three times) and out-of-range (-2, 6, 40).
        "t": f32(6, 4), "i": np.array([3, 0, 3, -2, 5, 6, 3, 40, 1],
                                      np.int32), "u": f32(9, 4),
        "td": f32(rows, n + 2),
        "id": rng.randint(-2, rows + 2, 4 * n + 1).astype(np.int32),
        "ud": f32(4 * n + 1, n + 2),
        "a": rng.randn(2, 5, 3), "ia": np.array([[4, 0], [9, 4]], np.int64),
        "ua": rng.randn(2, 2, 2, 3),
        "b": f32(3, 5), "ib": np.array([1, 1, -1, 7], np.int32),
        "ub": f32(3, 4),
        "c": np.arange(5, dtype=np.int32),
        "ic": np.array([0, 4, 4, 2, -3, 9], np.int32),
        "uc": np.array([10, 20, 30, 40, 50, 60], np.int32),
        "x": x, "x_t": f32(2, 5, 5, 3), "xd": xd, "xd_t": f32(*xd.shape),
    }


def scatter_add(operand, indices, updates, axis):
    out = np.array(operand, copy=True)
    axis %= out.ndim
    clamped = np.clip(indices, 0, out.shape[axis] - 1)
    index = (slice(None),) * axis + (clamped,)
    np.add.at(out, index, updates)
    return out


def max_pool_select(x, t, k, s, padding):
    top, bottom, left, right = padding
    pad = ((0, 0), (top, bottom), (left, right), (0, 0))
    xp = np.pad(x, pad, constant_values=-np.inf)
    tp = np.pad(t, pad)
    n, h, w, c = xp.shape
    oh, ow = (h - k) // s + 1, (w - k) // s + 1
    out = np.zeros((n, oh, ow, c), t.dtype)
    for b in range(n):
        for i in range(oh):
            for j in range(ow):
                for ch in range(c):
                    win = xp[b, i * s:i * s + k, j * s:j * s + k, ch]
                    r, q = np.unravel_index(np.argmax(win), win.shape)
                    out[b, i, j, ch] = tp[b, i * s + r, j * s + q, ch]
    return out


def expected(i):
    return {
        "scatter_static": [scatter_add(i["t"], i["i"], i["u"], 0)],
        "scatter_dynamic": [scatter_add(i["td"], i["id"], i["ud"], 0)],
        "scatter_axes": [scatter_add(i["a"], i["ia"], i["ua"], 1),
                         scatter_add(i["b"], i["ib"], i["ub"], -1),
                         scatter_add(i["c"], i["ic"], i["uc"], 0)],
        "select_static": [max_pool_select(i["x"], i["x_t"], 2, 2, (0,) * 4),
                          max_pool_select(i["x"], i["x_t"], 3, 2, (1,) * 4)],
        "select_dynamic": [max_pool_select(i["xd"], i["xd_t"], 3, 2,
                                           (1,) * 4)],
        "sparse_sgd": [scatter_add(i["t"], i["i"],
                                   np.float32(-0.5) * i["u"], 0)],
    }


main(inputs, expected, rtol=1e-5, atol=1e-5, check_dtype=True)
