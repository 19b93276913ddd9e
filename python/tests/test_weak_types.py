"""Python numbers among a jit-ed function's arguments are traced weakly
typed, as in JAX: like a number written in the code they take the dtype of
the arrays they meet, while a NumPy scalar keeps its own."""
import numpy as np
import pytest

import tracec
import tracec.numpy as tnp


def test_a_traced_number_keeps_an_arrays_dtype():
    f = tracec.jit(lambda x, s: x * s)
    x16 = np.array([1, 2, 3], np.float16)
    out = f(x16, 0.5)
    assert out.dtype == np.float16
    np.testing.assert_array_equal(out, x16 * np.float16(0.5))
    # Another value reuses the trace.
    np.testing.assert_array_equal(f(x16, 2.0), x16 * np.float16(2))
    assert f.trace_count == 1
    # A NumPy scalar is strongly typed: float16 meets float32 (JAX's
    # lattice), a trace of its own.
    assert f(x16, np.float32(0.5)).dtype == np.float32
    assert f.trace_count == 2


@pytest.mark.parametrize("array_dtype, number, expected", [
    (np.int32, 3, np.int32),
    (np.int32, 2.5, np.float32),
    (np.int64, 3, np.int64),
    (np.float64, 0.5, np.float64),
    (np.float16, 3, np.float16),
    (np.bool_, 2, np.int32),
    (np.int32, 2 ** 40, np.int64),
])
def test_the_dtype_of_an_array_and_a_traced_number(array_dtype, number,
                                                    expected):
    """JAX's rules (`jnp.add(x, n)` for a weak n): an integer number keeps
    an integer or float array's dtype, a float makes an integer array
    float32; a number past int32's range widens int32 to int64 (JAX,
    without x64, raises an overflow)."""
    x = np.array([1, 0, 1], array_dtype)
    out = tracec.jit(lambda x, n: x + n)(x, number)
    assert out.dtype == expected
    np.testing.assert_array_equal(out, (x.astype(expected) +
                                        np.asarray(number, expected)))


def test_weakness_flows_through_ops_on_numbers_alone():
    f = tracec.jit(lambda x, s: x * tnp.sin(s * 2) + (s > 0))
    x16 = np.array([1, 2], np.float16)
    out = f(x16, 0.25)
    assert out.dtype == np.float16
    expected = x16 * np.float16(np.sin(0.5)) + np.float16(1)
    np.testing.assert_allclose(out.astype(np.float32),
                               expected.astype(np.float32), rtol=1e-3)


def test_a_number_alone_is_float32_or_int32():
    assert tracec.jit(lambda s: s * 2)(1.5).dtype == np.float32
    assert tracec.jit(lambda n: n + 1)(3).dtype == np.int32
    assert tracec.jit(lambda b: b)(True).dtype == np.bool_


def test_numbers_inside_structures_and_keywords_are_weak():
    f = tracec.jit(lambda x, p, scale=1.0: x * p["w"] * scale)
    x16 = np.ones(2, np.float16)
    assert f(x16, {"w": 3.0}, scale=0.5).dtype == np.float16
    np.testing.assert_array_equal(f(x16, {"w": 3.0}, scale=0.5),
                                  np.full(2, 1.5, np.float16))


def test_gradient_with_respect_to_a_weak_number():
    """d/ds sum(x * s) = sum(x), in x's float64; against the finite
    difference."""
    x = np.array([0.5, -1.25, 3.0])
    loss = lambda x, s: tnp.sum(tnp.sin(x * s))  # noqa: E731
    g = tracec.jit(tracec.grad(loss, argnums=1))(x, 0.75)
    eps = 1e-6
    fd = (np.sum(np.sin(x * (0.75 + eps))) -
          np.sum(np.sin(x * (0.75 - eps)))) / (2 * eps)
    np.testing.assert_allclose(float(g), fd, rtol=1e-5)
    gx = tracec.jit(tracec.grad(loss))(x, 0.75)
    assert gx.dtype == np.float64
    np.testing.assert_allclose(gx, 0.75 * np.cos(x * 0.75), rtol=1e-12)


def test_static_numbers_stay_python():
    f = tracec.jit(lambda x, s: x * s, static_argnums=1)
    x16 = np.ones(2, np.float16)
    assert f(x16, 2.0).dtype == np.float16
    f(x16, 3.0)
    assert f.trace_count == 2
