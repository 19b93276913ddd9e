"""Inputs and NumPy references for dynamic-ops.test.

    dynamic_ops_check.py inputs DIR N   writes the .npy inputs with batch N
    dynamic_ops_check.py check DIR N    compares DIR/<entry>_result<k>.npy
"""
import numpy as np

from results_check import main


def inputs(n):
    rng = np.random.RandomState(n)
    f32 = lambda *shape: rng.randn(*shape).astype(np.float32)
    # Spatial sizes that vary with n, for conv_spatial.
    h, w = 4 + n % 5, 3 + n % 4
    return {"x": f32(n, 6), "y": f32(n, 2), "b": f32(2, 6),
            "i": rng.randint(-1, n + 1, n).astype(np.int32),
            "x8": f32(2 * ((n + 1) // 2), 6),
            "img": f32(n, 6, 6, 3), "f": f32(3, 3, 3, 4),
            "dy": f32(n, 6, 6, 4), "dp": f32(n, 3, 3, 3),
            "simg": f32(n, h, w, 3),
            # Rows of n + 13: a remainder of a vector, and full ones from 7.
            "xi": f32(3, n + 13), "bi": f32(n + 13)}


def pad_hw(x, top, bottom, left, right, value=0.0):
    return np.pad(x, ((0, 0), (top, bottom), (left, right), (0, 0)),
                  constant_values=value)


def windows(x, kh, kw, sh, sw):
    """x[n, oh*sh + i, ow*sw + j, c] as [n, oh, ow, i, j, c]."""
    oh = (x.shape[1] - kh) // sh + 1
    ow = (x.shape[2] - kw) // sw + 1
    out = np.empty((x.shape[0], oh, ow, kh, kw, x.shape[3]), x.dtype)
    for i in range(kh):
        for j in range(kw):
            out[:, :, :, i, j, :] = x[:, i:i + sh * oh:sh, j:j + sw * ow:sw, :]
    return out


def conv2d(x, f, strides=(1, 1), padding=(0, 0, 0, 0)):
    cols = windows(pad_hw(x, *padding), f.shape[0], f.shape[1], *strides)
    return np.einsum("nhwijc,ijcf->nhwf", cols, f)


def avg_pool(x, k, strides, padding):
    total = windows(pad_hw(x, *padding), k, k, *strides).sum((3, 4))
    count = windows(pad_hw(np.ones_like(x), *padding), k, k,
                    *strides).sum((3, 4))
    return total / count


def conv_backprop_filter(x, dy, kh, kw, padding):
    cols = windows(pad_hw(x, *padding), kh, kw, 1, 1)
    return np.einsum("nhwijc,nhwf->ijcf", cols, dy)


def max_pool_grad(x, dp, k, s):
    # The first maximum of each window (row-major) receives dy.
    dx = np.zeros_like(x)
    cols = windows(x, k, k, s, s)
    n, oh, ow, _, _, c = cols.shape
    flat = cols.transpose(0, 1, 2, 5, 3, 4).reshape(n, oh, ow, c, k * k)
    first = flat.argmax(-1)
    for a in range(n):
        for p in range(oh):
            for q in range(ow):
                for ch in range(c):
                    i, j = divmod(first[a, p, q, ch], k)
                    dx[a, p * s + i, q * s + j, ch] += dp[a, p, q, ch]
    return dx


def expected(i):
    x = i["x"].astype(np.float64)
    img = i["img"].astype(np.float64)
    f = i["f"].astype(np.float64)
    gathered = x[np.clip(i["i"], 0, len(x) - 1)]
    return {
        "shape_ops": [np.concatenate([x, i["b"]], 0),
                      np.concatenate([x, i["y"]], 1),
                      np.concatenate([x[0:1, 1:6:2]] * 2, 0),
                      np.pad(x, ((1, 0), (2, 1)), constant_values=1.5),
                      gathered, x.reshape(3, -1), x.argmax(1)],
        "reshape_rows": [i["x8"].reshape(-1, 4)],
        "inner_dim": [np.tanh(i["xi"].astype(np.float64) + i["bi"]),
                      i["xi"].astype(np.float64).sum(1),
                      np.exp(i["bi"].astype(np.float64))],
        "nn_ops": [conv2d(img, f, padding=(1, 1, 1, 1)),
                   conv2d(img, f, strides=(2, 2)),
                   windows(img, 2, 2, 2, 2).max((3, 4)),
                   avg_pool(img, 3, (2, 2), (1, 0, 1, 0)),
                   conv_backprop_filter(img, i["dy"], 3, 3, (1, 1, 1, 1)),
                   max_pool_grad(img, i["dp"], 2, 2)],
        "conv_spatial": [conv2d(i["simg"], f, strides=(2, 1),
                                padding=(1, 0, 0, 1)),
                         avg_pool(i["simg"], 2, (2, 2), (1, 1, 0, 0))],
    }


# The NN entries are not run at 64.
main(inputs, expected, rtol=1e-4, atol=1e-4, optional=lambda n: n == 64)
