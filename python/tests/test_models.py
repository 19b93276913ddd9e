"""Models against PyTorch: an MLP, a small CNN and a model with cond and
fori_loop (loss and every gradient), Adam/SGD training step by step, and
eager vs traced."""
import numpy as np
import pytest
import torch

import tracec
import tracec.nn  # noqa: F401
import tracec.numpy as tnp


def f32(*shape, seed=0, scale=1.0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * scale).astype(np.float32)


class MLP(tracec.Module):
    def __init__(self):
        super().__init__()
        self.w1 = tracec.Variable(f32(4, 8, seed=1, scale=0.5))
        self.b1 = tracec.Variable(f32(8, seed=2, scale=0.1))
        self.w2 = tracec.Variable(f32(8, 3, seed=3, scale=0.5))
        self.b2 = tracec.Variable(f32(3, seed=4, scale=0.1))

    def __call__(self, x):
        return tracec.nn.gelu(x @ self.w1 + self.b1) @ self.w2 + self.b2


def torch_mlp(p, x, y):
    h = torch.nn.functional.gelu(torch.from_numpy(x) @ p[0] + p[1])
    return torch.nn.functional.cross_entropy(h @ p[2] + p[3],
                                             torch.from_numpy(y).long())


def xent(model, x, y):
    return tnp.mean(tracec.nn.sparse_softmax_cross_entropy_with_logits(y, model(x)))


def torch_params(model):
    return [torch.tensor(v.numpy(), requires_grad=True)
            for v in model.trainable_variables]


X = f32(16, 4, seed=10)
Y = np.random.default_rng(11).integers(0, 3, 16).astype(np.int32)


def test_mlp_loss_and_gradients_match_torch():
    model = MLP()

    @tracec.function
    def loss_and_grads(x, y):
        with tracec.GradientTape() as tape:
            loss = xent(model, x, y)
        return loss, tape.gradient(loss, model.trainable_variables)

    loss, grads = loss_and_grads(X, Y)
    params = torch_params(model)
    expected = torch_mlp(params, X, Y)
    expected.backward()
    np.testing.assert_allclose(loss, expected.item(), rtol=1e-5)
    for g, p in zip(grads, params):
        np.testing.assert_allclose(g, p.grad.numpy(), rtol=1e-4, atol=1e-6)


class CNN(tracec.Module):
    def __init__(self):
        super().__init__()
        self.k = tracec.Variable(f32(3, 3, 2, 4, seed=1, scale=0.3))
        self.w = tracec.Variable(f32(16, 3, seed=2, scale=0.3))

    def __call__(self, x):  # [N, 6, 6, 2]
        h = tracec.nn.relu(tracec.nn.conv2d(x, self.k, padding="SAME"))
        h = tracec.nn.avg_pool2d(tracec.nn.max_pool2d(h, 2, strides=1), 2)  # 5x5 -> 2x2
        return tnp.reshape(h, (h.shape[0], 16)) @ self.w


