"""bf16 from Python: mixed precision (f32 master weights cast to bf16 for
the contractions, as torch.autocast does) against PyTorch computing the
same casts, and bf16 results crossing NumPy (which has no bf16) as
float32."""

import numpy as np
import pytest
import torch

import tracec
import tracec.numpy as tnp


def bf16(x):
    """x rounded to the nearest bf16 (ties to even), as float32."""
    return torch.from_numpy(np.asarray(x, np.float32)).bfloat16().float() \
        .numpy()


def test_bf16_results_cross_as_float32():
    # 1 + 2^-8 ties to 1 (even); 1 + 3 * 2^-8 to 1 + 2^-6.
    x = np.array([1.0, 1 + 2**-8, 1 + 3 * 2**-8, -2.5, np.inf], np.float32)
    got = tracec.function(lambda x: tnp.astype(x, tnp.bfloat16))(x)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, [1.0, 1.0, 1 + 2**-6, -2.5, np.inf])
    np.testing.assert_array_equal(got, bf16(x))


def test_bf16_dtype_names():
    for name in ("bf16", "bfloat16", tnp.bfloat16):
        f = tracec.function(lambda x, name=name: tnp.astype(x, name) * 3)
        np.testing.assert_array_equal(f(np.float32(1 / 3)), bf16(bf16(1 / 3) * 3))


def mlp_loss(w1, w2, x, labels, *, cast):
    """A two-layer MLP's softmax cross-entropy; with `cast`, the matmuls'
    operands are cast to bf16 and their products back to f32."""
    def matmul(a, b):
        if not cast:
            return a @ b
        return tnp.astype(tnp.astype(a, tnp.bfloat16) @
                          tnp.astype(b, tnp.bfloat16), tnp.float32)
    h = tracec.nn.relu(matmul(x, w1))
    logits = matmul(h, w2)
    return tnp.mean(tracec.nn.sparse_softmax_cross_entropy_with_logits(
        labels, logits))


@pytest.mark.parametrize("batch,width", [(64, 96), (33, 70)])
def test_mixed_precision_gradients_match_torch(batch, width):
    """The loss and both weight gradients of the bf16-cast MLP against
    PyTorch doing the same casts (bf16 products summed in f32, rounded to
    bf16): they agree within a bf16 rounding of the largest gradient,
    while the loss is bf16's distance (about 2^-8) from the f32 model's."""
    rng = np.random.default_rng(batch)
    x = rng.standard_normal((batch, 50)).astype(np.float32)
    w1 = (rng.standard_normal((50, width)) * 0.2).astype(np.float32)
    w2 = (rng.standard_normal((width, 10)) * 0.2).astype(np.float32)
    labels = rng.integers(0, 10, batch).astype(np.int32)

    step = tracec.function(tracec.value_and_grad(
        lambda w1, w2, x, y: mlp_loss(w1, w2, x, y, cast=True),
        argnums=(0, 1)))
    loss, (g1, g2) = step(w1, w2, x, labels)

    tw1, tw2 = (torch.tensor(w, requires_grad=True) for w in (w1, w2))
    def mm(a, b):
        return (a.bfloat16() @ b.bfloat16()).float()
    h = torch.relu(mm(torch.from_numpy(x), tw1))
    want = torch.nn.functional.cross_entropy(
        mm(h, tw2), torch.from_numpy(labels).long())
    want.backward()
    np.testing.assert_allclose(loss, want.item(), rtol=1e-5)
    for got, expected in ((g1, tw1.grad), (g2, tw2.grad)):
        scale = np.abs(expected.numpy()).max()
        assert np.abs(got - expected.numpy()).max() <= 2**-8 * scale

    f32_loss = tracec.function(
        lambda w1, w2, x, y: mlp_loss(w1, w2, x, y, cast=False))(
            w1, w2, x, labels)
    assert 0 < abs(loss - f32_loss) <= 2**-6 * abs(f32_loss)


def test_tensor_spec_takes_bf16():
    spec = tracec.TensorSpec((None, 3), tnp.bfloat16)
    assert spec.dtype == "bf16" and spec.numpy_dtype == np.float32
    assert repr(spec) == "TensorSpec(shape=(None, 3), dtype=bfloat16)"
    assert spec == tracec.TensorSpec((None, 3), "bfloat16")
    assert spec != tracec.TensorSpec((None, 3), np.float32)
    assert len({spec, tracec.TensorSpec((None, 3), "bf16")}) == 1
    # Any float array passes, rounded going in; integers do not.
    assert spec.is_compatible_with(np.zeros((2, 3), np.float32))
    assert spec.is_compatible_with(np.zeros((5, 3), np.float64))
    assert not spec.is_compatible_with(np.zeros((2, 3), np.int32))
    assert not spec.is_compatible_with(np.zeros((2, 4), np.float32))


def test_bf16_input_signature_rounds_float_arrays_going_in():
    @tracec.function(input_signature=[tracec.TensorSpec((None,), tnp.bfloat16)])
    def triple(x):
        return x * 3

    x = np.array([1 / 3, 1 + 2**-8, 1 + 3 * 2**-8, -2.5], np.float32)
    want = bf16(bf16(x) * 3)
    got = triple(x)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(triple(x.astype(np.float64)), want)
    np.testing.assert_array_equal(triple(x[:2]), want[:2])  # one trace
    assert triple.trace_count == 1
    concrete = triple.get_concrete_function()
    assert concrete.inputs == [tracec.TensorSpec((None,), tnp.bfloat16)]
    assert concrete.outputs == [tracec.TensorSpec((None,), tnp.bfloat16)]
    with pytest.raises(ValueError, match=r"expected TensorSpec\(shape=\(None,"
                       r"\), dtype=bfloat16\), got an array of shape \(4,\) "
                       r"and dtype int32"):
        triple(x.astype(np.int32))


def test_bf16_input_signature_called_in_a_trace():
    @tracec.function(input_signature=[tracec.TensorSpec((2,), tnp.bfloat16)])
    def double(x):
        return x * 2

    x = np.array([1 / 3, 1 + 3 * 2**-8], np.float32)
    # An array argument is rounded to bf16 at the call; a bf16 value passes.
    outer = tracec.function(lambda: tnp.astype(double(x), tnp.float32))
    np.testing.assert_array_equal(outer(), bf16(x) * 2)
    inner = tracec.function(lambda y: double(tnp.astype(y, tnp.bfloat16)))
    np.testing.assert_array_equal(inner(x), bf16(x) * 2)
    # A traced f32 value is not a bf16 one (as tf.function's signature).
    with pytest.raises(ValueError, match="expected TensorSpec.*bfloat16.*"
                       "dtype float32"):
        tracec.function(lambda y: double(y))(x)
