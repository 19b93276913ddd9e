"""TensorFlow's tensorflow/python/eager/backprop_test.py (2018), ported to
tracec's API: one case per TensorFlow test that applies, named after it.
Numbers are checked against NumPy, PyTorch at f64 or finite differences.
The tests not ported (devices, op attributes) are listed with their reason
in docs/guides/tensorflow-compatibility.md."""
import functools
import re

import numpy as np
import pytest
import torch

import tracec
import tracec.numpy as tnp


def f32(*shape, seed=0):
    return np.random.default_rng(seed).random(shape).astype(np.float32)


def torch_grads(fn, *arrays):
    """The gradients of sum(fn(*arrays)) by PyTorch at f64."""
    ts = [torch.tensor(np.asarray(a, np.float64), requires_grad=True)
          for a in arrays]
    fn(*ts).sum().backward()
    return [t.grad.numpy() for t in ts]


def test_aggregate_gradients():
    # backprop_test.py testAggregateGradients
    # Gathers of rows (TensorFlow's IndexedSlices gradients) and a dense
    # use of x fan in to one gradient.
    rows = [np.array([0, 1]), np.array([2, 3]), np.array([1, 3])]

    def fn(x):
        g1, g2, g3 = (tnp.take(x, r, axis=0) for r in rows)
        g4 = tnp.sum(x * 2.0)
        return g1 * g2 * g3 * g4

    x = np.random.default_rng(0).random((4, 2))
    grad = tracec.gradients_function(fn, [0])(x)[0]

    def reference(t):
        g1, g2, g3 = (t[torch.from_numpy(r)] for r in rows)
        return g1 * g2 * g3 * (t * 2.0).sum()
    np.testing.assert_allclose(grad, torch_grads(reference, x)[0], rtol=1e-12)


def test_implicit_grad_with_resource_variable():
    # backprop_test.py testImplicitGradWithResourceVariable
    x = tracec.Variable(1.0, name="x")

    def fn():
        c = tnp.add(x.read_value(), np.float32(2.0))
        return tnp.add(c, np.float32(3.0))

    grads_and_vars = tracec.implicit_grad(fn)()
    assert grads_and_vars[0][0] == 1.0
    assert grads_and_vars[0][1] is x


def test_dy():
    # backprop_test.py testDy
    assert tracec.gradients_function(lambda x: x)(1.0, dy=2.0)[0] == 2.0


def test_errors():
    # backprop_test.py testErrors
    @tracec.custom_gradient
    def f(x):
        def grad(_):
            raise RuntimeError("x")
        return x, grad

    with pytest.raises(RuntimeError):
        tracec.gradients_function(f)(np.float32(1.0))


def test_gradients_function_in_custom_gradient():
    # backprop_test.py testGradientsFunctionInCustomGradient
    @tracec.custom_gradient
    def f(x):
        (y,) = tracec.gradients_function(lambda x: x * x)(x)

        def grad(dy):
            return [2 * dy]
        return y, grad

    assert f(np.float32(1.0)) == 2.0


def test_implicit_grad_over_embedding_lookup():
    # backprop_test.py testImplicitGradOverEmbeddingLookup
    # TensorFlow's gradient is IndexedSlices; tracec's is dense: the
    # scattered rows are compared, then one SGD step as in the test.
    batch_size, embedding_size, vocab_size, lr = 8, 16, 50, 0.1
    init = f32(vocab_size, embedding_size)
    x = np.ones(batch_size, np.int64)
    embedding = tracec.Variable(init, name="embedding")

    def f():
        return np.float32(1.0) - tnp.take(embedding.read_value(), x, axis=0)

    grad = tracec.implicit_grad(f)()[0][0]
    expected_grad = np.zeros_like(init)
    np.add.at(expected_grad, x, -np.ones((batch_size, embedding_size)))
    np.testing.assert_allclose(grad, expected_grad)
    tracec.SGD(lr).apply_gradients([(grad, embedding)])
    np.testing.assert_allclose(embedding.numpy(), init - lr * expected_grad,
                               rtol=1e-6)


