"""tracec.custom_gradient (tf.custom_gradient semantics) and
tracec.checkpoint (jax.checkpoint), against analytic derivatives, PyTorch
autograd.Function, and the gradients without a checkpoint (bit for bit)."""
import numpy as np
import pytest
import torch

import tracec
import tracec.numpy as tnp


def f32(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def sigmoid(x):
    return 1 / (1 + np.exp(-np.asarray(x, np.float64)))


@tracec.custom_gradient
def log1pexp(x):
    e = tnp.exp(x)

    def grad_fn(dy):
        return dy * (1 - 1 / (1 + e))
    return tnp.log1p(e), grad_fn


@tracec.custom_gradient
def clip_gradient(x):
    return x, lambda dy: tnp.clip(dy, -1.0, 1.0)


# --- custom_gradient -----------------------------------------------------------


def test_log1pexp_is_stable_where_the_automatic_gradient_is_nan():
    x = np.array([-5.0, 0.0, 5.0, 100.0], np.float32)
    g = tracec.grad(lambda x: tnp.sum(log1pexp(x)))(x)
    np.testing.assert_allclose(g, sigmoid(x), rtol=1e-5, atol=1e-7)
    assert g[3] == 1.0
    automatic = tracec.grad(lambda x: tnp.sum(tnp.log1p(tnp.exp(x))))(x)
    assert np.isnan(automatic[3])
    np.testing.assert_allclose(automatic[:3], g[:3], rtol=1e-5)


def test_value_is_the_function():
    x = np.array([0.0, 1.0], np.float32)
    np.testing.assert_allclose(log1pexp(x), np.log1p(np.exp(x)), rtol=1e-6)

    @tracec.function
    def f(x):
        return log1pexp(x)
    np.testing.assert_allclose(f(x), np.log1p(np.exp(x)), rtol=1e-6)
    assert "trace.custom_vjp" in f.get_concrete_function(x).ir()


def test_gradient_clipping():
    x, c = f32(5), np.array([-3, 0.5, 2, -0.25, 7], np.float32)
    g = tracec.grad(lambda x: tnp.sum(clip_gradient(x) * c))(x)
    np.testing.assert_array_equal(g, np.clip(c, -1, 1))


class TorchScaled(torch.autograd.Function):
    """x * y with a deliberately different gradient: dx = dy * y^2,
    dy = none (what grad_fn below returns)."""

    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(y)
        return x * y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensors
        return dy * y * y, None


@tracec.custom_gradient
def scaled(x, y):
    return x * y, lambda dy: (dy * y * y, None)


def test_two_inputs_match_torch_autograd_function():
    x, y = f32(3, 4), f32(3, 4, seed=1)
    gx, gy = tracec.grad(lambda x, y: tnp.sum(tnp.tanh(scaled(x, y))),
                         argnums=(0, 1))(x, y)
    tx, ty = (torch.tensor(a, requires_grad=True) for a in (x, y))
    torch.tanh(TorchScaled.apply(tx, ty)).sum().backward()
    np.testing.assert_allclose(gx, tx.grad.numpy(), rtol=1e-5, atol=1e-6)
    # None: no gradient flows into y through scaled (torch: None -> no grad).
    assert ty.grad is None
    np.testing.assert_array_equal(gy, np.zeros_like(y))


def test_inside_a_loop_in_a_function():
    @tracec.custom_gradient
    def doubled(v):
        return v * 2.0, lambda dy: dy * 3.0

    @tracec.function
    def grads(x):
        return tracec.grad(lambda x: tnp.sum(
            tracec.fori_loop(0, 4, lambda i, v: doubled(v), x)))(x)
    # 3^4 per element, where the automatic gradient would be 2^4.
    np.testing.assert_array_equal(grads(np.ones(3, np.float32)),
                                  np.full(3, 81, np.float32))


def test_second_derivative_differentiates_grad_fn():
    # Not at 100: the forward function is differentiated too, and the zero
    # cotangent of its unused result meets inf / inf there (0 * NaN).
    x = np.array([-2.0, 0.5, 3.0, 20.0], np.float32)
    first = tracec.grad(lambda x: tnp.sum(log1pexp(x)))
    second = tracec.grad(lambda x: tnp.sum(first(x)))(x)
    s = sigmoid(x)
    np.testing.assert_allclose(second, s * (1 - s), rtol=1e-5, atol=1e-7)


@tracec.custom_gradient
def cube_with_a_made_up_gradient(x):
    # Deliberately not the derivative (3 x^2): a test sees which one ran.
    return x * x * x, lambda dy: dy * 5.0 * x * x


def test_second_order_of_a_made_up_gradient_differentiates_it():
    # d/dx of grad_fn's 5 x^2 is 10 x (6 x would be the automatic one's).
    x = np.array([1.5, -0.5])
    first = tracec.grad(lambda x: tnp.sum(cube_with_a_made_up_gradient(x)))
    np.testing.assert_allclose(first(x), 5 * x * x, rtol=1e-12)
    np.testing.assert_allclose(tracec.grad(lambda x: tnp.sum(first(x)))(x),
                               10 * x, rtol=1e-12)

    @tracec.function
    def traced_tapes(x):
        with tracec.GradientTape() as outer:
            outer.watch(x)
            with tracec.GradientTape() as inner:
                inner.watch(x)
                y = tnp.sum(cube_with_a_made_up_gradient(x))
            dx = inner.gradient(y, x)
        return dx, outer.gradient(dx, x)

    dx, ddx = traced_tapes(x)
    np.testing.assert_allclose(dx, 5 * x * x, rtol=1e-12)
    np.testing.assert_allclose(ddx, 10 * x, rtol=1e-12)


def test_a_tracec_function_called_under_eager_tapes_uses_the_custom_gradient():
    # Called under a tape, a tracec.function runs its compiled forward and
    # backward pair, which C++ builds without trace.custom_vjp: it gave the
    # automatic gradient (3 x^2, and 3 x v^2 for v), silently. It now
    # replays the function, so grad_fn is used, to any order.
    x = np.array([1.5, -0.5])
    cube = tracec.function(
        lambda x: tnp.sum(cube_with_a_made_up_gradient(x)))
    with tracec.GradientTape() as outer:
        outer.watch(x)
        with tracec.GradientTape() as inner:
            inner.watch(x)
            y = cube(x)
        dx = inner.gradient(y, x)
    np.testing.assert_allclose(dx, 5 * x * x, rtol=1e-12)
    np.testing.assert_allclose(outer.gradient(dx, x), 10 * x, rtol=1e-12)

    v = tracec.Variable(np.array(1.5))

    @tracec.custom_gradient
    def scaled(x):
        def grad_fn(dy, variables):
            return dy * v * v * v, [dy * x * 5.0 * v * v]   # not 3 x v^2
        return x * v * v * v, grad_fn

    f = tracec.function(scaled)
    with tracec.GradientTape() as outer:
        with tracec.GradientTape() as inner:
            y = f(np.array(2.0))
        dv = inner.gradient(y, v)
    np.testing.assert_allclose(dv, 5 * 2 * 1.5 ** 2, rtol=1e-12)
    np.testing.assert_allclose(outer.gradient(dv, v), 10 * 2 * 1.5,
                               rtol=1e-12)


def test_eager_gradient_tape():
    x = np.array([0.0, 100.0], np.float32)
    with tracec.GradientTape() as tape:
        tape.watch(x)
        y = tnp.sum(log1pexp(x))
    np.testing.assert_allclose(tape.gradient(y, x), [0.5, 1.0], rtol=1e-6)


def test_errors():
    @tracec.custom_gradient
    def no_grad_fn(x):
        return x

    with pytest.raises(TypeError, match="must return \\(y, grad_fn\\)"):
        tracec.grad(lambda x: tnp.sum(no_grad_fn(x)))(f32(2))

    @tracec.custom_gradient
    def wrong_count(x, y):
        return x * y, lambda dy: dy

    with pytest.raises(ValueError, match="returned 1 gradients for 2 inputs"):
        tracec.grad(lambda x, y: tnp.sum(wrong_count(x, y)))(f32(2), f32(2))


def test_variables_get_grad_fns_gradients_as_in_tensorflow():
    # gradients_test.py's testCustomGradientWithCapture: grad_fn gets
    # variables= and returns (input gradients, variable gradients).
    captured = tracec.Variable(3.0)

    @tracec.custom_gradient
    def mult(x):
        def grad_fn(dy, variables=None):
            assert len(variables) == 1 and variables[0] is captured
            return 4.0 * captured * dy, [5.0 * x * dy]
        return x * captured, grad_fn

    x = tracec.Variable(6.0)
    with tracec.GradientTape(persistent=True) as tape:
        y = mult(x)
    assert tape.gradient(y, x) == 12.0
    assert tape.gradient(y, captured) == 30.0

    @tracec.function
    def traced(x):
        with tracec.GradientTape() as tape:
            y = mult(x)
        return tape.gradient(y, [x, captured])
    assert traced(tracec.Variable(6.0)) == [12.0, 30.0]
    [(g, v)] = tracec.implicit_grad(lambda: mult(np.float32(6.0)))()
    assert v is captured and g == 30.0

    # No inputs but variables (backprop_test.py's testJacobianCustomGradient
    # calls such a function).
    @tracec.custom_gradient
    def tripled():
        return captured * 3.0, lambda dy, variables: ((), [dy * 7.0])
    [(g, v)] = tracec.implicit_grad(tripled)()
    assert v is captured and g == 7.0


def test_variable_gradients_against_finite_differences():
    w = tracec.Variable(np.array([0.5, -1.5, 2.0]), name="w")
    b = tracec.Variable(np.array(0.25), name="b")

    @tracec.custom_gradient
    def affine_tanh(x):
        y = tnp.tanh(x * w + b)

        def grad_fn(dy, variables):
            dz = dy * (1 - y * y)
            return dz * w, [dz * x, tnp.sum(dz)]
        return y, grad_fn

    def loss(w_np, b_np, x):
        return np.sum(np.tanh(x * w_np + b_np) ** 2)

    x = np.array([0.3, 0.7, -0.2])
    with tracec.GradientTape() as tape:
        tape.watch(x)
        z = affine_tanh(x)
        y = tnp.sum(tnp.multiply(z, z))  # eagerly: tracec's ops, not `**`
    gx, gw, gb = tape.gradient(y, [x, w, b])
    eps = 1e-6
    for value, grad, perturb in [
            (w.numpy(), gw, lambda d: loss(w.numpy() + d, b.numpy(), x)),
            (b.numpy(), gb, lambda d: loss(w.numpy(), b.numpy() + d, x)),
            (x, gx, lambda d: loss(w.numpy(), b.numpy(), x + d))]:
        basis = np.eye(value.size).reshape((value.size,) + value.shape)
        fd = np.array([(perturb(eps * e) - perturb(-eps * e)) / (2 * eps)
                       for e in basis]).reshape(value.shape)
        np.testing.assert_allclose(grad, fd, rtol=1e-7, atol=1e-9)


def test_variable_errors_and_untrainable_variables():
    v = tracec.Variable(2.0)

    @tracec.custom_gradient
    def no_variables_kwarg(x):
        return x * v, lambda dy: dy * v

    with pytest.raises(TypeError, match="keyword argument 'variables'"):
        tracec.grad(lambda x: no_variables_kwarg(x))(np.float32(1.0))

    @tracec.custom_gradient
    def too_few(x):
        return x * v, lambda dy, variables: (dy * v, [])

    with pytest.raises(ValueError, match="a gradient for each variable"):
        tracec.grad(lambda x: too_few(x))(np.float32(1.0))

    frozen = tracec.Variable(2.0, trainable=False)

    @tracec.custom_gradient
    def reads_frozen(x):
        return x * frozen, lambda dy: dy * 7.0  # no variables=: none given

    assert tracec.grad(lambda x: reads_frozen(x))(np.float32(1.0)) == 7.0


# --- checkpoint ----------------------------------------------------------------


def dense(x, w, b):
    return tnp.tanh(x @ w + b)


def mlp_loss(layer, x, params):
    h = x
    for w, b in params:
        h = layer(h, w, b)
    return tnp.mean(h * h)


def params(n=3, width=16):
    return [(f32(width, width, seed=1 + i) * 0.3, f32(width, seed=10 + i))
            for i in range(n)]


@pytest.mark.parametrize("policy", ["nothing", "contractions", "everything"])
def test_checkpoint_gradients_equal_saved_ones_bit_for_bit(policy):
    x, ps = f32(8, 16), params()
    flat = [a for p in ps for a in p]

    def loss(layer):
        def f(*flat):
            return mlp_loss(layer, x, list(zip(flat[::2], flat[1::2])))
        return f
    argnums = tuple(range(len(flat)))
    saved = tracec.grad(loss(dense), argnums=argnums)(*flat)
    remat = tracec.grad(loss(tracec.checkpoint(dense, policy=policy)),
                        argnums=argnums)(*flat)
    for a, b in zip(saved, remat):
        np.testing.assert_array_equal(a, b)
    # Against PyTorch, to a tolerance.
    ts = [torch.tensor(a, requires_grad=True) for a in flat]
    h = torch.tensor(x)
    for w, b in zip(ts[::2], ts[1::2]):
        h = torch.tanh(h @ w + b)
    (h * h).mean().backward()
    for a, t in zip(remat, ts):
        np.testing.assert_allclose(a, t.grad.numpy(), rtol=1e-4, atol=1e-6)


def test_checkpoint_marks_the_function():
    layer = tracec.checkpoint(dense, policy="contractions")

    @tracec.function
    def f(x, w, b):
        return tracec.grad(lambda w: tnp.sum(layer(x, w, b)))(w)
    x, (w, b) = f32(4, 16), params(1)[0]
    ir = f.get_concrete_function(x, w, b).ir()
    assert 'trace.checkpoint = "contractions"' in ir


def test_checkpoint_rejects_unknown_policy():
    with pytest.raises(ValueError, match="policy must be one of"):
        tracec.checkpoint(dense, policy="dots_saveable")


def test_gradients_of_f_inside_its_grad_fn():
    # TensorFlow's grad_fn may call tf.gradients(out, x) on f's own values:
    # f's ops are in its forward function, which gradients() slices (the
    # trace.vjp in the backward one, with what it uses saved for it).
    w = np.random.default_rng(0).standard_normal((4, 3))
    v = tracec.Variable(np.random.default_rng(1).standard_normal((4, 3)))

    @tracec.custom_gradient
    def f(x):
        out = tnp.tanh(tnp.matmul(x, w)) + tnp.matmul(x, v)

        def grad(dy, variables=None):
            gx, gv = tracec.gradients(out, [x, variables[0]], grad_ys=dy)
            return 3.0 * gx, [2.0 * gv]
        return out, grad

    @tracec.function
    def g(x, dy):
        return tracec.gradients(f(x), [x, v], grad_ys=dy)

    x = np.random.default_rng(2).standard_normal((2, 4))
    dy = np.random.default_rng(3).standard_normal((2, 3))
    gx, gv = g(x, dy)
    t = np.tanh(x @ w)
    np.testing.assert_allclose(
        gx, 3.0 * ((dy * (1 - t * t)) @ w.T + dy @ v.numpy().T), rtol=1e-12)
    np.testing.assert_allclose(gv, 2.0 * x.T @ dy, rtol=1e-12)

    # What the forward's slice uses is lifted into the backward function:
    # also from a branch of f.
    @tracec.custom_gradient
    def f_cond(x):
        out = tracec.cond(tnp.sum(x) > 0, lambda: tnp.sin(x), lambda: x * x)

        def grad(dy):
            return tracec.gradients(out, x, grad_ys=dy)[0]
        return out, grad

    @tracec.function
    def g_cond(x):
        return tracec.gradients(tnp.sum(f_cond(x)), x)[0]

    np.testing.assert_allclose(g_cond(x[0]), np.cos(x[0]) if np.sum(x[0]) > 0
                               else 2 * x[0], rtol=1e-12)


def test_second_derivative_through_gradients_inside_grad_fn():
    # The backward function's trace.vjp of the forward's slice is
    # differentiated again (its saved values depend on x).
    @tracec.custom_gradient
    def f(x):
        out = tnp.sin(x) * x

        def grad(dy):
            return 3.0 * tracec.gradients(out, x, grad_ys=dy)[0]
        return out, grad

    @tracec.function
    def h(x):
        g = tracec.gradients(tnp.sum(f(x)), x)[0]
        return tracec.gradients(tnp.sum(g), x)[0]

    x = np.array([0.5, -1.0, 2.0])
    np.testing.assert_allclose(h(x), 3 * (2 * np.cos(x) - x * np.sin(x)),
                               rtol=1e-12)


def test_gradients_inside_grad_fn_of_grad_fn_values():
    # A grad_fn's gradients of its own values slice the backward function,
    # as anywhere else.
    @tracec.custom_gradient
    def f(x):
        def grad(dy):
            z = dy * dy
            return tracec.gradients(z, dy)[0] * x
        return tnp.sin(x), grad

    @tracec.function
    def g(x, dy):
        return tracec.gradients(f(x), x, grad_ys=dy)[0]

    x, dy = np.array([0.5, -1.0]), np.array([2.0, 3.0])
    np.testing.assert_allclose(g(x, dy), 2 * dy * x, rtol=1e-12)


def test_vjp_inside_f_for_its_grad_fn():
    w = np.random.default_rng(0).standard_normal((4, 3))

    @tracec.custom_gradient
    def f_vjp(x):
        out, vjp_fn = tracec.vjp(lambda x: tnp.matmul(x, w), x)

        def grad(dy):
            return 2.0 * vjp_fn(dy)[0]
        return out, grad

    @tracec.function
    def g_vjp(x):
        return tracec.gradients(f_vjp(x), [x])[0]

    np.testing.assert_allclose(g_vjp(np.ones((2, 4))),
                               2.0 * np.ones((2, 3)) @ w.T, rtol=1e-12)


def test_higher_orders_keep_the_custom_rule_for_primal_values():
    # The primal value of a custom-gradient function inside a gradient
    # computation is differentiated by an outer gradient with the custom
    # rule, as TensorFlow's nested tapes and JAX's custom_vjp do (it used
    # to be differentiated through the forward function's body: -sin(2)).
    @tracec.custom_gradient
    def g(x):
        return tnp.cos(2 * x) / 2.0, lambda dy: dy * 3.0

    x = np.float64(1.0)
    # The value output of value_and_grad: its derivative is the rule's, 3.
    assert tracec.grad(lambda x: tracec.value_and_grad(g)(x)[0])(x) == 3.0
    # d/dx [g'(x) x + g(x)] = 3 + 3 under the rule (g' = 3 constant).
    assert tracec.grad(lambda x: tracec.grad(lambda x: g(x) * x)(x))(x) == 6.0
    # Nested tapes, as TensorFlow's custom_gradient test does.
    v = np.asarray(1.0)
    with tracec.GradientTape() as outer:
        outer.watch(v)
        with tracec.GradientTape() as inner:
            inner.watch(v)
            y = tnp.multiply(g(v), v)
        dy = inner.gradient(y, v)
    assert float(dy) == 3.0 + float(np.cos(2.0) / 2)
    assert float(outer.gradient(dy, v)) == 6.0
