"""Arrays of other libraries (torch tensors: anything with __array__ or
__dlpack__) are array arguments, not static ones: one trace per shape and
dtype, values and gradients as for NumPy arrays."""
import numpy as np
import torch

import tracec
import tracec.numpy as tnp
from tracec import _core


class DLPackOnly:
    """An array that only speaks DLPack (no __array__)."""

    def __init__(self, tensor):
        self._tensor = tensor

    def __dlpack__(self, stream=None):
        return self._tensor.__dlpack__()

    def __dlpack_device__(self):
        return self._tensor.__dlpack_device__()


def test_torch_tensors_are_arrays_not_static_arguments():
    @tracec.function
    def f(x, w):
        return tnp.tanh(x @ w)

    w = torch.randn(3, 2, dtype=torch.float64)
    for seed in range(3):
        x = torch.randn(4, 3, dtype=torch.float64,
                        generator=torch.Generator().manual_seed(seed))
        np.testing.assert_allclose(f(x, w), torch.tanh(x @ w).numpy(),
                                   rtol=1e-12)
    assert f.trace_count == 1  # was one trace per tensor (static)
    f(torch.randn(5, 3, dtype=torch.float64), w)
    f(torch.randn(4, 3), w.float())
    assert f.trace_count == 3  # a new shape, a new dtype


def test_torch_tensors_in_structures_and_dlpack_only_arrays():
    @tracec.function
    def f(p):
        return p["a"] + p["b"]

    a = torch.arange(3, dtype=torch.float32)
    b = DLPackOnly(torch.ones(3))
    np.testing.assert_array_equal(f({"a": a, "b": b}), [1, 2, 3])
    np.testing.assert_array_equal(f({"a": a * 2, "b": b}), [1, 3, 5])
    assert f.trace_count == 1


def test_converted_without_a_copy():
    t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    assert np.shares_memory(_core.from_foreign(t), t.numpy())
    assert np.shares_memory(_core.from_foreign(DLPackOnly(t)), t.numpy())


def test_gradients_eager_ops_and_captures_with_torch_tensors():
    x = torch.tensor([0.3, -1.2, 2.0], dtype=torch.float64)
    w = torch.tensor([0.5, 0.25, -1.0], dtype=torch.float64)
    g = tracec.grad(lambda x, w: tnp.sum(tnp.sin(x) * w))(x, w)
    tx = x.clone().requires_grad_()
    (torch.sin(tx) * w).sum().backward()
    np.testing.assert_allclose(g, tx.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(tnp.exp(x), torch.exp(x).numpy(), rtol=1e-12)

    @tracec.function
    def scaled(v):
        return v * w  # a tensor closed over: a captured input
    np.testing.assert_allclose(scaled(np.ones(3)), w.numpy(), rtol=1e-12)
    assert tracec.Variable(w).dtype == np.float64