def test_implicit_grad_ordering():
    # backprop_test.py testImplicitGradOrdering
    # The variables come in the order they were created, not read.
    v0 = tracec.Variable(1.0)
    v1 = tracec.Variable(2.0)

    def f():
        x = v1 * v1
        y = v0 * v0
        return x + y

    grads = tracec.implicit_grad(f)()
    assert grads[0][1] is v0
    assert grads[1][1] is v1


def test_gradient_none():
    # backprop_test.py testGradientNone
    # The cross entropy's second output (its backprop) gets no gradient.
    def loss(x, labels):
        return tnp.mean(tracec.nn.softmax_cross_entropy_with_logits(
            labels=labels, logits=x), axis=0)

    logits = np.array([[0.0, 0.0]], np.float32)
    labels = np.array([[1.0, 0.0]], np.float32)
    g, = tracec.gradients_function(loss, [0])(logits, labels)
    np.testing.assert_array_equal(g, [[-0.5, 0.5]])


def test_gradient_within_tape_block():
    # backprop_test.py testGradientWithinTapeBlock
    v1 = tracec.Variable(1.0)
    with tracec.GradientTape() as t:
        loss = 2 * v1
        with pytest.raises(RuntimeError):
            t.gradient(loss, [v1])
    with tracec.GradientTape(persistent=True) as t:
        loss = 2 * v1
        grad = t.gradient(loss, [v1])
    assert grad[0] == 2.0


def test_second_grad():
    # backprop_test.py testSecondGrad
    # With one class the cross entropy is 0 whatever the logit.
    def first(x):
        labels = np.array([[0.0]], np.float32)
        x = tracec.nn.softmax_cross_entropy_with_logits(labels=labels,
                                                        logits=x)
        return tnp.sum(x, axis=0)

    def second(x):
        grad = tracec.gradients_function(first, [0])(x)[0]
        return tnp.sum(grad, axis=0)

    grad = tracec.gradients_function(second, [0])(
        np.array([[0.1]], np.float32))[0]
    np.testing.assert_array_equal(grad, [[0.0]])


def test_make_vjp():
    # backprop_test.py testMakeVJP
    result, vjp = tracec.make_vjp(lambda x: x * x, persistent=False)(
        np.float32(3.0))
    assert result == 9.0
    assert vjp(2.0)[0] == 12.0


def test_persistent_make_vjp():
    # backprop_test.py testPersistentMakeVJP
    _, vjp = tracec.make_vjp(lambda x: x * x, persistent=True)(
        np.float32(3.0))
    assert vjp(2.0)[0] == vjp(2.0)[0] == 12.0


def test_grad_grad():
    # backprop_test.py testGradGrad
    def grad(x):
        return tracec.gradients_function(lambda x: x * x, [0])(x)[0]

    assert tracec.gradients_function(grad, [0])(np.float32(3.0))[0] == 2.0


def test_grad_grad_exp():
    # backprop_test.py testGradGradExp
    def grad(x):
        return tracec.gradients_function(tnp.exp, [0])(x)[0]

    assert tracec.gradients_function(grad, [0])(np.float32(0.0))[0] == 1.0


def test_stop_gradient():
    # backprop_test.py testStopGradient
    grad = tracec.gradients_function(
        lambda x: tracec.stop_gradient(tnp.argmax(x)))
    assert grad(np.array([0.0], np.float32))[0] is None


def test_argmax():
    # backprop_test.py testArgmax
    def argmax(x):
        return tracec.stop_gradient(tnp.argmax(x))

    assert tracec.gradients_function(argmax)(
        np.array([0.0], np.float32))[0] is None


def test_cpu():
    # backprop_test.py testCPU
    def fn(x):
        c = tnp.add(x, np.float32(2.0))
        return tnp.add(c, np.float32(3.0))

    assert tracec.gradients_function(fn, [0])(np.float32(1.0))[0] == 1.0


def test_empty_params():
    # backprop_test.py testEmptyParams
    x, y = np.float32(1.0), np.float32(2.0)
    dx, dy = tracec.gradients_function(lambda a, b: a * b)(x, y)
    assert dx == y and dy == x


