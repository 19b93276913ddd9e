"""tracec.custom_jvp (jax.custom_jvp): forward mode calls the rule,
reverse mode transposes it; both are checked against the rule's own
derivative written out by hand and against finite differences (f64), and
with rules that differ from the function's derivative, so that the rule
is seen to be used. Adapted from JAX's api_test.py CustomJVPTest."""
import numpy as np
import pytest

import tracec
import tracec.numpy as tnp


def numeric_grad(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        g[i] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


@tracec.custom_jvp
def sin_times(x, y):
    return tnp.sin(x) * y


@sin_times.defjvp
def sin_times_jvp(primals, tangents):
    x, y = primals
    x_dot, y_dot = tangents
    return sin_times(x, y), tnp.cos(x) * x_dot * y + tnp.sin(x) * y_dot


X = np.array([0.3, -1.2, 2.0])
Y = np.array([1.5, 0.5, -2.0])


def test_jvp_and_grad_follow_the_rule():
    # JAX's basic example: the rule is the true derivative, so both modes
    # equal finite differences.
    y, t = tracec.jvp(sin_times, (X, Y), (np.ones(3), np.zeros(3)))
    np.testing.assert_allclose(y, np.sin(X) * Y, rtol=1e-12)
    np.testing.assert_allclose(t, np.cos(X) * Y, rtol=1e-12)
    g = tracec.grad(lambda x, y: tnp.sum(sin_times(x, y)), argnums=(0, 1))
    gx, gy = g(X, Y)
    np.testing.assert_allclose(
        gx, numeric_grad(lambda x: np.sum(np.sin(x) * Y), X), rtol=1e-7)
    np.testing.assert_allclose(
        gy, numeric_grad(lambda y: np.sum(np.sin(X) * y), Y), rtol=1e-7)
    # Inside a traced function the call carries the rule (trace.custom_jvp).
    f = tracec.function(lambda x, y: sin_times(x, y))
    assert "trace.custom_jvp" in f.get_concrete_function(X, Y).ir()


@tracec.custom_jvp
def clip(x):
    return tnp.clip(x, -1.0, 1.0)


@clip.defjvp
def clip_jvp(primals, tangents):
    # Straight through: the tangent passes unchanged, even where clip is
    # flat; both modes must show it.
    return clip(primals[0]), tangents[0] * 1.0


def test_a_rule_unlike_the_derivative_is_used_in_both_modes():
    x = np.array([-3.0, 0.5, 4.0])
    _, t = tracec.jvp(clip, (x,), (np.array([1.0, 2.0, 3.0]),))
    np.testing.assert_allclose(t, [1.0, 2.0, 3.0])
    np.testing.assert_allclose(
        tracec.grad(lambda x: tnp.sum(clip(x) * np.array([1., 2., 3.])))(x),
        [1.0, 2.0, 3.0])
    np.testing.assert_allclose(clip(x), [-1.0, 0.5, 1.0])


@tracec.custom_jvp
def log1pexp(x):
    return tnp.log1p(tnp.exp(x))


log1pexp.defjvps(lambda t, ans, x: t * (1 - 1 / (1 + tnp.exp(x))))


def test_defjvps_gives_the_stable_derivative():
    # JAX's log1pexp: the automatic derivative exp(x)/(1+exp(x)) is
    # inf/inf = nan at x = 800; the rule's is 1.
    x = np.array([0.0, 2.0, 800.0])
    g = tracec.grad(lambda x: tnp.sum(log1pexp(x)))(x)
    np.testing.assert_allclose(g, [0.5, 1 - 1 / (1 + np.exp(2.0)), 1.0],
                               rtol=1e-12)
    _, t = tracec.jvp(log1pexp, (x,), (np.ones(3),))
    np.testing.assert_allclose(t, g, rtol=1e-12)


def test_second_derivatives_differentiate_the_rule():
    @tracec.custom_jvp
    def f(x):
        return tnp.sin(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        x, = primals
        return f(x), 2.0 * tnp.cos(x) * tangents[0]  # twice the derivative
    x = np.array([0.4, 1.3])
    # grad(grad): d/dx of 2 cos(x) is -2 sin(x).
    g2 = tracec.grad(lambda x: tnp.sum(
        tracec.grad(lambda x: tnp.sum(f(x)))(x)))(x)
    np.testing.assert_allclose(g2, -2 * np.sin(x), rtol=1e-12)
    # jvp of grad (forward over reverse).
    _, t = tracec.jvp(tracec.grad(lambda x: tnp.sum(f(x))), (x,),
                      (np.ones(2),))
    np.testing.assert_allclose(t, -2 * np.sin(x), rtol=1e-12)


def test_nondiff_argnums_and_structures():
    import functools

    @functools.partial(tracec.custom_jvp, nondiff_argnums=(0,))
    def scaled(power, p):
        return {"y": p["a"] ** power * p["b"], "n": p["a"] * 0 + power}

    @scaled.defjvp
    def scaled_jvp(power, primals, tangents):
        p, = primals
        t, = tangents
        a, b = p["a"], p["b"]
        out = scaled(power, p)
        dy = power * a ** (power - 1) * b * t["a"] + a ** power * t["b"]
        return out, {"y": dy, "n": t["a"] * 0}
    p = {"a": np.array([1.5, 2.0]), "b": np.array([0.5, -1.0])}

    def loss(p):
        return tnp.sum(scaled(3, p)["y"])
    g = tracec.grad(loss)(p)
    np.testing.assert_allclose(g["a"], 3 * p["a"] ** 2 * p["b"], rtol=1e-12)
    np.testing.assert_allclose(g["b"], p["a"] ** 3, rtol=1e-12)
    out, t = tracec.jvp(lambda a, b: scaled(3, {"a": a, "b": b})["y"],
                        (p["a"], p["b"]), (np.ones(2), np.zeros(2)))
    np.testing.assert_allclose(t, 3 * p["a"] ** 2 * p["b"], rtol=1e-12)


def test_under_jit_and_vmap():
    f = tracec.function(
        lambda x, y: tracec.grad(lambda x: tnp.sum(sin_times(x, y)))(x))
    np.testing.assert_allclose(f(X, Y), np.cos(X) * Y, rtol=1e-12)
    per_example = tracec.vmap(tracec.grad(lambda x: tnp.sum(clip(x) * 3.0)))
    xs = np.array([[-5.0, 0.1], [0.2, 7.0]])
    np.testing.assert_allclose(per_example(xs), np.full((2, 2), 3.0))


def test_the_rule_may_use_traced_values_and_arrays_of_the_caller():
    # Neither gets a tangent or gradient through the call.
    @tracec.function
    def rule_only(x, w):
        @tracec.custom_jvp
        def g(x):
            return x * 2

        @g.defjvp
        def g_jvp(primals, tangents):
            return g(primals[0]), tangents[0] * w
        return tracec.grad(lambda x: tnp.sum(g(x)))(x)
    np.testing.assert_allclose(rule_only(X, Y), Y)

    @tracec.custom_jvp
    def h(x):
        return x * 2

    @h.defjvp
    def h_jvp(primals, tangents):
        return h(primals[0]), tangents[0] * Y  # a host array
    np.testing.assert_allclose(tracec.grad(lambda x: tnp.sum(h(x)))(X), Y)
    np.testing.assert_allclose(tracec.jvp(h, (X,), (np.ones(3),))[1], Y)


def test_the_rule_may_use_what_the_function_closes_over():
    @tracec.function
    def f(x, w):
        @tracec.custom_jvp
        def scale(x):
            return x * w

        @scale.defjvp
        def scale_jvp(primals, tangents):
            return scale(primals[0]), tangents[0] * w * 10.0
        return tracec.grad(lambda x: tnp.sum(scale(x)))(x)
    np.testing.assert_allclose(f(X, Y), Y * 10.0, rtol=1e-12)


def test_errors():
    @tracec.custom_jvp
    def no_rule(x):
        return x
    with pytest.raises(AttributeError, match="no JVP defined .*defjvp"):
        tracec.grad(lambda x: tnp.sum(no_rule(x)))(X)

    @tracec.custom_jvp
    def bad_structure(x):
        return x

    bad_structure.defjvp(lambda p, t: ((p[0], p[0]), t[0]))
    with pytest.raises(TypeError, match="rule of bad_structure returned a "
                       "primal output of structure"):
        tracec.jvp(bad_structure, (X,), (X,))

    @tracec.custom_jvp
    def bad_shape(x):
        return x

    bad_shape.defjvp(lambda p, t: (p[0], tnp.sum(t[0])))
    with pytest.raises(TypeError, match=r"rule of bad_shape returned a "
                       r"tangent of shape \(\) for output 0 of shape "
                       r"\(3,\)"):
        tracec.jvp(bad_shape, (X,), (X,))


def test_eager_calls_run_the_function():
    np.testing.assert_allclose(sin_times(X, Y), np.sin(X) * Y, rtol=1e-12)
