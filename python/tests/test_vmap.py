"""tracec.vmap (JAX's batching transform as the compiler's trace-vmap
pass): batched results against a Python loop of the unbatched function and
NumPy, per-example gradients against PyTorch at f64, composition with grad,
jvp, jit and itself, and the errors."""
import numpy as np
import pytest
import torch

import tracec
import tracec.numpy as tnp


rng = np.random.default_rng(0)


def loop(f, *args, in_axes=0):
    """f applied per example and stacked: the reference."""
    axes = in_axes if isinstance(in_axes, tuple) else (in_axes,) * len(args)
    n = next(np.shape(a)[ax] for a, ax in zip(args, axes) if ax is not None)
    outs = [f(*[a if ax is None else np.take(a, i, axis=ax)
                for a, ax in zip(args, axes)]) for i in range(n)]
    return np.stack([np.asarray(o) for o in outs])


def test_layer_over_a_batch_matches_the_loop():
    w = rng.standard_normal((4, 3)).astype(np.float32)
    b = rng.standard_normal(4).astype(np.float32)
    xs = rng.standard_normal((8, 3)).astype(np.float32)

    def layer(x, w, b):
        return tnp.tanh(tnp.dot(w, x) + b)

    got = tracec.vmap(layer, in_axes=(0, None, None))(xs, w, b)
    assert got.shape == (8, 4)
    np.testing.assert_allclose(got, np.tanh(xs @ w.T + b), rtol=1e-5,
                               atol=1e-6)


def test_in_axes_and_out_axes_move_the_batch_dim():
    xs = rng.standard_normal((3, 5)).astype(np.float32)
    ys = rng.standard_normal((5, 3)).astype(np.float32)
    f = tracec.vmap(lambda x, y: x * y + tnp.sum(x), in_axes=(1, 0),
                    out_axes=1)
    expected = loop(lambda x, y: x * y + np.sum(x), xs, ys, in_axes=(1, 0))
    np.testing.assert_allclose(f(xs, ys), expected.T, rtol=1e-5)
    neg = tracec.vmap(lambda x: x * 2.0, in_axes=-1, out_axes=-1)(xs)
    np.testing.assert_allclose(neg, xs * 2.0)


def test_shape_ops_reductions_and_softmax_per_example():
    xs = rng.standard_normal((6, 4, 3))

    def f(x):
        t = tnp.transpose(x)                       # 3x4
        r = tnp.reshape(t, (12,))
        c = tnp.concatenate([r[2:], r[:2]])        # slice, concat
        m = tnp.max(x, axis=0) - tnp.mean(x, axis=1).sum()
        s = tracec.nn.softmax(x, axis=-1)
        return c, m, tnp.argmax(x, axis=1), s, tnp.broadcast_to(m, (2, 3))

    got = tracec.vmap(f)(xs)

    def ref(x):
        r = x.T.reshape(12)
        e = np.exp(x - x.max(-1, keepdims=True))
        m = x.max(0) - x.mean(1).sum()
        return (np.concatenate([r[2:], r[:2]]), m, np.argmax(x, 1),
                e / e.sum(-1, keepdims=True), np.broadcast_to(m, (2, 3)))
    expected = [np.stack(parts) for parts in zip(*[ref(x) for x in xs])]
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-12, atol=1e-12)


def test_embedding_lookup_with_indices_per_example():
    table = rng.standard_normal((10, 4)).astype(np.float32)
    ids = rng.integers(0, 10, size=(5, 3)).astype(np.int32)
    got = tracec.vmap(lambda i, t: tnp.take(t, i, axis=0) * 2.0,
                      in_axes=(0, None))(ids, table)
    np.testing.assert_allclose(got, table[ids] * 2.0)
    cols = tracec.vmap(lambda i, t: tnp.take(t, i, axis=1),
                       in_axes=(0, None))(ids[:, :2] % 4, table)
    np.testing.assert_allclose(cols, np.stack([table[:, i] for i in
                                               ids[:, :2] % 4]))


def test_pytrees_in_and_out():
    params = {"w": rng.standard_normal(3), "b": np.float64(0.5)}
    xs = rng.standard_normal((4, 3))

    def f(p, x):
        y = tnp.dot(p["w"], x) + p["b"]
        return {"y": y, "pair": (x * 2.0, y)}

    got = tracec.vmap(f, in_axes=({"w": None, "b": None}, 0))(params, xs)
    y = xs @ params["w"] + 0.5
    np.testing.assert_allclose(got["y"], y)
    np.testing.assert_allclose(got["pair"][0], xs * 2.0)
    np.testing.assert_allclose(got["pair"][1], y)