def test_unconnected_none():
    # backprop_test.py testUnconnectedNone
    v = tracec.Variable(1.0, name="testUnconnectedNone")

    def f():
        v.read_value()
        return np.float32(1.0)

    assert tracec.implicit_grad(f)()[0][0] is None


def test_gradient_tape_repeated_source():
    # backprop_test.py testGradientTapeRepeatedSource
    with tracec.GradientTape(persistent=False) as g:
        x = np.asarray(3.0, np.float32)
        g.watch(x)
        y = 2 * tnp.asarray(x)
    assert g.gradient(target=y, sources=[x, x]) == [2.0, 2.0]


def test_persistent_gradient_tape_repeated_source():
    # backprop_test.py testPersistentGradientTapeRepeatedSource
    with tracec.GradientTape(persistent=True) as g:
        x = np.asarray(3.0, np.float32)
        y = np.asarray(5.0, np.float32)
        g.watch(x)
        g.watch(y)
        tx, ty = tnp.asarray(x), tnp.asarray(y)
        z = tx * tx + tx * ty
    assert g.gradient(target=z, sources=[x, x]) == [11.0, 11.0]
    assert g.gradient(target=z, sources=[y, x]) == [3.0, 11.0]


def test_gradient_tape_structure():
    # backprop_test.py testGradientTapeStructure
    x1, x2, x3 = (np.asarray(v, np.float32) for v in (3.0, 3.1, 3.2))
    with tracec.GradientTape(persistent=True) as g:
        g.watch(x1)
        g.watch(x2)
        g.watch(x3)
        y = tnp.asarray(x1) + 2 * tnp.asarray(x2) + 3 * tnp.asarray(x3)
    assert g.gradient(y, x1) == 1.0
    assert g.gradient(y, (x1,)) == (1.0,)
    assert g.gradient(y, (x1, x2)) == (1.0, 2.0)
    assert g.gradient(y, [(x1, x2), (x2, x3)]) == [(1.0, 2.0), (2.0, 3.0)]
    assert g.gradient(y, (x1, x2, [x1, x3])) == (1.0, 2.0, [1.0, 3.0])
    assert g.gradient(y, [x1, {"x2": x2, "x3": x3}]) == \
        [1.0, {"x2": 2.0, "x3": 3.0}]


def test_gradient_tape():
    # backprop_test.py testGradientTape
    with tracec.GradientTape() as g:
        x = np.asarray(3.0, np.float32)
        g.watch(x)
        y = tnp.asarray(x) * x
        with tracec.GradientTape() as gg:
            gg.watch(y)
            z = 2 * y
        inner_grad = gg.gradient(z, [y])[0]
        assert inner_grad == 2.0
        y += inner_grad
    assert g.gradient(y, [x])[0] == 6.0


def test_gradient_tape_with_cond():
    # backprop_test.py testGradientTapeWithCond
    # TensorFlow's graph mode raised NotImplementedError here; tracec's
    # tape differentiates the cond eagerly and inside a function alike.
    # (x * x of a NumPy array is NumPy's: tnp.multiply records.)
    x = np.asarray(3.0, np.float32)

    def tape_gradient(x):
        with tracec.GradientTape() as g:
            g.watch(x)
            y = tracec.cond(x < x, lambda: x, lambda: tnp.multiply(x, x))
        return g.gradient(y, [x])[0]

    assert tape_gradient(x) == 6.0
    assert tracec.function(tape_gradient)(x) == 6.0


def test_gradient_tape_with_while_loop():
    # backprop_test.py testGradientTapeWithWhileLoop
    # (tracec.while_loop is jax.lax's: the functions take the loop state.)
    def tape_gradient(x):
        with tracec.GradientTape() as g:
            g.watch([x])
            _, y = tracec.while_loop(lambda s: s[0] < 3,
                                     lambda s: (s[0] + 1, tnp.multiply(s[1], 2.0)),
                                     (np.int32(1), x))
        return g.gradient(y, [x])[0]

    x = np.asarray(2.0, np.float32)
    assert tape_gradient(x) == 4.0
    assert tracec.function(tape_gradient)(x) == 4.0


