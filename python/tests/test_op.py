"""tracec._core.op: every op of the dialect by name, its operands promoted
as the op's traits say; bad requests raise."""
import numpy as np
import pytest

import tracec
from tracec import _core


def f64(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def test_an_op_by_name_with_attributes_matches_numpy():
    x = f64(3, 4)

    @tracec.function
    def f(x):
        return (_core.op("reduce_sum", x, axes=[1], keepdims=True),
                _core.op("transpose", x, perm=[1, 0]),
                _core.op("softmax", x, axis=0))

    total, transposed, soft = f(x)
    np.testing.assert_allclose(total, x.sum(1, keepdims=True), rtol=1e-12)
    np.testing.assert_array_equal(transposed, x.T)
    e = np.exp(x - x.max(0))
    np.testing.assert_allclose(soft, e / e.sum(0), rtol=1e-12)


def test_the_op_traits_promote_operands():
    i = np.array([1, 2, 3], np.int32)
    d = np.array([0.5, 0.5, 0.5])

    @tracec.function
    def f(i, d):
        return (_core.op("add", i, d),      # Trace_PromotesOperands
                _core.op("exp", i),         # Trace_PromotesIntegersToFloat
                _core.op("select", _core.op("lt", i, d), i, d))

    added, exped, selected = f(i, d)
    assert added.dtype == np.float64 and exped.dtype == np.float32
    np.testing.assert_allclose(added, i + d)
    np.testing.assert_allclose(exped, np.exp(i), rtol=1e-6)
    assert selected.dtype == np.float64
    np.testing.assert_allclose(selected, np.where(i < d, i, d))


def test_an_op_without_a_numpy_wrapper_is_reachable_and_differentiable():
    x = f64(1, 5, 5, 2, seed=1)
    w = f64(3, 3, 2, 4, seed=2)

    def loss(x, w):
        y = _core.op("conv2d", x, w, strides=[1, 1], padding=[1, 1, 1, 1])
        return tracec.numpy.sum(y * y)

    gx = tracec.grad(loss)(x, w)
    value = tracec.function(loss)
    eps = 1e-6
    probe = np.zeros_like(x)
    probe[0, 2, 3, 1] = eps
    fd = (value(x + probe, w) - value(x - probe, w)) / (2 * eps)
    np.testing.assert_allclose(gx[0, 2, 3, 1], fd, rtol=1e-6)


@pytest.mark.parametrize("call,message", [
    (lambda x: _core.op("no_such_op", x), "is not an op that the tracer builds from tensors alone"),
    (lambda x: _core.op("reduce_sum", x), "axes"),
    (lambda x: _core.op("argmax", x, axis=1.5), "trace.argmax"),
    (lambda x: _core.op("add", x), "trace.add"),
])
def test_bad_requests_raise_a_trace_error(call, message):
    @tracec.function
    def f(x):
        return call(x)

    with pytest.raises(tracec.TraceError, match=message):
        f(f64(2, 3))


def test_an_attribute_of_an_unsupported_kind_is_a_type_error():
    @tracec.function
    def f(x):
        return _core.op("argmax", x, axis={"a": 1})

    with pytest.raises(TypeError, match="attribute 'axis' of 'trace.argmax'"):
        f(f64(2, 3))


# ---------------------------------------------------------------------------
# trace.reduce_logsumexp, added end to end through the op-as-unit path.
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("axis,keepdims", [(None, False), (1, False),
                                           ((0, 2), True), (-1, True)])
def test_logsumexp_matches_torch_with_its_gradient(axis, keepdims):
    import torch
    x = f64(2, 3, 4, seed=3) * 3

    def loss(x):
        return tracec.numpy.sum(tracec.nn.logsumexp(x, axis, keepdims) ** 2)

    dims = tuple(range(3)) if axis is None else axis
    t = torch.tensor(x, requires_grad=True)
    expected = torch.logsumexp(t, dim=dims, keepdim=keepdims)
    (expected ** 2).sum().backward()
    np.testing.assert_allclose(tracec.nn.logsumexp(x, axis, keepdims),
                               expected.detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(tracec.grad(loss)(x), t.grad.numpy(),
                               rtol=1e-10)


def test_logsumexp_is_stable_at_large_and_infinite_elements():
    x = np.array([[1000.0, 1000.0], [-np.inf, -np.inf], [np.inf, 1.0],
                  [-1000.0, -1001.0]])
    got = tracec.nn.logsumexp(x, axis=1)
    np.testing.assert_allclose(
        got, [1000 + np.log(2), -np.inf, np.inf, -1000 + np.log1p(np.exp(-1))],
        rtol=1e-12)
    f32 = tracec.nn.logsumexp(x.astype(np.float32), axis=1)
    assert f32.dtype == np.float32 and np.isfinite(f32[0])


def test_logsumexp_forward_mode_matches_reverse_mode():
    x = f64(3, 5, seed=4)
    v = f64(3, 5, seed=5)

    def f(x):
        return tracec.nn.logsumexp(x, axis=1)

    _, tangent = tracec.jvp(f, (x,), (v,))
    jacobian = tracec.jacrev(f)(x)
    np.testing.assert_allclose(tangent, np.einsum("ijk,jk->i", jacobian, v),
                               rtol=1e-10)