def mlp_loss(params, x, y):
    h = tnp.tanh(tnp.dot(x, params["w1"]) + params["b1"])
    out = tnp.dot(h, params["w2"]) + params["b2"]
    return tnp.sum((out - y) ** 2)


def test_per_example_gradients_match_pytorch_at_f64():
    params = {"w1": rng.standard_normal((5, 8)), "b1": rng.standard_normal(8),
              "w2": rng.standard_normal((8, 2)), "b2": rng.standard_normal(2)}
    xs, ys = rng.standard_normal((7, 5)), rng.standard_normal((7, 2))
    grads = tracec.vmap(tracec.grad(mlp_loss), in_axes=(None, 0, 0))(
        params, xs, ys)
    for k in range(len(xs)):
        tp = {n: torch.tensor(v, requires_grad=True)
              for n, v in params.items()}
        h = torch.tanh(torch.tensor(xs[k]) @ tp["w1"] + tp["b1"])
        loss = ((h @ tp["w2"] + tp["b2"] - torch.tensor(ys[k])) ** 2).sum()
        loss.backward()
        for n in params:
            assert grads[n].shape == (7,) + np.shape(params[n])
            np.testing.assert_allclose(grads[n][k], tp[n].grad.numpy(),
                                       rtol=1e-10, atol=1e-12)


def test_value_and_grad_under_vmap_and_grad_of_vmap():
    w = rng.standard_normal(3)
    xs = rng.standard_normal((4, 3))

    def loss(w, x):
        return tnp.sum(tnp.sin(w * x))
    values, grads = tracec.vmap(tracec.value_and_grad(loss),
                                in_axes=(None, 0))(w, xs)
    np.testing.assert_allclose(values, np.sin(w * xs).sum(1))
    np.testing.assert_allclose(grads, np.cos(w * xs) * xs, rtol=1e-12)
    # grad of a vmapped function: the gradient of the batch's total.
    g = tracec.grad(lambda w: tnp.sum(tracec.vmap(loss, in_axes=(None, 0))(
        w, xs)))(w)
    np.testing.assert_allclose(g, (np.cos(w * xs) * xs).sum(0), rtol=1e-12)


def test_jacobian_as_vmap_of_jvp():
    x = rng.standard_normal(4)

    def f(x):
        return tnp.tanh(x) * tnp.sum(x ** 2)

    def column(t):
        return tracec.jvp(f, (x,), (t,))[1]
    jac = tracec.vmap(column, out_axes=1)(np.eye(4))
    np.testing.assert_allclose(jac, tracec.jacfwd(f)(x), rtol=1e-12)


def test_nested_vmap_is_a_pairwise_map():
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((5, 4))

    def dist(u, v):
        return tnp.sqrt(tnp.sum((u - v) ** 2))
    d = tracec.vmap(tracec.vmap(dist, in_axes=(None, 0)), in_axes=(0, None))(
        a, b)
    np.testing.assert_allclose(
        d, np.sqrt(((a[:, None] - b[None]) ** 2).sum(-1)), rtol=1e-12)


def test_inside_jit_with_keywords_and_captured_values_and_variables():
    scale = tracec.Variable(np.float32(3.0))
    shift = np.float32(1.0)

    @tracec.jit
    def step(xs):
        return tracec.vmap(lambda x, *, k: tnp.sum(x) * scale + shift + k)(
            xs, k=xs[:, 0])
    xs = rng.standard_normal((4, 2)).astype(np.float32)
    np.testing.assert_allclose(step(xs), xs.sum(1) * 3.0 + 1.0 + xs[:, 0],
                               rtol=1e-6)


def test_errors_are_clear():
    xs = np.ones((3, 2), np.float32)
    with pytest.raises(ValueError, match="inconsistent sizes"):
        tracec.vmap(lambda x, y: x + y)(xs, np.ones((4, 2), np.float32))
    with pytest.raises(ValueError, match="at least one non-None"):
        tracec.vmap(lambda x: x, in_axes=None)(xs)
    with pytest.raises(ValueError, match="len\\(in_axes\\)=1, len\\(args\\)=2"):
        tracec.vmap(lambda x, y: x, in_axes=(0,))(xs, xs)
    with pytest.raises(ValueError, match="rank should be at least 3"):
        tracec.vmap(lambda x: x, in_axes=2)(xs)
    with pytest.raises(ValueError, match="out_axes=None"):
        tracec.vmap(lambda x: x, out_axes=None)(xs)
    with pytest.raises(TypeError, match="callable"):
        tracec.vmap(3)