def test_cnn_loss_and_gradients_match_torch():
    model = CNN()
    x = f32(3, 6, 6, 2, seed=5)
    y = np.array([0, 2, 1], np.int32)
    loss, grads = tracec.function(lambda x, y: _loss_grads(model, x, y))(x, y)

    k, w = torch_params(model)
    h = torch.relu(torch.nn.functional.conv2d(
        torch.from_numpy(x).permute(0, 3, 1, 2), k.permute(3, 2, 0, 1), padding=1))
    h = torch.nn.functional.avg_pool2d(torch.nn.functional.max_pool2d(h, 2, 1), 2)
    logits = h.permute(0, 2, 3, 1).reshape(3, 16) @ w
    expected = torch.nn.functional.cross_entropy(logits, torch.from_numpy(y).long())
    expected.backward()
    np.testing.assert_allclose(loss, expected.item(), rtol=1e-5)
    np.testing.assert_allclose(grads[0], k.grad.numpy(), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(grads[1], w.grad.numpy(), rtol=1e-4, atol=1e-6)


def _loss_grads(model, x, y):
    with tracec.GradientTape() as tape:
        loss = xent(model, x, y)
    return loss, tape.gradient(loss, model.trainable_variables)


def test_cond_and_fori_loop_model_matches_torch():
    w = tracec.Variable(f32(3, 3, seed=1, scale=0.5))

    def model(x, flip):
        wv = w.read_value()  # read once: loop bodies that touch state are
        # not differentiable (see the next test)
        h = tracec.fori_loop(0, 3, lambda i, h: tnp.tanh(h @ wv), x)
        return tracec.cond(flip > 0, lambda h: -h, lambda h: h * 2.0, h)

    @tracec.function
    def f(x, flip):
        with tracec.GradientTape() as tape:
            tape.watch(x)
            loss = tnp.sum(tnp.square(model(x, flip)))
        return loss, tape.gradient(loss, [x, w])

    x = f32(2, 3, seed=7)
    for flip in (np.float32(1), np.float32(-1)):
        loss, (gx, gw) = f(x, flip)
        tx = torch.tensor(x, requires_grad=True)
        tw = torch.tensor(w.numpy(), requires_grad=True)
        h = tx
        for _ in range(3):
            h = torch.tanh(h @ tw)
        h = -h if flip > 0 else h * 2
        expected = (h ** 2).sum()
        expected.backward()
        np.testing.assert_allclose(loss, expected.item(), rtol=1e-5)
        np.testing.assert_allclose(gx, tx.grad.numpy(), rtol=1e-4, atol=1e-6)
        np.testing.assert_allclose(gw, tw.grad.numpy(), rtol=1e-4, atol=1e-6)
    assert f.trace_count == 1  # flip is an array: one trace, both branches


@pytest.mark.parametrize("unrolled", [False, True])
def test_rnn_gradients_match_torch_f64(unrolled):
    """An RNN at f64, sized so that its products are packed contractions.
    Over a fori_loop, the loop's gradient reads the products back from its
    tapes and sums the weight gradients in the contractions' own
    accumulators; unrolled, each weight gradient's sum of per-step products
    is one product over the steps' rows. Loss and every gradient against
    PyTorch autograd."""
    rng = np.random.default_rng(3)
    steps, batch, hidden = 6, 8, 48
    xs = rng.standard_normal((steps, batch, hidden))
    w = rng.standard_normal((hidden, 4 * hidden)) * 0.2
    u = rng.standard_normal((hidden, 4 * hidden)) * 0.2
    head = rng.standard_normal((hidden, hidden)) * 0.2

    def loss(w, u, head, xs):
        def body(t, carry):
            h, total = carry
            z = xs[t] @ w + h @ u
            h = tnp.tanh(z[:, :hidden]) * tracec.nn.sigmoid(z[:, hidden:2 * hidden])
            return h, total + tnp.sum(tnp.square(h @ head))
        carry = (tnp.zeros((batch, hidden), dtype=tnp.float64),
                 tnp.zeros((), dtype=tnp.float64))
        if unrolled:
            for t in range(steps):
                carry = body(t, carry)
            return carry[1]
        return tracec.fori_loop(0, steps, body, carry)[1]

    value, grads = tracec.function(
        tracec.value_and_grad(loss, argnums=(0, 1, 2)))(w, u, head, xs)

    tw, tu, thead = (torch.tensor(a, requires_grad=True) for a in (w, u, head))
    h = torch.zeros(batch, hidden, dtype=torch.float64)
    expected = 0.0
    for t in range(steps):
        z = torch.from_numpy(xs[t]) @ tw + h @ tu
        h = torch.tanh(z[:, :hidden]) * torch.sigmoid(z[:, hidden:2 * hidden])
        expected = expected + ((h @ thead) ** 2).sum()
    expected.backward()
    np.testing.assert_allclose(value, expected.item(), rtol=1e-12)
    for got, want in zip(grads, (tw, tu, thead)):
        np.testing.assert_allclose(got, want.grad.numpy(), rtol=1e-10,
                                   atol=1e-12)


def test_compile_errors_show_the_python_line():
    steps = tracec.Variable(0.0)

    def body(i, h):
        steps.assign_add(1.0)  # state in a differentiated loop: an error
        return h * 2.0

    @tracec.function
    def f(x):
        with tracec.GradientTape() as tape:
            tape.watch(x)
            h = tracec.fori_loop(0, 2, body, x)
            loss = tnp.sum(h)
        return tape.gradient(loss, x)

    with pytest.raises(tracec.CompileError) as info:
        f(f32(2, 3))
    line = f.python_function.__code__.co_firstlineno + 4
    assert f"test_models.py:{line}:0: error: 'scf.for' op cannot be " \
        "differentiated: its body touches state" in str(info.value)


@pytest.mark.parametrize("name", ["adam", "sgd"])
def test_training_matches_torch_optim_step_by_step(name):
    model = MLP()
    params = torch_params(model)
    if name == "adam":
        opt, topt = tracec.Adam(0.01), torch.optim.Adam(params, lr=0.01)
    else:
        opt, topt = tracec.SGD(0.1), torch.optim.SGD(params, lr=0.1)

    @tracec.function
    def step(x, y):
        with tracec.GradientTape() as tape:
            loss = xent(model, x, y)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    for i in range(5):
        loss = step(X, Y)
        topt.zero_grad()
        expected = torch_mlp(params, X, Y)
        expected.backward()
        topt.step()
        np.testing.assert_allclose(loss, expected.item(), rtol=1e-5)
        for v, p in zip(model.trainable_variables, params):
            np.testing.assert_allclose(v.numpy(), p.detach().numpy(),
                                       rtol=1e-4, atol=1e-6)
    assert step.trace_count == 1


def test_eager_and_traced_give_the_same_numbers():
    def compute(x, w):
        h = tracec.nn.softmax(tnp.matmul(x, w), axis=-1)
        h = tnp.concatenate([h, tnp.exp(h)], axis=1)
        h = tnp.where(h > 0.5, h, tnp.zeros_like(h))
        return tnp.sum(tnp.pad(h, [(1, 0), (0, 2)]) ** 2.0, axis=0)[1:3]

    x, w = f32(4, 3), f32(3, 5, seed=1)
    eager = compute(x, w)
    traced = tracec.function(compute)(x, w)
    np.testing.assert_allclose(eager, traced, rtol=1e-6)
    assert eager.shape == (2,)


def test_eager_training_with_a_tape_matches_traced():
    def train(step_fn, steps):
        model = MLP()
        opt = tracec.Adam(0.01)
        losses = []
        for _ in range(steps):
            losses.append(float(step_fn(model, opt)))
        return losses, [v.numpy() for v in model.trainable_variables]

    def step(model, opt):
        with tracec.GradientTape() as tape:
            loss = xent(model, X, Y)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    eager_losses, eager_vars = train(step, 3)
    traced_losses, traced_vars = train(tracec.function(step), 3)
    np.testing.assert_allclose(eager_losses, traced_losses, rtol=1e-5)
    for a, b in zip(eager_vars, traced_vars):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)


