"""tracec.numpy against NumPy's semantics: division (true, floor, modulo),
indices, argmax, arange, Python numbers, booleans, NumPy's own functions
on traced values, and the dtype promotion grid (with JAX's differences
named). Each result is checked against NumPy computing the same thing;
gradients of the remainder against PyTorch at f64."""
import itertools

import numpy as np
import pytest
import torch

import tracec
import tracec.numpy as tnp

INTS = np.array([7, -7, 7, -7, 0, 5, -2147483648, 6, -6, 1], np.int32)
INT_DIVISORS = np.array([2, 2, -2, -2, 3, 0, -1, 3, 3, -7], np.int32)
FLOATS = np.array([7.5, -7.5, 7.5, -7.5, 1.0, 0.0, -0.0, 3.0, 1.0, np.inf,
                   2.0, -1.0])
FLOAT_DIVISORS = np.array([2.0, 2.0, -2.0, -2.0, 0.1, 3.0, 3.0, 0.0, -0.0,
                           2.0, np.inf, np.inf])


def numpy_(fn, *args):
    with np.errstate(all="ignore"):
        return fn(*args)


def traced(fn):
    return tracec.function(fn)


def test_true_division_of_integers_is_float64():
    a, b = np.array([7, 1], np.int32), np.array([2, 1], np.int32)
    for result in (tnp.divide(a, b), traced(lambda x, y: x / y)(a, b)):
        assert result.dtype == np.float64
        np.testing.assert_array_equal(result, [3.5, 1.0])
    # With a Python int, and an int64 array.
    np.testing.assert_array_equal(traced(lambda x: x / 2)(a), [3.5, 0.5])
    np.testing.assert_array_equal(
        tnp.divide(np.array([2**40 + 1], np.int64), 2), [2**39 + 0.5])
    # A float operand keeps its own dtype.
    assert tnp.divide(a, np.float32(2)).dtype == np.float32