def test_cond_per_example_and_for_the_batch():
    xs = rng.standard_normal((6, 3))

    def f(x, flag):
        return tracec.cond(tnp.sum(x) > 0, lambda: tnp.exp(x) * flag,
                           lambda: -x)
    got = tracec.vmap(f, in_axes=(0, None))(xs, 2.0)
    expected = np.stack([np.exp(x) * 2.0 if x.sum() > 0 else -x
                         for x in xs])
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    # One condition for the whole batch: the branch taken is the same.
    def g(x, s):
        return tracec.cond(s > 0, lambda: x * s, lambda: x - s)
    for s in (2.0, -1.0):
        got = tracec.vmap(g, in_axes=(0, None))(xs, np.float64(s))
        np.testing.assert_allclose(got, xs * s if s > 0 else xs - s)
    # Per-example gradients through a cond.
    w = rng.standard_normal(3)
    grads = tracec.vmap(tracec.grad(lambda w, x: tracec.cond(
        tnp.sum(w * x) > 0, lambda: tnp.sum(tnp.sin(w * x)),
        lambda: tnp.sum(w * w))), in_axes=(None, 0))(w, xs)
    expected = np.stack([np.cos(w * x) * x if (w * x).sum() > 0 else 2 * w
                         for x in xs])
    np.testing.assert_allclose(grads, expected, rtol=1e-12)


def test_assigning_a_variable_under_vmap_is_refused():
    v = tracec.Variable(np.zeros(3, np.float32))

    def f(x):
        v.assign_add(x)
        return x * 2.0
    with pytest.raises(tracec.TraceError,
                       match="every vmap.*pass the variable's value in"):
        tracec.vmap(f)(np.ones((4, 3), np.float32))
    np.testing.assert_array_equal(v.numpy(), np.zeros(3))


def rnn(w, x, n=4):
    """A loop carrying a state that starts the same for every example."""
    def body(i, h):
        return tnp.tanh(tnp.dot(w, h) + x[i])
    return tracec.fori_loop(0, n, body, tnp.zeros(w.shape[0], w.dtype))


def rnn_np(w, x, n=4):
    h = np.zeros(w.shape[0])
    for i in range(n):
        h = np.tanh(w @ h + x[i])
    return h


def test_loops_per_example_and_their_gradients():
    w = rng.standard_normal((3, 3)) * 0.5
    xs = rng.standard_normal((5, 4, 3))
    got = tracec.vmap(rnn, in_axes=(None, 0))(w, xs)
    np.testing.assert_allclose(got, loop(lambda x: rnn_np(w, x), xs),
                               rtol=1e-12)
    # Per-example gradients through the loop against PyTorch at f64.
    grads = tracec.vmap(tracec.grad(lambda w, x: tnp.sum(rnn(w, x) ** 2)),
                        in_axes=(None, 0))(w, xs)
    for k, x in enumerate(xs):
        tw = torch.tensor(w, requires_grad=True)
        h = torch.zeros(3, dtype=torch.float64)
        for i in range(4):
            h = torch.tanh(tw @ h + torch.tensor(x[i]))
        (h ** 2).sum().backward()
        np.testing.assert_allclose(grads[k], tw.grad.numpy(), rtol=1e-10,
                                   atol=1e-12)
    # The gradient of the batched loop: the batch's total.
    g = tracec.grad(lambda w: tnp.sum(tracec.vmap(
        rnn, in_axes=(None, 0))(w, xs) ** 2))(w)
    np.testing.assert_allclose(g, grads.sum(0), rtol=1e-10)
    # scan and while_loop (a trip count per example).
    def cumulative(x):
        return tracec.scan(lambda c, v: (c + v, c * v), 0.0, x)
    carry, ys = tracec.vmap(cumulative)(xs[:, :, 0])
    np.testing.assert_allclose(carry, xs[:, :, 0].sum(1), rtol=1e-12)
    exclusive = np.cumsum(xs[:, :, 0], 1) - xs[:, :, 0]
    np.testing.assert_allclose(ys, exclusive * xs[:, :, 0], rtol=1e-12,
                               atol=1e-15)
    def halvings(x):
        return tracec.while_loop(lambda v: v > 1.0, lambda v: v / 2.0, x)
    starts = np.array([0.5, 3.0, 17.0, 100.0])
    np.testing.assert_allclose(tracec.vmap(halvings)(starts),
                               loop(lambda v: _halve(v), starts))


