"""The seeds' backprop API: gradients_function, val_and_grad_function and
make_vjp differentiate non-scalar and multiple outputs (output gradients
default to ones; `dy` gives the vector-Jacobian product), cases ported from
TensorFlow's backprop_test.py; checked against PyTorch at f64."""
import numpy as np
import pytest
import torch

import tracec
import tracec.numpy as tnp


def f64(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def test_output_gradients_default_to_ones():
    # backprop_test.py testOutput and testReturnSameThing.
    def multiout(x):
        return x + 2, x * x
    g, = tracec.gradients_function(multiout)(np.array([0.0, 1.0, 2.0]))
    np.testing.assert_array_equal(g, [1.0, 3.0, 5.0])
    g, = tracec.gradients_function(lambda x: (x, 2 * x))(1.0)
    assert g == 3.0


def test_dy():
    # testDy, testMakeVJP, testPersistentMakeVJP.
    assert tracec.gradients_function(lambda x: x)(1.0, dy=2.0)[0] == 2.0
    result, vjp = tracec.make_vjp(lambda x: x * x)(3.0)
    assert result == 9.0
    assert vjp(2.0)[0] == 12.0 and vjp(2.0)[0] == 12.0
    assert vjp()[0] == 6.0


def test_non_scalar_outputs_and_dy_against_torch():
    x, w = f64(4, 3), f64(3, 2, seed=1)
    dy = {"h": f64(4, 2, seed=2), "norm": np.float64(0.7)}

    def f(x, w):
        h = tnp.tanh(x @ w)
        return {"h": h, "norm": tnp.sum(w * w)}

    tx = torch.tensor(x, requires_grad=True)
    tw = torch.tensor(w, requires_grad=True)
    th = torch.tanh(tx @ tw)
    torch.autograd.backward([th, (tw * tw).sum()],
                            [torch.tensor(dy["h"]), torch.tensor(0.7,
                                                                 dtype=torch.float64)])
    value, (gx, gw) = tracec.val_and_grad_function(f)(x, w, dy=dy)
    np.testing.assert_allclose(value["h"], th.detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(gx, tx.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(gw, tw.grad.numpy(), rtol=1e-12)

    # Without dy: the gradient of the sum of every output.
    gx, gw = tracec.gradients_function(f)(x, w)
    tx.grad = tw.grad = None
    (torch.tanh(tx @ tw).sum() + (tw * tw).sum()).backward()
    np.testing.assert_allclose(gx, tx.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(gw, tw.grad.numpy(), rtol=1e-12)


def test_params_by_index_and_by_name():
    # testEmptyParamsForValueAndGradFunction, testNonEmpty...,
    # testMultiValuePreservesIfNotDiffedAgainst.
    def fn(a, b):
        return a * b
    val, (dx, dy) = tracec.val_and_grad_function(fn)(2.0, 3.0)
    assert (val, dx, dy) == (6.0, 3.0, 2.0)
    val, grads = tracec.val_and_grad_function(fn, params=[1])(2.0, 3.0)
    assert val == 6.0 and len(grads) == 1 and grads[0] == 2.0
    assert tracec.gradients_function(fn, params=["b"])(2.0, 3.0) == [2.0]

    def conv(image, kernel, strides):
        return tracec.nn.conv2d(image, kernel, strides[1:3], "SAME")
    g, = tracec.gradients_function(conv, params=(0,))(
        np.ones((1, 1, 1, 1), np.float32), np.full((1, 1, 1, 1), 2.0,
                                                   np.float32), [1, 1, 1, 1])
    np.testing.assert_array_equal(g, [[[[2.0]]]])
    with pytest.raises(ValueError, match="no parameters named 'c'"):
        tracec.gradients_function(fn, params=["c"])(2.0, 3.0)


def test_unconnected_and_integer_parameters_get_none():
    # testGradientInteger, testStopGradient.
    assert tracec.gradients_function(lambda x: x + x)(np.int32(1)) == [None]
    grads = tracec.gradients_function(
        lambda x, y: tracec.stop_gradient(x) * 2.0 + tnp.sum(y))(
            np.float32(1.0), np.ones(2, np.float32))
    assert grads[0] is None
    np.testing.assert_array_equal(grads[1], [1, 1])


def test_second_derivative_and_repeated_arguments():
    # testGradGrad, testGradGradExp, testSameObjectForMultipleArguments,
    # testArgsGradientFunction.
    def grad(x):
        return tracec.gradients_function(lambda x: x * x, [0])(x)[0]
    assert tracec.gradients_function(grad, [0])(3.0)[0] == 2.0

    def grad_exp(x):
        return tracec.gradients_function(tnp.exp, [0])(x)[0]
    assert tracec.gradients_function(grad_exp, [0])(0.0)[0] == 1.0

    g = tracec.gradients_function(lambda x, y: x * y)
    x = np.array([[1.0]], np.float32)
    np.testing.assert_array_equal(g(x, x), [[[1.0]], [[1.0]]])
    assert tracec.gradients_function(lambda *args: args[0] * args[0])(
        1.0)[0] == 2.0


def test_one_trace_per_signature():
    f = tracec.function(lambda x: tnp.sum(tnp.sin(x)))
    g = tracec.gradients_function(f)
    for k in range(3):
        x = np.full(4, float(k), np.float32)
        np.testing.assert_allclose(g(x)[0], np.cos(x), rtol=1e-6)
    # f is traced once, as a callee of the one trace of the gradient.
    assert f.trace_count == 1


def test_errors_are_tensorflows():
    # testDifferentiatingFunctionThatReturnsNone.
    def fn(x, y):
        x * y  # noqa: B018 (returns nothing)
    with pytest.raises(ValueError, match="Cannot differentiate a function "
                                         "that returns None; did you forget "
                                         "to return a value from fn"):
        tracec.val_and_grad_function(fn)(np.float32(1), np.float32(2))
    with pytest.raises(ValueError, match="cannot receive keyword arguments"):
        tracec.gradients_function(fn)(np.float32(1), y=np.float32(2))
    with pytest.raises(ValueError, match="must be all strings or all "
                                         "integers"):
        tracec.gradients_function(fn, params=[0, "y"])(1.0, 2.0)


def test_jax_grad_keeps_the_scalar_rule():
    with pytest.raises((TypeError, tracec.TraceError)):
        tracec.grad(lambda x: x * x)(np.ones(3, np.float32))
    with pytest.raises(TypeError, match="must return one scalar"):
        tracec.grad(lambda x: (tnp.sum(x), x))(np.ones(3, np.float32))


def test_one_value_passed_as_two_parameters_gets_two_partial_derivatives():
    # f(x, x): each parameter is a source of its own (TensorFlow's
    # _ensure_unique_tensor_objects); inside a function both got the total
    # derivative, a silent wrong gradient ([2ab + a^2] twice).
    def f(a, b):
        return a * a * b

    @tracec.function
    def inside(x):
        return tracec.gradients_function(f)(x, x)

    x = np.float64(3.0)
    for grads in (inside(x), tracec.gradients_function(f)(x, x)):
        np.testing.assert_allclose([float(g) for g in grads],
                                   [2 * x * x, x * x], rtol=1e-12)