def test_python_float_meeting_integers_is_not_truncated():
    a = np.array([1, 2], np.int32)
    result = traced(lambda x: x + 0.5)(a)
    assert result.dtype == np.float32
    np.testing.assert_array_equal(result, [1.5, 2.5])


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_integer_floor_divide_and_remainder(dtype):
    a, b = INTS.astype(dtype), INT_DIVISORS.astype(dtype)
    if dtype == np.int64:
        a[6] = np.iinfo(np.int64).min
    expected_q = numpy_(np.floor_divide, a, b)
    expected_r = numpy_(np.remainder, a, b)
    np.testing.assert_array_equal(tnp.floor_divide(a, b), expected_q)
    np.testing.assert_array_equal(tnp.remainder(a, b), expected_r)
    q, r = traced(lambda x, y: divmod(x, y))(a, b)
    np.testing.assert_array_equal(q, expected_q)
    np.testing.assert_array_equal(r, expected_r)
    assert q.dtype == dtype and r.dtype == dtype
    np.testing.assert_array_equal(traced(lambda x, y: x // y)(a, b),
                                  expected_q)
    np.testing.assert_array_equal(traced(lambda x, y: x % y)(a, b),
                                  expected_r)
    np.testing.assert_array_equal(tnp.fmod(a, b), numpy_(np.fmod, a, b))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_floor_divide_and_remainder(dtype):
    a, b = FLOATS.astype(dtype), FLOAT_DIVISORS.astype(dtype)
    np.testing.assert_array_equal(tnp.floor_divide(a, b),
                                  numpy_(np.floor_divide, a, b))
    np.testing.assert_array_equal(tnp.remainder(a, b),
                                  numpy_(np.remainder, a, b))
    np.testing.assert_array_equal(tnp.fmod(a, b), numpy_(np.fmod, a, b))
    q, r = traced(lambda x, y: divmod(x, y))(a, b)
    np.testing.assert_array_equal(q, numpy_(np.floor_divide, a, b))
    np.testing.assert_array_equal(r, numpy_(np.remainder, a, b))
    # 1 // 0.1 is 9, not floor(1 / 0.1) = 10: 0.1 is just above a tenth.
    assert tnp.floor_divide(np.float64(1.0), np.float64(0.1)) == 9.0


def test_operators_with_python_numbers_on_both_sides():
    x = np.array([7.0, -7.5, 2.0], np.float32)
    got = traced(lambda x: (x // 2, 7 // x, x % 3, 7 % x, divmod(7.0, x)))(x)
    expected = numpy_(lambda x: (x // np.float32(2), np.float32(7) // x,
                                 x % np.float32(3), np.float32(7) % x,
                                 divmod(np.float32(7), x)), x)
    for g, e in zip(got[:4], expected[:4]):
        np.testing.assert_array_equal(g, e)
    np.testing.assert_array_equal(got[4][0], expected[4][0])
    np.testing.assert_array_equal(got[4][1], expected[4][1])


def test_remainder_gradients_match_pytorch():
    a = np.array([7.5, -7.5, 7.3, -2.2, 0.7], np.float64)
    b = np.array([2.0, 2.0, -2.1, 0.3, -0.25], np.float64)

    def loss(x, y):
        return tnp.sum(tnp.multiply(tnp.remainder(x, y), tnp.sin(x))) + \
            tnp.sum(tnp.fmod(x, y) * y)

    da, db = tracec.gradients_function(loss, [0, 1])(a, b)
    ta = torch.tensor(a, requires_grad=True)
    tb = torch.tensor(b, requires_grad=True)
    (torch.sum(torch.remainder(ta, tb) * torch.sin(ta)) +
     torch.sum(torch.fmod(ta, tb) * tb)).backward()
    np.testing.assert_allclose(da, ta.grad.numpy(), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(db, tb.grad.numpy(), rtol=1e-12, atol=1e-12)


def test_floor_divide_has_zero_gradient():
    a = np.array([7.5, -3.0], np.float64)
    da, = tracec.gradients_function(
        lambda x: tnp.sum(tnp.floor_divide(x, 2.0) + x), [0])(a)
    np.testing.assert_array_equal(da, [1.0, 1.0])


def test_take_wraps_negative_indices():
    x = np.arange(10, dtype=np.float32).reshape(5, 2)
    np.testing.assert_array_equal(tnp.take(x, [-1, -2], axis=0),
                                  np.take(x, [-1, -2], axis=0))
    np.testing.assert_array_equal(tnp.take(x, [-1, 3]), np.take(x, [-1, 3]))
    np.testing.assert_array_equal(x[[-1, 0]], traced(lambda v: v[[-1, 0]])(x))
    # Traced indices wrap as well, also along a dynamic dim.
    ids = np.array([-1, 0, -5], np.int32)
    np.testing.assert_array_equal(
        traced(lambda v, i: tnp.take(v, i, axis=0))(x, ids), x[ids])
    dynamic = tracec.function(
        lambda v, i: tnp.take(v, i, axis=0),
        input_signature=[tracec.TensorSpec([None, 2], np.float32),
                         tracec.TensorSpec([3], np.int32)])
    np.testing.assert_array_equal(dynamic(x, ids), x[ids])
    np.testing.assert_array_equal(dynamic(x[:3], ids + 2), x[:3][ids + 2])


def test_take_out_of_range_is_an_index_error_when_known():
    x = np.zeros((3, 2), np.float32)
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis "
                       "0 with size 3"):
        tnp.take(x, [0, 3], axis=0)
    with pytest.raises(IndexError, match="index -4 is out of bounds"):
        traced(lambda v: tnp.take(v, np.array([-4]), axis=0))(x)
    with pytest.raises(IndexError, match="must be of integer type"):
        tnp.take(x, [0.5], axis=0)
    with pytest.raises(IndexError, match="axis 2 is out of bounds"):
        tnp.take(x, [0], axis=2)
    # Traced indices cannot be checked: out-of-range ones clamp.
    clamped = traced(lambda v, i: tnp.take(v, i, axis=0))(
        np.arange(6, dtype=np.float32).reshape(3, 2),
        np.array([5, -9], np.int32))
    np.testing.assert_array_equal(clamped, [[4, 5], [0, 1]])


def test_scatter_add_wraps_negative_indices():
    got = tnp.scatter_add(np.zeros(4, np.float32), [-1, 0, -1],
                          np.ones(3, np.float32))
    expected = np.zeros(4, np.float32)
    np.add.at(expected, [-1, 0, -1], 1.0)
    np.testing.assert_array_equal(got, expected)


def test_argmax_and_argmin_flatten_without_axis():
    x = np.array([[1.0, 9.0, 3.0], [7.0, 2.0, 9.5]], np.float32)
    assert int(tnp.argmax(x)) == np.argmax(x) == 5
    assert int(tnp.argmin(x)) == np.argmin(x) == 0
    np.testing.assert_array_equal(tnp.argmax(x, axis=0), np.argmax(x, 0))
    assert int(traced(lambda v: tnp.argmax(v))(x)) == 5


@pytest.mark.parametrize("args, dtype", [
    ((5,), np.int32), ((3.0,), np.float32), ((2.5,), np.float32),
    ((2, 9, 3), np.int32), ((9, 2, -2), np.int32), ((0.0, 1.0, 0.25),
                                                     np.float32),
    ((1, -3), np.int32), ((-1.5, 2.0, 0.5), np.float32)])
def test_arange_matches_numpy(args, dtype):
    got = tnp.arange(*args)
    assert got.dtype == dtype
    np.testing.assert_allclose(got, np.arange(*args), rtol=1e-6)
    assert tnp.arange(*args, dtype=np.float64).dtype == np.float64


def test_arange_refuses_what_numpy_refuses():
    with pytest.raises(ValueError, match="step cannot be zero"):
        tnp.arange(0, 4, 0)
    with pytest.raises(TypeError, match="must be a Python number"):
        traced(lambda n: tnp.arange(n))(np.float32(3))


def test_python_numbers_outside_a_trace():
    assert tnp.sin(1.0).dtype == np.float32
    np.testing.assert_allclose(tnp.sin(1.0), np.sin(1.0), rtol=1e-6)
    assert tnp.add(1, 2) == 3 and tnp.add(1, 2).dtype == np.int32
    np.testing.assert_allclose(tnp.multiply(1.5, 2), 3.0)
    assert tnp.exp(0) == 1.0


def test_booleans():
    t = np.array([True, True, False, False])
    f = np.array([True, False, True, False])
    np.testing.assert_array_equal(tnp.add(t, f), np.add(t, f))
    np.testing.assert_array_equal(tnp.multiply(t, f), np.multiply(t, f))
    ops = traced(lambda a, b: (a + b, a * b, a & b, a | b, a ^ b, ~a,
                               a + True))
    for got, expected in zip(ops(t, f), (t + f, t * f, t & f, t | f, t ^ f,
                                         ~t, t + True)):
        np.testing.assert_array_equal(got, expected)
        assert got.dtype == np.bool_
    assert traced(lambda a: a + 1)(t).dtype == np.int32
    with pytest.raises(TypeError, match="boolean subtract"):
        traced(lambda a, b: a - b)(t, f)
    with pytest.raises(TypeError, match="no bitwise ops on integers"):
        traced(lambda a: a & 1)(np.array([3], np.int32))
    for name in ("logical_and", "logical_or", "logical_xor"):
        np.testing.assert_array_equal(
            getattr(tnp, name)(np.array([0, 2, 0]), np.array([1.5, 3.0, 0])),
            getattr(np, name)(np.array([0, 2, 0]), np.array([1.5, 3.0, 0])))
    np.testing.assert_array_equal(tnp.logical_not(np.array([0.0, 2.0])),
                                  [True, False])


def test_numpy_functions_on_traced_values():
    x = np.array([[0.5, -1.0], [2.0, 3.0]], np.float32)
    k = np.array([10.0, 20.0], np.float32)

    def f(v):
        return (np.sin(v), np.sum(v, axis=0), k + v, k * v, np.exp(v).mean(),
                np.maximum(v, 0.0), np.where(v > 0, v, k), k > v,
                np.floor_divide(v, 2.0), np.matmul(k, v))

    expected = (np.sin(x), np.sum(x, axis=0), k + x, k * x,
                np.exp(x).mean(), np.maximum(x, 0), np.where(x > 0, x, k),
                k > x, x // 2.0, k @ x)
    for got, want in zip(traced(f)(x), expected):
        np.testing.assert_allclose(got, want, rtol=1e-6)
    # And its gradient: NumPy's names record the same ops.
    g, = tracec.gradients_function(lambda v: np.sum(np.sin(v) * v), [0])(
        x.astype(np.float64))
    np.testing.assert_allclose(g, np.cos(x) * x + np.sin(x), rtol=1e-6)


def test_numpy_functions_without_a_tracec_op_are_refused():
    x = np.ones(3, np.float32)
    # (np.arctan2 and np.sort have tracec ops now: nextafter and partition
    # do not.)
    with pytest.raises(TypeError, match="np.nextafter on a symbolic value"):
        traced(lambda v: np.nextafter(v, v))(x)
    with pytest.raises(TypeError, match="np.partition on a symbolic value"):
        traced(lambda v: np.partition(v, 1))(x)
    with pytest.raises(TypeError, match="shape depends on the data"):
        traced(lambda v: np.where(v > 0))(x)
    with pytest.raises(TypeError, match="with out="):
        traced(lambda v: np.sin(v, out=np.empty(3, np.float32)))(x)


DTYPES = [np.bool_, np.int32, np.int64, np.float16, np.float32, np.float64]


def jax_result_type(a, b):
    """NumPy's result type, but where an integer or bool meets a float
    narrower than float64, the float (JAX's lattice; NumPy widens to
    float64): the differences docs/guides/python.md names."""
    a, b = np.dtype(a), np.dtype(b)
    for i, f in ((a, b), (b, a)):
        if i.kind in "biu" and f.kind == "f":
            return f
    return np.result_type(a, b)


@pytest.mark.parametrize("a, b", list(itertools.product(DTYPES, DTYPES)))
def test_promotion_grid(a, b):
    x = np.array([1, 0], a)
    y = np.array([1, 1], b)
    expected = jax_result_type(a, b)
    assert tnp.promote_types(a, b) == expected
    assert tnp.add(x, y).dtype == expected
    assert tnp.maximum(x, y).dtype == expected
    if np.dtype(a).kind in "biu" and np.dtype(b).kind in "biu":
        # True division of integers: float64, as NumPy.
        assert tnp.divide(x, y).dtype == np.float64
        if not (a == b == np.bool_):
            q = tnp.floor_divide(x, y)
            assert q.dtype == (np.int32 if expected == np.bool_ else
                               expected)
    else:
        assert tnp.divide(x, y).dtype == expected
    # Where the lattices agree, the values are NumPy's too.
    if expected == np.result_type(a, b) and not (a == b == np.bool_):
        np.testing.assert_array_equal(tnp.subtract(x, y),
                                      np.subtract(x, y))


def test_equality_operators_are_elementwise():
    x = np.array([0.0, 1.0, 2.0], np.float32)
    eq, ne, reflected, none = traced(
        lambda v: (v == 0, v != 1.0, np.array([0.0, 5.0, 2.0]) == v,
                   np.asarray(v == None)))(x)  # noqa: E711
    np.testing.assert_array_equal(eq, [True, False, False])
    np.testing.assert_array_equal(ne, [True, False, True])
    np.testing.assert_array_equal(reflected, [True, False, True])
    assert not none  # compared as objects: not None
    # A branch on `x == 0` of a static structure works as JAX's: the
    # gradient at 0 of where(x == 0, 0, sqrt(x)) is 0, not NaN.
    g = tracec.grad(lambda v: tnp.sum(tnp.where(v == 0, 0.0, tnp.sqrt(
        tnp.where(v == 0, 1.0, v)))))(np.array([0.0, 4.0]))
    np.testing.assert_allclose(g, [0.0, 0.25])