def test_a_variable_read_in_a_loop_body_under_a_tape_matches_torch():
    # A tape inside a traced function differentiates with respect to a
    # variable read in a cond or loop body (directly or in a function
    # called there), as with one read before and closed over (issue 30:
    # these gave None, an LSTM written so trained nothing).
    w0 = f32(2, 2, seed=5, scale=0.5)
    w = tracec.Variable(w0, name="w")
    x = f32(1, 2, seed=6)

    @tracec.function
    def cell(h):
        return tnp.tanh(h @ w)

    bodies = {
        "fori_loop": lambda x: tracec.fori_loop(
            0, 2, lambda i, h: tnp.tanh(h @ w), x),
        "closed over": lambda x: (lambda wv: tracec.fori_loop(
            0, 2, lambda i, h: tnp.tanh(h @ wv), x))(w.read_value()),
        "while_loop with a call": lambda x: tracec.while_loop(
            lambda c: c[0] < 2, lambda c: (c[0] + 1, cell(c[1])),
            (np.int32(0), x))[1],
        "cond with a call": lambda x: tracec.cond(
            tnp.sum(x) < 100, lambda h: cell(cell(h)), lambda h: h, x),
    }
    tw = torch.tensor(w0, requires_grad=True)
    h = torch.from_numpy(x)
    for _ in range(2):
        h = torch.tanh(h @ tw)
    h.sum().backward()
    for name, body in bodies.items():
        @tracec.function
        def f(x):
            with tracec.GradientTape() as tape:
                loss = tnp.sum(body(x))
            return tape.gradient(loss, w)

        np.testing.assert_allclose(f(x), tw.grad.numpy(), rtol=1e-5,
                                   atol=1e-6, err_msg=name)


def test_a_variable_a_loop_body_assigns_has_no_tape_gradient():
    w = tracec.Variable(np.full((2, 2), 0.5, np.float32), name="w")

    def body(i, h):
        w.assign(w * 0.5)
        return tnp.tanh(h @ w)

    @tracec.function
    def f(x):
        with tracec.GradientTape() as tape:
            loss = tnp.sum(tracec.fori_loop(0, 2, body, x))
        return tape.gradient(loss, w)

    with pytest.raises(ValueError, match="Variable 'w': it is read inside "
                       "the body of a tracec.cond, while_loop or fori_loop "
                       "that assigns it"):
        f(np.ones((1, 2), np.float32))