def _halve(v):
    while v > 1.0:
        v /= 2.0
    return v


def test_ops_without_a_rule_run_per_example():
    xs = rng.standard_normal((3, 5))
    idx = np.array([[0, 4], [1, 1], [3, 2]])
    # A table and indices per example (gather), functional updates
    # (scatter_add).
    got = tracec.vmap(lambda x, i: tnp.take(x, i))(xs, idx)
    np.testing.assert_allclose(got, np.take_along_axis(xs, idx, 1))
    got = tracec.vmap(lambda x: x.at[np.array([0, 0, 2])].add(1.0))(xs)
    expected = xs.copy()
    expected[:, 0] += 2.0
    expected[:, 2] += 1.0
    np.testing.assert_allclose(got, expected)


def test_convolutions_and_pooling_per_example():
    """The examples' images fold into N (one convolution for the batch);
    per-example filter gradients run per example."""
    images = rng.standard_normal((2, 1, 6, 6, 2))
    filters = rng.standard_normal((3, 3, 2, 4))
    got = tracec.vmap(lambda x: tracec.nn.conv2d(x, filters, padding=1))(
        images)
    torch_out = torch.nn.functional.conv2d(
        torch.tensor(images.reshape(2, 6, 6, 2)).permute(0, 3, 1, 2),
        torch.tensor(filters).permute(3, 2, 0, 1), padding=1)
    np.testing.assert_allclose(
        got.reshape(2, 6, 6, 4), torch_out.permute(0, 2, 3, 1).numpy(),
        rtol=1e-10, atol=1e-12)
    pooled = tracec.vmap(lambda x: tracec.nn.max_pool2d(
        tracec.nn.avg_pool2d(x, 2, 1), 2, 2))(images)
    t = torch.tensor(images.reshape(2, 6, 6, 2)).permute(0, 3, 1, 2)
    t = torch.nn.functional.max_pool2d(
        torch.nn.functional.avg_pool2d(t, 2, 1), 2, 2)
    np.testing.assert_allclose(pooled.reshape(2, 2, 2, 2),
                               t.permute(0, 2, 3, 1).numpy(), rtol=1e-12)
    # Per-example gradients of a loss through the convolution.
    grads = tracec.vmap(tracec.grad(lambda w, x: tnp.sum(
        tnp.tanh(tracec.nn.conv2d(x, w, padding=1)))), in_axes=(None, 0))(
            filters, images)
    for k in range(2):
        tw = torch.tensor(filters).permute(3, 2, 0, 1).requires_grad_()
        out = torch.nn.functional.conv2d(
            torch.tensor(images[k]).permute(0, 3, 1, 2), tw, padding=1)
        torch.tanh(out).sum().backward()
        np.testing.assert_allclose(grads[k], tw.grad.permute(2, 3, 1, 0),
                                   rtol=1e-10, atol=1e-12)
    # Gradients with respect to the images, through pooling (their
    # backprops fold into N too).
    dx = tracec.vmap(tracec.grad(lambda x, w: tnp.sum(tnp.sin(
        tracec.nn.max_pool2d(tracec.nn.conv2d(x, w, padding=1), 2)))),
        in_axes=(0, None))(images, filters)
    tx = torch.tensor(images.reshape(2, 6, 6, 2)).permute(0, 3, 1, 2)
    tx.requires_grad_()
    out = torch.nn.functional.max_pool2d(torch.nn.functional.conv2d(
        tx, torch.tensor(filters).permute(3, 2, 0, 1), padding=1), 2)
    torch.sin(out).sum().backward()
    np.testing.assert_allclose(dx.reshape(2, 6, 6, 2),
                               tx.grad.permute(0, 2, 3, 1).numpy(),
                               rtol=1e-10, atol=1e-12)


def test_custom_vjp_under_vmap_uses_its_rule_per_example():
    @tracec.custom_vjp
    def clipped(x):
        return tnp.sin(x)

    def fwd(x):
        return tnp.sin(x), x

    def bwd(x, g):
        return (tnp.clip(g * tnp.cos(x), -0.5, 0.5),)
    clipped.defvjp(fwd, bwd)
    xs = rng.standard_normal((4, 3))
    np.testing.assert_allclose(tracec.vmap(clipped)(xs), np.sin(xs))
    grads = tracec.vmap(tracec.grad(lambda x: tnp.sum(clipped(x) * 3.0)))(xs)
    np.testing.assert_allclose(grads, np.clip(3.0 * np.cos(xs), -0.5, 0.5),
                               rtol=1e-12)
