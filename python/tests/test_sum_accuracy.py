"""f32 sums over outer axes are as accurate as PyTorch's cascade sums.

Summing every reduced element into one accumulator, in sequence, loses
accuracy with the count (the batch-norm statistics of a 64x32x32x16 tensor
had 60x PyTorch's error); tracec adds them in blocks. The reference is the
f64 sum of the same f32 values; PyTorch's error on the same data is the bar.
"""
import numpy as np
import pytest
import torch

import tracec
import tracec.numpy as tnp

CASES = [
    ((64, 32, 32, 16), (0, 1, 2)),  # batch-norm statistics, NHWC
    ((65536, 16), (0,)),  # one long outer axis
    ((4096, 3, 8), (0, 1)),
    ((1000, 7, 32), (0,)),  # an axis with no block-sized divisor
    ((8, 64, 64, 64), (0, 2)),  # a kept dim between reduced ones
]


def relative_error(actual, exact):
    return float(np.max(np.abs(actual.astype(np.float64) - exact) /
                        np.abs(exact)))


@pytest.mark.parametrize("shape,axes", CASES)
@pytest.mark.parametrize("reduction", ["sum", "mean"])
def test_outer_axis_sums_within_2x_of_pytorch(shape, axes, reduction):
    rng = np.random.default_rng(7)
    # Positive values: no cancellation, so the error is the summation's.
    x = (rng.random(shape) + 0.5).astype(np.float32)
    exact = getattr(np, reduction)(x.astype(np.float64), axis=axes)

    reduce = getattr(tnp, reduction)
    ours = np.asarray(tracec.function(lambda v: reduce(v, axis=axes))(x))
    theirs = getattr(torch, reduction)(torch.from_numpy(x), dim=axes).numpy()

    ours_error = relative_error(ours, exact)
    their_error = relative_error(theirs, exact)
    assert ours_error <= 2 * their_error, (ours_error, their_error)


def test_outer_axis_sum_with_dynamic_batch():
    # A `?` innermost reduced axis is summed in f64 throughout.
    f = tracec.function(lambda v: tnp.sum(v, axis=(0, 1)),
                        input_signature=[tracec.TensorSpec([None, 1024, 16],
                                                           np.float32)])
    rng = np.random.default_rng(3)
    for batch in (0, 1, 5):
        x = (rng.random((batch, 1024, 16)) + 0.5).astype(np.float32)
        exact = np.sum(x.astype(np.float64), axis=(0, 1))
        # Within 1 ulp: the block sums are added in f64.
        np.testing.assert_allclose(np.asarray(f(x)), exact,
                                   rtol=np.finfo(np.float32).eps, atol=0)


def test_outer_axis_sum_gradient_is_ones():
    x = np.random.default_rng(1).random((256, 4, 16)).astype(np.float32)
    g = tracec.grad(lambda v: tnp.sum(tnp.sum(v, axis=(0, 1)) * 2.0))(x)
    np.testing.assert_array_equal(np.asarray(g), np.full_like(x, 2.0))
