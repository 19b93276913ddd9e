"""Slicing of tracec values with NumPy's rules, negative steps included
(x[::-1], x[5:1:-2]): values and gradients against NumPy, traced and on
Variables eagerly."""
import numpy as np
import pytest

import tracec
import tracec.numpy as tnp

X = np.random.default_rng(0).standard_normal((5, 7)).astype(np.float32)

INDICES = [
    np.s_[::-1],
    np.s_[:, ::-1],
    np.s_[:, 5:1:-2],
    np.s_[4:0:-3, 1:6:2],
    np.s_[-1, ::-2],
    np.s_[::-2, None, -1],
    np.s_[..., 6::-4],
    np.s_[1:3:-1],       # empty
    np.s_[2:1:-1, 0],    # one element
    np.s_[-100:100:-1],  # clamped, empty
    np.s_[100:-100:-2],  # clamped, every other row from the last
]


@pytest.mark.parametrize("index", INDICES, ids=str)
def test_slice_value_matches_numpy(index):
    @tracec.function
    def f(x):
        return x[index] * 2.0

    np.testing.assert_array_equal(f(X), X[index] * 2.0)


@pytest.mark.parametrize("index", INDICES, ids=str)
def test_slice_gradient_matches_numpy(index):
    cotangent = np.random.default_rng(1).standard_normal(
        X[index].shape).astype(np.float32)

    def loss(x):
        return tnp.sum(tnp.multiply(x[index], cotangent))

    g = tracec.grad(loss)(X)
    expected = np.zeros_like(X)
    expected[index] = cotangent  # basic slices never repeat an element
    np.testing.assert_allclose(g, expected, rtol=1e-6)

    # Inside a traced function, through a tape.
    @tracec.function
    def traced(x):
        with tracec.GradientTape() as tape:
            tape.watch(x)
            y = loss(x)
        return tape.gradient(y, x)

    np.testing.assert_allclose(traced(X), expected, rtol=1e-6)


def test_variable_slices_eagerly():
    v = tracec.Variable(X)
    np.testing.assert_array_equal(v[::-1, 5:1:-2], X[::-1, 5:1:-2])


def test_zero_step_is_an_error():
    @tracec.function
    def f(x):
        return x[::0]

    with pytest.raises(ValueError, match="slice step cannot be zero"):
        f(X)


def test_boolean_masks_are_an_error():
    # Not integer indices (0 and 1): a result whose shape is the data's.
    @tracec.function
    def f(x):
        return x[x > 0]

    for mask_of in (f, lambda x: tracec.Variable(x)[x > 0]):
        with pytest.raises(IndexError, match="boolean mask indexing is not "
                           "supported"):
            mask_of(X)

