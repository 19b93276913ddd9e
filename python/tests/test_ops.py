"""tracec.numpy / nn / random ops, eagerly and traced, against NumPy and
PyTorch; implicit gradients; Module tracking; op errors."""
import numpy as np
import pytest
import torch

import tracec
import tracec.numpy as tnp


def f32(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


X = f32(3, 4)
CASES = [
    ("exp", lambda m: m.exp(X), np.exp(X)),
    ("log1p", lambda m: m.log1p(np.abs(X)), np.log1p(np.abs(X))),
    ("sum", lambda m: m.sum(X, axis=1), X.sum(1)),
    ("mean", lambda m: m.mean(X, axis=0, keepdims=True), X.mean(0, keepdims=True)),
    ("max", lambda m: m.max(X), X.max()),
    ("prod", lambda m: m.prod(X, axis=1, keepdims=True), X.prod(1, keepdims=True)),
    ("argmax", lambda m: m.argmax(X, axis=1), X.argmax(1)),
    ("maximum", lambda m: m.maximum(X, 0.5), np.maximum(X, 0.5)),
    ("where", lambda m: m.where(X > 0, X, 0.0), np.where(X > 0, X, 0)),
    ("reshape", lambda m: m.reshape(X, (2, -1)), X.reshape(2, -1)),
    ("transpose", lambda m: m.transpose(X), X.T),
    ("concatenate", lambda m: m.concatenate([X, X], axis=0), np.concatenate([X, X])),
    ("stack", lambda m: m.stack([X, X], axis=1), np.stack([X, X], axis=1)),
    ("pad", lambda m: m.pad(X, [(1, 0), (0, 2)]), np.pad(X, [(1, 0), (0, 2)])),
    ("take", lambda m: m.take(X, np.array([2, 0], np.int32), axis=1), X[:, [2, 0]]),
    ("getitem", lambda m: m.sqrt(m.abs(X))[1:, ::2], np.sqrt(np.abs(X))[1:, ::2]),
    ("getitem_int", lambda m: m.exp(X)[-1, None, 1:3], np.exp(X)[-1, None, 1:3]),
    ("zeros", lambda m: m.zeros((2, 3)) + 1.0, np.ones((2, 3))),
    ("astype", lambda m: m.astype(X, np.int32), X.astype(np.int32)),
    ("matmul", lambda m: m.matmul(X, X.T), X @ X.T),
    ("matmul_vectors", lambda m: m.matmul(X[0], m.transpose(X))
     + m.matmul(X, X[1]) + m.matmul(X[0], X[1]),
     X[0] @ X.T + X @ X[1] + X[0] @ X[1]),
    ("power", lambda m: m.power(np.abs(X), 1.5), np.abs(X) ** 1.5),
    ("argmin", lambda m: m.argmin(X, axis=0), X.argmin(0)),
    ("clip", lambda m: m.clip(X, -0.5, 0.5), np.clip(X, -0.5, 0.5)),
    ("std", lambda m: m.std(X, axis=1), X.std(1)),
    ("squeeze", lambda m: m.squeeze(m.reshape(X, (3, 1, 4))), X),
    ("ravel", lambda m: m.ravel(X), X.ravel()),
    ("log", lambda m: m.log(m.abs(X)), np.log(np.abs(X))),
    ("min", lambda m: m.min(X, axis=(0, 1)), X.min()),
    ("var", lambda m: m.var(X, axis=0), X.var(0)),
    ("ones_full", lambda m: m.add(m.ones((2, 2)), m.full((2, 2), 3.0)),
     np.full((2, 2), 4.0)),
    ("ones_like", lambda m: m.ones_like(X), np.ones_like(X)),
    ("expand_dims", lambda m: m.expand_dims(X, 1), X[:, None]),
    ("broadcast_to", lambda m: m.broadcast_to(X[0], (2, 4)),
     np.broadcast_to(X[0], (2, 4))),
    ("arange", lambda m: m.arange(5), np.arange(5)),
    ("take_rows", lambda m: m.exp(X)[np.array([2, 0, 2], np.int32)],
     np.exp(X)[[2, 0, 2]]),
    ("operators", lambda m: (-m.exp(X) / 2.0 - 1.0) ** 2.0 @ m.transpose(X)
     + 3.0 * m.exp(X)[:, :3], (-np.exp(X) / 2 - 1) ** 2 @ X.T
     + 3 * np.exp(X)[:, :3]),
    ("comparisons", lambda m: m.astype((m.exp(X) > 1.0), np.int32)
     + m.astype(m.exp(X) <= 0.5, np.int32) + m.astype(m.equal(X, X), np.int32),
     (np.exp(X) > 1).astype(np.int32) + (np.exp(X) <= 0.5).astype(np.int32)
     + 1),
]


@pytest.mark.parametrize("name,fn,expected", CASES, ids=[c[0] for c in CASES])
def test_op_eagerly_and_traced_against_numpy(name, fn, expected):
    eager = fn(tnp)
    traced = tracec.function(lambda: fn(tnp))()
    np.testing.assert_allclose(eager, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(traced, expected, rtol=1e-5, atol=1e-6)
    assert eager.shape == np.shape(expected)


LIBM = ["exp", "log", "log1p", "tanh", "sin", "cos", "sqrt"]


@pytest.mark.parametrize("name", LIBM)
def test_f64_ops_eagerly_and_traced(name):
    # f64 math lowers to libm calls: an eager op named as the libm function
    # must not call itself.
    x = np.abs(X.astype(np.float64)) + 0.5
    op = getattr(tnp, name)
    expected = getattr(np, name)(x)
    np.testing.assert_allclose(op(x), expected, rtol=1e-12)
    np.testing.assert_allclose(tracec.function(op)(x), expected, rtol=1e-12)


def test_nn_activations_and_losses_against_torch():
    t = torch.from_numpy(X)
    labels = np.array([1, 0, 3], np.int32)
    dense = torch.softmax(torch.from_numpy(f32(3, 4, seed=3)), -1).numpy()
    for fn in (lambda m: m, tracec.function):
        np.testing.assert_allclose(fn(tracec.nn.relu)(X), torch.relu(t),
                                   rtol=1e-6)
        np.testing.assert_allclose(fn(tracec.nn.sigmoid)(X), torch.sigmoid(t),
                                   rtol=1e-5, atol=1e-7)
        sparse = fn(tracec.nn.sparse_softmax_cross_entropy_with_logits)(
            labels, X)
        np.testing.assert_allclose(sparse, torch.nn.functional.cross_entropy(
            t, torch.from_numpy(labels).long(), reduction="none"), rtol=1e-5)
        xent = fn(tracec.nn.softmax_cross_entropy_with_logits)(dense, X)
        np.testing.assert_allclose(xent, torch.nn.functional.cross_entropy(
            t, torch.from_numpy(dense), reduction="none"), rtol=1e-5)
        np.testing.assert_array_equal(
            fn(lambda i: tracec.nn.one_hot(i, 4, axis=0))(labels),
            np.eye(4, dtype=np.float32)[labels].T)


def test_nn_ops_against_torch():
    x = f32(2, 5, 5, 3)
    k = f32(3, 3, 3, 4, seed=1)
    t = torch.from_numpy(x).permute(0, 3, 1, 2)
    np.testing.assert_allclose(tracec.nn.gelu(X), torch.nn.functional.gelu(torch.from_numpy(X)),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(tracec.nn.softmax(X), torch.softmax(torch.from_numpy(X), -1),
                               rtol=1e-5)
    np.testing.assert_allclose(tracec.nn.log_softmax(X, axis=0),
                               torch.log_softmax(torch.from_numpy(X), 0), rtol=1e-5)
    conv = tracec.nn.conv2d(x, k, strides=2, padding="SAME")
    expected = torch.nn.functional.conv2d(t, torch.from_numpy(k).permute(3, 2, 0, 1),
                                          stride=2, padding=1).permute(0, 2, 3, 1)
    np.testing.assert_allclose(conv, expected, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(tracec.nn.max_pool2d(x, 2),
                               torch.max_pool2d(t, 2).permute(0, 2, 3, 1), rtol=1e-6)
    np.testing.assert_allclose(tracec.nn.avg_pool2d(x, 3, strides=1),
                               torch.nn.functional.avg_pool2d(t, 3, 1).permute(0, 2, 3, 1),
                               rtol=1e-5)
    np.testing.assert_array_equal(tracec.nn.one_hot([2, 0], 3), np.eye(3)[[2, 0]])


def test_pooling_windows_against_torch():
    """Windows compiled as strided taps (the CPU pipeline's small-window
    route): odd sizes, channels that fill no vector, strides that skip
    rows, windows that overlap, a NaN, and a window too big for taps."""
    for (n, h, w, c), window, strides in [((3, 9, 11, 19), (3, 3), (2, 2)),
                                          ((2, 7, 8, 5), (2, 3), (1, 2)),
                                          ((1, 10, 10, 33), (4, 4), (3, 3)),
                                          ((2, 9, 9, 17), (9, 9), (1, 1))]:
        x = f32(n, h, w, c, seed=h)
        x[0, 1, 2, 3 % c] = np.nan
        t = torch.from_numpy(x).permute(0, 3, 1, 2)
        got_max = tracec.nn.max_pool2d(x, window, strides=strides)
        got_avg = tracec.nn.avg_pool2d(x, window, strides=strides)
        want_max = torch.nn.functional.max_pool2d(t, window, strides)
        want_avg = torch.nn.functional.avg_pool2d(t, window, strides)
        np.testing.assert_allclose(got_max, want_max.permute(0, 2, 3, 1), rtol=1e-6)
        np.testing.assert_allclose(got_avg, want_avg.permute(0, 2, 3, 1), rtol=1e-5,
                                   atol=1e-6)


@pytest.mark.parametrize("pool", ["max", "avg"])
def test_pooling_gradients_against_torch(pool):
    """Pooling gradients at f64 (compiled as strided taps where the window
    is small): odd sizes, overlapping and skipping strides, SAME padding,
    ties inside a window (the first maximum in row-major window order takes
    the gradient, as PyTorch's)."""
    cases = [((2, 9, 11, 19), (3, 3), (2, 2), "VALID"),
             ((2, 7, 8, 5), (2, 3), (1, 2), "VALID"),
             ((1, 7, 7, 17), (3, 3), (2, 2), "SAME"),
             ((2, 8, 8, 16), (2, 2), (2, 2), "VALID")]
    for shape, window, strides, padding in cases:
        x = np.random.default_rng(shape[1]).standard_normal(shape)
        x[:, ::2, ::3, :] = 0.5  # ties
        weights = np.random.default_rng(1).standard_normal(
            tracec.function(lambda a: getattr(tracec.nn, pool + "_pool2d")(
                a, window, strides=strides, padding=padding))(x).shape)

        def loss(a):
            pooled = getattr(tracec.nn, pool + "_pool2d")(
                a, window, strides=strides, padding=padding)
            return tnp.sum(pooled * weights)

        got = tracec.grad(loss)(x)
        t = torch.from_numpy(x).permute(0, 3, 1, 2).requires_grad_()
        pad = [(k - 1) // 2 for k in window] if padding == "SAME" else [0, 0]
        if pool == "max":
            padded = torch.nn.functional.pad(
                t, (pad[1], pad[1], pad[0], pad[0]), value=-float("inf"))
            out = torch.nn.functional.max_pool2d(padded, window, strides)
        else:
            ones = torch.nn.functional.pad(torch.ones_like(t),
                                           (pad[1], pad[1], pad[0], pad[0]))
            padded = torch.nn.functional.pad(t, (pad[1], pad[1], pad[0], pad[0]))
            # Padding counts for nothing (TensorFlow's SAME average).
            out = (torch.nn.functional.avg_pool2d(padded, window, strides)
                   / torch.nn.functional.avg_pool2d(ones, window, strides))
        (out.permute(0, 2, 3, 1) * torch.from_numpy(weights)).sum().backward()
        np.testing.assert_allclose(got, t.grad.permute(0, 2, 3, 1), rtol=1e-12,
                                   atol=1e-12, err_msg=str((shape, window, strides,
                                                            padding)))


def test_random_is_seeded():
    @tracec.function
    def draw():
        return tracec.random.uniform((1000,), -1.0, 1.0, seed=3), \
            tracec.random.normal((1000,), 2.0, 0.5, seed=4)

    u1, n1 = draw()
    u2, _ = draw()
    assert u1.min() >= -1 and u1.max() < 1 and abs(u1.mean()) < 0.1
    assert abs(n1.mean() - 2.0) < 0.1 and abs(n1.std() - 0.5) < 0.05
    assert not np.array_equal(u1, u2)  # new numbers at every call
    again = tracec.function(lambda: tracec.random.uniform((1000,), -1.0, 1.0, seed=3))()
    np.testing.assert_array_equal(again, u1)  # a fresh compile repeats them


def test_prod_gradient_with_zeros_against_torch():
    # Rows with no zero, one zero, two zeros.
    x = np.array([[2, -3, 0.5, 4], [1.5, 0, 2, -1], [0, 3, 0, 2]], np.float32)
    g = tracec.grad(lambda x: tnp.sum(tnp.prod(x, axis=1) * np.float32(2)))(x)
    t = torch.tensor(x, requires_grad=True)
    (t.prod(1) * 2).sum().backward()
    np.testing.assert_allclose(g, t.grad.numpy(), rtol=1e-6)


def test_stop_gradient():
    g = tracec.grad(lambda x: tnp.sum(x * tracec.stop_gradient(x)))(X)
    np.testing.assert_allclose(g, X, rtol=1e-6)


def test_implicit_gradients_and_gradients_function():
    w = tracec.Variable(f32(4, 2))

    def loss(x):
        return tnp.sum(tnp.square(x @ w))

    value, grads_and_vars = tracec.implicit_value_and_grad(loss)(X)
    (g, v), = grads_and_vars
    assert v is w
    np.testing.assert_allclose(g, 2 * X.T @ (X @ w.numpy()), rtol=1e-4)
    np.testing.assert_allclose(value, np.sum((X @ w.numpy()) ** 2), rtol=1e-5)
    assert tracec.implicit_grad(loss)(X)[0][1] is w
    gx, gy = tracec.gradients_function(lambda x, y: tnp.sum(x * y))(X, 2 * X)
    np.testing.assert_allclose(gx, 2 * X)
    np.testing.assert_allclose(gy, X)
    with pytest.raises(ValueError, match="reads no trainable tracec.Variable"):
        tracec.implicit_grad(lambda x: tnp.sum(x))(X)


def test_module_tracks_nested_variables():
    class Layer(tracec.Module):
        def __init__(self):
            super().__init__()
            self.w = tracec.Variable(np.zeros(2, np.float32))
            self.frozen = tracec.Variable(np.zeros(1, np.float32), trainable=False)

    class Net(tracec.Module):
        def __init__(self):
            super().__init__()
            self.layers = [Layer(), Layer()]
            self.extra = {"b": tracec.Variable(np.zeros(3, np.float32))}

    net = Net()
    assert len(net.variables) == 5 and len(net.trainable_variables) == 3
    assert len(net.submodules) == 2


def test_op_errors_name_the_problem():
    with pytest.raises(TypeError, match="is a str, not an array"):
        tracec.function(lambda x: tnp.exp(x) + "a")(X)
    with pytest.raises(TypeError, match="not supported by tracec"):
        tnp.exp(np.zeros(2, np.complex64))
    with pytest.raises(tracec.TraceError, match="trace.matmul"):
        tnp.matmul(X, X)
    with pytest.raises(IndexError, match="out of bounds"):
        tracec.function(lambda x: x[5])(X)
    with pytest.raises(tracec.TraceError, match="only be recorded while a "
                       "function is being traced"):
        leaked = []
        tracec.function(lambda x: leaked.append(x) or x)(X)
        tnp.exp(leaked[0])