def test_gradient_tape_gradient_called_multiple_times():
    # backprop_test.py testGradientTapeGradientCalledMultipleTimes
    with tracec.GradientTape() as g:
        x = np.asarray(3.0, np.float32)
        g.watch(x)
        y = tnp.asarray(x) * x
        z = y * y
    g.gradient(z, [x])
    with pytest.raises(RuntimeError,
                       match="GradientTape.gradient can only be called once"):
        g.gradient(y, [x])


def test_persistent_tape():
    # backprop_test.py testPersistentTape
    with tracec.GradientTape(persistent=True) as g:
        x = np.asarray(3.0, np.float32)
        g.watch(x)
        y = tnp.asarray(x) * x
        z = y * y
    assert g.gradient(z, [x])[0] == 4 * 3 * 3 * 3
    assert g.gradient(y, [x])[0] == 2 * 3


def test_persistent_nested_tape():
    # backprop_test.py testPersistentNestedTape
    with tracec.GradientTape(persistent=True) as g:
        x = np.asarray(3.0, np.float32)
        g.watch(x)
        y = tnp.asarray(x) * x
        with tracec.GradientTape(persistent=True) as gg:
            gg.watch(y)
            z = 2 * y
        for _ in range(2):
            inner_grad = gg.gradient(z, [y])[0]
            assert inner_grad == 2.0
        y += inner_grad
        del gg
    assert g.gradient(y, [x])[0] == 6.0
    assert g.gradient(z, [x])[0] == 12.0


def test_gradient_tape_variable():
    # backprop_test.py testGradientTapeVariable
    v = tracec.Variable(1.0, name="v")
    with tracec.GradientTape() as g:
        y = v * v
    assert g.gradient(y, [v])[0] == 2.0


def test_empty_params_for_value_and_grad_function():
    # backprop_test.py testEmptyParamsForValueAndGradFunction
    val, (dx, dy) = tracec.val_and_grad_function(lambda a, b: a * b)(2.0, 3.0)
    np.testing.assert_allclose(val, 6.0)
    assert dx == 3.0 and dy == 2.0


def test_non_empty_params_for_value_and_grad_function():
    # backprop_test.py testNonEmptyParamsForValueAndGradFunction
    val, grads = tracec.val_and_grad_function(lambda a, b: a * b,
                                              params=[1])(2.0, 3.0)
    np.testing.assert_allclose(val, 6.0)
    assert len(grads) == 1 and grads[0] == 2.0


def test_mul_type():
    # backprop_test.py testMulType
    assert tracec.gradients_function(lambda x: tnp.multiply(x, x))(3.0)[0] \
        == 6.0


def test_args_gradient_function():
    # backprop_test.py testArgsGradientFunction
    def f(*args):
        return args[0] * args[0]

    assert tracec.gradients_function(f)(1.0)[0] == 2.0


def test_partial():
    # backprop_test.py testPartial
    def f(x, y):
        return x * y

    part = functools.partial(f, np.float32(2.0))
    assert tracec.gradients_function(part)(np.float32(1.0))[0] == 2.0


def test_return_same_thing():
    # backprop_test.py testReturnSameThing
    assert tracec.gradients_function(lambda x: (x, 2 * x))(1.0)[0] == 3.0


def test_exception_safety():
    # backprop_test.py testExceptionSafety
    # A function that raises leaves no tape behind.
    def f(unused_x):
        raise ValueError()

    with pytest.raises(ValueError):
        tracec.gradients_function(f)(1.0)
    assert tracec.gradients_function(lambda x: x * x)(1.0)[0] == 2.0


def test_multi_value_convert_to_tensor():
    # backprop_test.py testMultiValueConvertToTensor
    x = tracec.Variable(np.array([1.0], np.float32), name="x")

    def fn():
        a = tnp.add(x.read_value(), np.float32(1.0))
        b = tnp.stack([a, a], axis=0)
        return tnp.mean(b)

    grad = tracec.implicit_grad(fn)()[0][0]
    np.testing.assert_array_equal(grad, [1.0])


