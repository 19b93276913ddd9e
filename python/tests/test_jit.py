"""tracec.jit (JAX's jit conventions on tracec.function): Python numbers
traced unless static, static_argnums/static_argnames, methods; keyword
arguments through grad and value_and_grad."""
import functools

import numpy as np
import pytest

import tracec
import tracec.numpy as tnp


def test_jit_is_a_function():
    f = tracec.jit(lambda x: x * 2)
    assert isinstance(f, tracec.Function)
    np.testing.assert_array_equal(f(np.arange(3, dtype=np.float32)),
                                  [0, 2, 4])


def test_python_numbers_are_traced_once():
    @tracec.jit
    def scale(x, s):
        return x * s

    x = np.ones(2, np.float32)
    for s in (2.0, 3.5, -1.0):
        np.testing.assert_array_equal(scale(x, s), x * s)
    assert scale.experimental_get_tracing_count() == 1
    # int and bool scalars are int32 and bool.
    assert tracec.jit(lambda n: n + 1)(41).dtype == np.int32
    assert tracec.jit(lambda b: b)(True).dtype == np.bool_
    # Inside structures too.
    f = tracec.jit(lambda p: p["w"] * p["k"])
    for k in (1.0, 2.0):
        np.testing.assert_array_equal(f({"w": x, "k": k}), x * k)
    assert f.experimental_get_tracing_count() == 1
    # tracec.function keeps them static (TensorFlow's rule).
    g = tracec.function(lambda x, s: x * s)
    g(x, 2.0), g(x, 3.0)
    assert g.experimental_get_tracing_count() == 2


def test_defaults_stay_python_values():
    # JAX's jit never sees a parameter left to its default: it stays the
    # Python value the function's body may branch on.
    seen = []

    @tracec.jit
    def f(x, n=2, scale=0.5, name="sum"):
        seen.append((type(n), type(scale)))
        y = x ** n if n == 2 else x
        return tnp.sum(y) * scale if name == "sum" else y

    x = np.arange(3.0)
    np.testing.assert_allclose(f(x), 2.5)
    assert seen == [(int, float)]
    np.testing.assert_allclose(f(x, scale=2.0), 10.0)
    assert seen[-1][0] is int and seen[-1][1] is not float
    # Passed, a number is traced as ever (and a Python branch on it fails).
    with pytest.raises(TypeError, match="truth value"):
        f(x, 3)
    # NumPy's functions jit as they are.
    np.testing.assert_array_equal(
        tracec.jit(tnp.isclose)(x, x + 1e-12), [True] * 3)
    np.testing.assert_array_equal(tracec.jit(tnp.sort)(x[::-1]), x)


def test_static_argnums_and_argnames():
    @functools.partial(tracec.jit, static_argnums=1)
    def power(x, n):
        result = x
        for _ in range(n - 1):   # Python control flow on a static value
            result = result * x
        return result

    x = np.array([2.0, 3.0], np.float32)
    np.testing.assert_array_equal(power(x, 3), x ** 3)
    np.testing.assert_array_equal(power(x, 2), x ** 2)
    np.testing.assert_array_equal(power(x, n=3), x ** 3)
    assert power.experimental_get_tracing_count() == 2

    @functools.partial(tracec.jit, static_argnames=("n",))
    def repeat(x, scale, n):
        return tnp.concatenate([x * scale] * n)

    assert repeat(x, 2.0, n=3).shape == (6,)
    assert repeat(x, 3.0, n=3).shape == (6,)
    assert repeat(x, 3.0, 2).shape == (4,)
    assert repeat.experimental_get_tracing_count() == 2


def test_static_arguments_must_be_hashable():
    f = tracec.jit(lambda x, shape: tnp.reshape(x, shape), static_argnums=1)
    assert f(np.arange(6.0), (2, 3)).shape == (2, 3)
    with pytest.raises(TypeError, match="static argument 1 is a list, which "
                       "is not hashable"):
        f(np.arange(6.0), [2, 3])
    with pytest.raises(TypeError, match="not hashable"):
        f(np.arange(6.0), np.array([2, 3]))


def test_bad_static_specifications():
    with pytest.raises(ValueError, match="static_argnums 2 is out of range"):
        tracec.jit(lambda x, y: x, static_argnums=2)
    with pytest.raises(ValueError, match="'z' is not a parameter"):
        tracec.jit(lambda x, y: x, static_argnames="z")
    with pytest.raises(TypeError, match="must be ints"):
        tracec.jit(lambda x: x, static_argnums="x")
    with pytest.raises(TypeError, match="jit takes a callable, got a int"):
        tracec.jit(3)


def test_jit_methods_count_self():
    class Scaler:
        def __init__(self, k):
            self.k = k

        @functools.partial(tracec.jit, static_argnums=2)
        def __call__(self, x, n):
            return x * self.k * n

    s = Scaler(np.float32(2.0))
    np.testing.assert_array_equal(s(np.ones(2, np.float32), 3), [6.0, 6.0])


def test_keyword_arguments_through_grad():
    def loss(w, x, *, scale=1.0, bias=None):
        y = tnp.sum(w * x) * scale
        return y if bias is None else y + tnp.sum(bias * w)

    w = np.array([1.0, 2.0])
    x = np.array([3.0, 4.0])
    g = tracec.grad(loss)(w, x, scale=2.0)
    np.testing.assert_allclose(g, 2.0 * x)
    g = tracec.grad(loss)(w, x, scale=2.0, bias=np.array([10.0, 20.0]))
    np.testing.assert_allclose(g, 2.0 * x + [10.0, 20.0])
    value, g = tracec.value_and_grad(loss, argnums=1)(w, x, scale=3.0)
    np.testing.assert_allclose(value, 3.0 * 11.0)
    np.testing.assert_allclose(g, 3.0 * w)

    # Inside a traced function too.
    @tracec.function
    def step(w, x):
        return tracec.grad(loss)(w, x, scale=0.5)
    np.testing.assert_allclose(step(w, x), 0.5 * x)
