"""Dynamic dims from Python: an input_signature with None dims compiles once
for every size; reduce_retracing traces a dim dynamic once it has taken two
sizes. Traces and compiles are counted; numbers are checked against NumPy."""
import warnings

import numpy as np
import pytest

import tracec
import tracec.numpy as tnp

SIZES = (1, 7, 64, 256)


def _mlp_reference(x, w1, b1, w2):
    h = np.maximum(x @ w1 + b1, 0)
    logits = h @ w2
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True), np.tanh(h).sum(axis=1)


def _weights(rng):
    return (rng.standard_normal((8, 16)).astype(np.float32) * 0.5,
            rng.standard_normal(16).astype(np.float32) * 0.1,
            rng.standard_normal((16, 4)).astype(np.float32) * 0.5)


def test_input_signature_with_none_compiles_once_for_every_batch_size():
    rng = np.random.default_rng(0)
    w1, b1, w2 = _weights(rng)
    shapes_seen = []

    @tracec.function(input_signature=[tracec.TensorSpec([None, 8])])
    def predict(x):
        shapes_seen.append(tuple(x.shape))
        h = tracec.nn.relu(x @ w1 + b1)
        return tracec.nn.softmax(h @ w2), tnp.sum(tnp.tanh(h), axis=1)

    for n in SIZES:
        x = rng.standard_normal((n, 8)).astype(np.float32)
        probs, norms = predict(x)
        want_probs, want_norms = _mlp_reference(x, w1, b1, w2)
        assert probs.shape == (n, 4) and norms.shape == (n,)
        np.testing.assert_allclose(probs, want_probs, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(norms, want_norms, rtol=1e-5, atol=1e-5)
    # One trace, with the batch dim symbolic; one compile.
    assert shapes_seen == [(None, 8)]
    assert predict.experimental_get_tracing_count() == 1
    assert predict.experimental_get_compile_count() == 1
    concrete = predict.get_concrete_function()
    assert concrete.inputs == [tracec.TensorSpec([None, 8])]
    assert [o.shape for o in concrete.outputs] == [(None, 4), (None,)]
    assert "tensor<?x8xf32>" in concrete.ir()
    assert predict.get_concrete_function(tracec.TensorSpec([None, 8])) \
        is concrete
    assert predict.get_concrete_function(np.zeros((3, 8), np.float32)) \
        is concrete
    assert predict.trace_count == 1
    # The concrete function itself takes every size too.
    x = rng.standard_normal((5, 8)).astype(np.float32)
    np.testing.assert_allclose(concrete(x)[0], _mlp_reference(x, w1, b1, w2)[0],
                               rtol=1e-5, atol=1e-6)


def test_none_dims_shared_by_arguments_and_mismatches():
    @tracec.function(input_signature=[tracec.TensorSpec([None, 3], name="x"),
                                      tracec.TensorSpec([None, 3]),
                                      tracec.TensorSpec([3])])
    def scale(x, s, b):
        return tnp.tanh(x * s + b)

    rng = np.random.default_rng(1)
    b = rng.standard_normal(3).astype(np.float32)
    for n in (2, 9):
        x, s = (rng.standard_normal((n, 3)).astype(np.float32)
                for _ in range(2))
        np.testing.assert_allclose(scale(x, s, b), np.tanh(x * s + b),
                                   rtol=1e-6, atol=1e-6)
    # Sizes the ops tie together are checked at the call, named.
    with pytest.raises(ValueError) as error:
        scale(np.ones((5, 3), np.float32), np.ones((4, 3), np.float32), b)
    assert "argument 0 dim 0 is 5 but argument 1 dim 0 is 4" in \
        str(error.value)
    assert "'trace.mul'" in str(error.value)
    # Static dims, ranks and dtypes against the signature.
    with pytest.raises(ValueError, match=r"argument 0 \(x\) does not match "
                       r"the input_signature: expected TensorSpec\(shape="
                       r"\(None, 3\), dtype=float32\), got an array of shape "
                       r"\(5, 4\) and dtype float32 \(dim 1 is 4, expected 3\)"):
        scale(np.ones((5, 4), np.float32), np.ones((5, 4), np.float32), b)
    with pytest.raises(ValueError, match=r"argument 1 does not match.*shape "
                       r"\(5,\)"):
        scale(np.ones((5, 3), np.float32), np.ones(5, np.float32), b)
    with pytest.raises(ValueError, match=r"argument 0 \(x\).*dtype float64"):
        scale(np.ones((5, 3)), np.ones((5, 3), np.float32), b)
    assert scale.trace_count == 1 and scale.compile_count == 1


def test_tensor_spec_none_dims():
    spec = tracec.TensorSpec([None, 3], np.float32)
    assert spec.shape == (None, 3)
    assert spec.is_compatible_with(np.zeros((7, 3), np.float32))
    assert spec.is_compatible_with(tracec.TensorSpec([2, 3]))
    assert not spec.is_compatible_with(np.zeros((7, 4), np.float32))
    assert not spec.is_compatible_with(np.zeros((7, 3), np.float64))
    assert not spec.is_compatible_with(np.zeros(3, np.float32))
    assert spec == tracec.TensorSpec((None, 3)) and \
        spec != tracec.TensorSpec((4, 3))
    with pytest.raises(ValueError, match="a dim is a size .* or None"):
        tracec.TensorSpec([-1, 3])
    with pytest.raises(ValueError, match="a dim is a size .* or None"):
        tracec.TensorSpec([2.5])


def test_reduce_retracing_traces_a_changing_dim_dynamic_once():
    shapes_seen = []

    @tracec.function(reduce_retracing=True)
    def f(x):
        shapes_seen.append(tuple(x.shape))
        return tnp.sum(tnp.tanh(x) * 2.0, axis=-1)

    rng = np.random.default_rng(2)
    for n in SIZES:
        x = rng.standard_normal((n, 3)).astype(np.float32)
        np.testing.assert_allclose(f(x), (np.tanh(x) * 2).sum(axis=1),
                                   rtol=1e-5, atol=1e-5)
    # Batch 1 traced as is; batch 7 retraced with the batch dim dynamic,
    # which serves 64 and 256: two traces, two compiles for four sizes.
    assert shapes_seen == [(1, 3), (None, 3)]
    assert f.experimental_get_tracing_count() == 2
    assert f.experimental_get_compile_count() == 2
    dynamic = f.get_concrete_function(np.zeros((64, 3), np.float32))
    assert dynamic is f.get_concrete_function(np.zeros((256, 3), np.float32))
    assert dynamic.inputs == [tracec.TensorSpec([None, 3])]
    # Batch 1 keeps its static trace.
    assert f.get_concrete_function(np.zeros((1, 3), np.float32)) \
        is not dynamic
    # Repeated sizes: no trace.
    for n in SIZES:
        f(np.ones((n, 3), np.float32))
    assert f.trace_count == 2
    # The other dim changes: one more trace, both dims dynamic.
    x = rng.standard_normal((7, 5)).astype(np.float32)
    np.testing.assert_allclose(f(x), (np.tanh(x) * 2).sum(axis=1), rtol=1e-5,
                               atol=1e-5)
    x = rng.standard_normal((9, 11)).astype(np.float32)
    np.testing.assert_allclose(f(x), (np.tanh(x) * 2).sum(axis=1), rtol=1e-5,
                               atol=1e-5)
    assert shapes_seen[2:] == [(None, None)]
    assert f.trace_count == 3 and f.compile_count == 3
    # A size the most specific dynamic trace serves goes to it.
    assert f.get_concrete_function(np.zeros((5, 3), np.float32)) is dynamic
    # Another rank or dtype is another structure: traced as is first.
    f(np.ones(4, np.float32))
    f(np.ones((4, 3), np.float64))
    assert shapes_seen[3:] == [(4,), (4, 3)]


def test_without_reduce_retracing_every_shape_is_traced():
    # The default, as in TensorFlow: traces stay static (dynamic code may be
    # slower, and Python code may compute with the sizes).
    @tracec.function
    def f(x):
        return x * 2.0

    for n in SIZES:
        x = np.full((n, 3), n, np.float32)
        np.testing.assert_array_equal(f(x), x * 2)
    assert f.trace_count == len(SIZES) and f.compile_count == len(SIZES)


def test_reduce_retracing_keeps_static_arguments_apart():
    @tracec.function(reduce_retracing=True)
    def f(x, power):
        return x ** power

    for n in (2, 3, 4):
        x = np.arange(n, dtype=np.float32)
        np.testing.assert_allclose(f(x, 2), x ** 2)
        np.testing.assert_allclose(f(x, 3), x ** 3)
    # Per power: static at 2, dynamic at 3 (serving 4).
    assert f.trace_count == 4


def test_reduce_retracing_falls_back_where_a_dynamic_dim_must_broadcast():
    @tracec.function(reduce_retracing=True)
    def add(x, y):
        return x + y

    rng = np.random.default_rng(3)
    for n in (4, 5):
        x, y = (rng.standard_normal((n, 3)).astype(np.float32)
                for _ in range(2))
        np.testing.assert_allclose(add(x, y), x + y)
    assert add.trace_count == 2  # the second with both batch dims `?`
    # (6, 3) + (1, 3) broadcasts in NumPy, but a `?` never broadcasts: the
    # dynamic trace's check fails and this call gets a trace of its own.
    x = rng.standard_normal((6, 3)).astype(np.float32)
    y = rng.standard_normal((1, 3)).astype(np.float32)
    np.testing.assert_allclose(add(x, y), x + y)
    np.testing.assert_allclose(add(x, y), x + y)
    assert add.trace_count == 3
    # Calls the dynamic trace serves still use it.
    x, y = (rng.standard_normal((8, 3)).astype(np.float32) for _ in range(2))
    np.testing.assert_allclose(add(x, y), x + y)
    assert add.trace_count == 3


def test_reduce_retracing_falls_back_when_the_dynamic_trace_fails():
    @tracec.function(reduce_retracing=True)
    def flat(x):
        return tnp.reshape(x, (x.shape[0] * x.shape[1],)) + 1.0

    np.testing.assert_array_equal(flat(np.zeros((2, 3), np.float32)),
                                  np.ones(6, np.float32))
    # x.shape[0] is None in the dynamic trace: it fails, with a warning,
    # and this function is traced per shape from then on.
    with pytest.warns(RuntimeWarning, match="flat: tracing with dynamic dims "
                      r"TensorSpec\(shape=\(None, 3\), dtype=float32\) "
                      "failed, tracing each shape instead"):
        out = flat(np.zeros((4, 3), np.float32))
    np.testing.assert_array_equal(out, np.ones(12, np.float32))
    np.testing.assert_array_equal(flat(np.zeros((5, 3), np.float32)),
                                  np.ones(15, np.float32))
    assert flat.trace_count == 3


def test_get_concrete_function_with_none_dims():
    @tracec.function
    def f(x, y):
        return x @ y

    concrete = f.get_concrete_function(tracec.TensorSpec([None, 4]),
                                       tracec.TensorSpec([4, 2]))
    assert concrete.inputs[0].shape == (None, 4)
    rng = np.random.default_rng(4)
    y = rng.standard_normal((4, 2)).astype(np.float32)
    for n in (3, 10):
        x = rng.standard_normal((n, 4)).astype(np.float32)
        np.testing.assert_allclose(f(x, y), x @ y, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(concrete(x, y), x @ y, rtol=1e-5,
                                   atol=1e-5)
    assert f.trace_count == 1


def test_dynamic_signature_with_callee_variable_and_method():
    total = tracec.Variable(np.zeros(3, np.float32))

    @tracec.function
    def double(v):
        return v * 2.0

    @tracec.function(input_signature=[tracec.TensorSpec([None, 3])])
    def accumulate(x):
        total.assign_add(tnp.sum(double(x), axis=0))
        return tnp.mean(x, axis=0)

    rng = np.random.default_rng(5)
    expected = np.zeros(3, np.float32)
    for n in (1, 6, 33):
        x = rng.standard_normal((n, 3)).astype(np.float32)
        np.testing.assert_allclose(accumulate(x), x.mean(axis=0), rtol=1e-5,
                                   atol=1e-6)
        expected += (2 * x).sum(axis=0)
        np.testing.assert_allclose(total.numpy(), expected, rtol=1e-5,
                                   atol=1e-5)
    assert accumulate.trace_count == 1 and double.trace_count == 1

    class Scaler(tracec.Module):
        def __init__(self):
            super().__init__()
            self.factor = tracec.Variable(np.full(2, 3.0, np.float32))

        @tracec.function(reduce_retracing=True)
        def __call__(self, x):
            return x * self.factor

    scaler = Scaler()
    for n in (1, 2, 3, 4):
        x = np.full((n, 2), n, np.float32)
        np.testing.assert_allclose(scaler(x), x * 3)
    assert Scaler.__call__.__get__(scaler, Scaler).trace_count == 2


def test_reduce_retracing_under_an_eager_tape_gives_correct_gradients():
    # Whether gradients run at `?` (trace-autodiff) or not yet: a taped call
    # gets them from the dynamic trace or, where that fails, from a static
    # trace of its shapes (with a RuntimeWarning); the numbers are the same.
    w = tracec.Variable(np.array([[0.5, -1.0], [2.0, 0.25], [-0.5, 1.5]],
                                 np.float32))

    @tracec.function(reduce_retracing=True)
    def loss(x):
        return tnp.sum(tnp.tanh(x @ w))

    rng = np.random.default_rng(6)
    for n in (2, 3, 5, 3):
        x = rng.standard_normal((n, 3)).astype(np.float32)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            with tracec.GradientTape() as tape:
                y = loss(x)
            (grad,) = tape.gradient(y, [w])
        h = x @ w.numpy()
        np.testing.assert_allclose(y, np.tanh(h).sum(), rtol=1e-5)
        np.testing.assert_allclose(grad, x.T @ (1 - np.tanh(h) ** 2),
                                   rtol=1e-4, atol=1e-5)
    # Without a tape, the dynamic trace serves a new size.
    before = loss.trace_count
    x = rng.standard_normal((11, 3)).astype(np.float32)
    np.testing.assert_allclose(loss(x), np.tanh(x @ w.numpy()).sum(),
                               rtol=1e-5)
    assert loss.trace_count == before