def test_output():
    # backprop_test.py testOutput
    def multiout(x):
        return x + 2, x * x

    grad = tracec.gradients_function(multiout)(
        np.array([0.0, 1.0, 2.0], np.float32))[0]
    np.testing.assert_array_equal(grad, [1.0, 3.0, 5.0])


def test_multi_value_preserves_if_not_diffed_against():
    # backprop_test.py testMultiValuePreservesIfNotDiffedAgainst
    def conv(image, kernel, strides):
        return tracec.nn.conv2d(image, kernel, strides[1:3], "SAME")

    i = np.array([[[[1.0]]]], np.float32)
    k = np.array([[[[2.0]]]], np.float32)
    grad = tracec.gradients_function(conv, params=(0,))(i, k, [1, 1, 1, 1])[0]
    np.testing.assert_array_equal(grad, [[[[2.0]]]])


def test_same_object_for_multiple_arguments():
    # backprop_test.py testSameObjectForMultipleArguments
    # TensorFlow converts a nested list to a tensor; in tracec a list is
    # a pytree of numbers, whose gradient has the list's structure.
    g = tracec.gradients_function(lambda x, y: tnp.multiply(x, y))

    def np_g(x, y):
        return [np.asarray(d).tolist() for d in g(x, y)]

    x = np.float32(1.0)
    assert np_g(x, x) == [1.0, 1.0]
    assert np_g(1.0, 1.0) == [1.0, 1.0]
    x = np.array([[1.0]], np.float32)
    assert np_g(x, x) == [[[1.0]], [[1.0]]]
    v = tracec.Variable(1.0, name="testSameObjectForMultipleArguments.Variable")
    assert np_g(v, v) == [1.0, 1.0]


def test_implicit_gradients_custom_gradient_and_cached_variable_value():
    # backprop_test.py testImplicitGradientsCustomGradientAndCachedVariableValue
    # TensorFlow's variable is an int32 one (initial_value=3); tracec gives
    # integers no gradient, so it is a float here.
    @tracec.custom_gradient
    def my_square(x):
        result = tnp.square(x)

        def grad(dr):
            return 2 * dr * x + 1
        return result, grad

    x = tracec.Variable(3.0, name="X.cached")
    grads_and_vars = tracec.implicit_grad(lambda: my_square(x))()
    assert len(grads_and_vars) == 1
    grad, var = grads_and_vars[0]
    assert grad == 7.0
    assert var is x


def test_custom_gradient():
    # backprop_test.py testCustomGradient
    @tracec.custom_gradient
    def my_mul(x, y):
        result = x * y

        def grad(dr):
            return [dr * y, dr * x]
        return result, grad

    lr = 0.25
    x = tracec.Variable(2.0, name="x")

    def loss(x):
        return my_mul(np.float32(2.0), x.read_value())

    loss_grads_fn = tracec.implicit_value_and_grad(loss)
    losses = []
    for _ in range(5):
        value, grads_and_vars = loss_grads_fn(x)
        losses.append(float(value))
        for grad, var in grads_and_vars:
            var.assign_sub(lr * grad)
    assert losses == [4.0, 3.0, 2.0, 1.0, 0.0]


def test_custom_gradient_identity():
    # backprop_test.py testCustomGradientIdentity
    @tracec.custom_gradient
    def my_identity(x):
        def grad(dresult):
            return [2 * dresult]
        return x, grad

    assert tracec.gradients_function(my_identity)(1.0)[0] == 2.0


def test_differentiating_function_that_returns_none():
    # backprop_test.py testDifferentiatingFunctionThatReturnsNone
    def fn(x, y):
        result = x * y  # noqa: F841

    x, y = np.int32(1), np.int32(2)
    message = ("Cannot differentiate a function that returns None; did you "
               "forget to return a value from fn?")
    with pytest.raises(ValueError, match=re.escape(message)):
        tracec.implicit_value_and_grad(fn)(x, y)
    with pytest.raises(ValueError, match=re.escape(message)):
        tracec.val_and_grad_function(fn)(x, y)
