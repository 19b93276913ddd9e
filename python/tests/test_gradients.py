"""Gradients: tapes (eager and traced), grad/value_and_grad/vjp,
tracec.gradients/hessians, checked against PyTorch autograd and finite
differences."""
import numpy as np
import pytest
import torch

import tracec
import tracec.numpy as tnp


def f32(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def torch_grad(fn, *arrays):
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    fn(*ts).backward()
    return [t.grad.numpy() for t in ts]


# --- tapes ------------------------------------------------------------------


def test_eager_tape_matches_torch():
    x, w = f32(4, 3), f32(3, 2, seed=1)
    with tracec.GradientTape() as tape:
        tape.watch([x, w])
        y = tnp.sum(tnp.tanh(tnp.matmul(x, w)))
    gx, gw = tape.gradient(y, [x, w])
    tx, tw = torch_grad(lambda a, b: torch.tanh(a @ b).sum(), x, w)
    np.testing.assert_allclose(gx, tx, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gw, tw, rtol=1e-5, atol=1e-6)


def test_tape_inside_function_watches_variables():
    w = tracec.Variable(f32(3, 2))
    x = f32(4, 3, seed=1)

    @tracec.function
    def f(x):
        with tracec.GradientTape() as tape:
            loss = tnp.mean(tnp.square(x @ w))
        return tape.gradient(loss, w), tape.watched_variables()[0] is w

    g, watched = f(x)
    (_, tw) = torch_grad(lambda a, b: ((a @ b) ** 2).mean(), x, w.numpy())
    np.testing.assert_allclose(g, tw, rtol=1e-5)
    assert bool(watched)


def test_watched_variables_eagerly():
    w = tracec.Variable(f32(3))
    frozen = tracec.Variable(f32(3, seed=1), trainable=False)
    x = f32(3, seed=2)
    with tracec.GradientTape() as tape:
        tape.watch(x)
        y = tnp.sum(tnp.exp(x) * w * frozen)
    assert tape.watched_variables() == [w]  # trainable ones, when read
    gx, gw, gf = tape.gradient(y, [x, w, frozen])
    np.testing.assert_allclose(gx, np.exp(x) * w.numpy() * frozen.numpy(),
                               rtol=1e-5)
    np.testing.assert_allclose(gw, np.exp(x) * frozen.numpy(), rtol=1e-5)
    assert gf is None
    with tracec.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(frozen)
        y = tnp.sum(w * frozen)
    assert tape.watched_variables() == [frozen]
    gw, gf = tape.gradient(y, [w, frozen])
    assert gw is None
    np.testing.assert_allclose(gf, w.numpy(), rtol=1e-6)


# The tape's API inside a traced function: what it recorded is what it
# differentiates, as eagerly (TensorFlow's semantics).


def test_tape_api_inside_a_traced_function():
    @tracec.function
    def f(x, ct):
        with tracec.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = x * x
            with tape.stop_recording():
                z = tnp.exp(x)       # not recorded
            s = tnp.sum(y * z)       # z is a constant for the tape
            t = tnp.sum(y)
        late = tnp.sum(y)            # after the block: not recorded
        return (tape.gradient(s, x),
                tape.gradient(y, x, output_gradients=ct),
                tape.gradient(z, x) is None,
                tape.gradient(z, x, unconnected_gradients="zero"),
                tape.gradient([s, t], [x]),
                tape.gradient([s, late], [x]))

    x, ct = f32(3), f32(3, seed=4)
    gs, gy, none, zero, (gsum,), (gs_only,) = f(x, ct)
    np.testing.assert_allclose(gs, 2 * x * np.exp(x), rtol=1e-5)
    np.testing.assert_allclose(gy, 2 * x * ct, rtol=1e-6)
    assert bool(none)
    np.testing.assert_array_equal(zero, np.zeros(3, np.float32))
    np.testing.assert_allclose(gsum, 2 * x * np.exp(x) + 2 * x, rtol=1e-5)
    np.testing.assert_allclose(gs_only, gs, rtol=1e-6)


def test_unwatched_sources_and_reset_inside_a_traced_function():
    @tracec.function
    def f(x, y):
        with tracec.GradientTape(persistent=True) as tape:
            tape.watch(x)
            a = tnp.sum(x * y)
        unwatched = tape.gradient(a, [x, y])
        tape.reset()                 # forgets the ops and the watches
        with tape:
            tape.watch(y)
            b = tnp.sum(x * y * y)
        return (unwatched[0], unwatched[1] is None,
                tape.gradient(a, x) is None, tape.gradient(b, [x, y]))

    x, y = f32(3), f32(3, seed=1)
    gx, y_none, a_none, (bx, by) = f(x, y)
    np.testing.assert_allclose(gx, y, rtol=1e-6)
    assert bool(y_none) and bool(a_none)
    assert bx is None
    np.testing.assert_allclose(by, 2 * x * y, rtol=1e-5)


def test_non_persistent_tape_inside_a_traced_function():
    @tracec.function
    def f(x):
        with tracec.GradientTape() as tape:
            tape.watch(x)
            y = tnp.sum(x * x)
        g = tape.gradient(y, x)
        tape.gradient(y, x)
        return g

    with pytest.raises(RuntimeError, match="only be called once"):
        f(f32(3))


def test_nested_tapes_inside_a_traced_function():
    w = tracec.Variable(np.array([0.5, -1.0], np.float32))

    @tracec.function
    def f(x):
        with tracec.GradientTape() as outer:
            outer.watch(x)
            with tracec.GradientTape() as inner:
                inner.watch(x)
                y = tnp.sum(x * x * x * w)      # sum w x^3
            dx, dw = inner.gradient(y, [x, w])   # 3 w x^2, x^3
            z = tnp.sum(dx * dx) + tnp.sum(dw)
        return dx, dw, outer.gradient(z, [x, w])

    x = np.array([1.5, 0.25], np.float32)
    dx, dw, (ddx, ddw) = f(x)
    wv = w.numpy()
    np.testing.assert_allclose(dx, 3 * wv * x ** 2, rtol=1e-6)
    np.testing.assert_allclose(dw, x ** 3, rtol=1e-6)
    # z = sum 9 w^2 x^4 + sum x^3
    np.testing.assert_allclose(ddx, 36 * wv ** 2 * x ** 3 + 3 * x ** 2,
                               rtol=1e-5)
    np.testing.assert_allclose(ddw, 18 * wv * x ** 4, rtol=1e-5)


def test_non_persistent_tape_gives_one_gradient():
    x = np.asarray(2.0, np.float32)
    with tracec.GradientTape() as tape:
        tape.watch(x)
        y = tnp.multiply(x, x)
    assert float(tape.gradient(y, x)) == 4.0
    with pytest.raises(RuntimeError, match="only be called once on a "
                       "non-persistent tape"):
        tape.gradient(y, x)


def test_persistent_tape_and_output_gradients():
    x = f32(3)
    with tracec.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tnp.multiply(x, x)
        z = tnp.sum(tnp.exp(x))
    np.testing.assert_allclose(tape.gradient(z, x), np.exp(x), rtol=1e-6)
    ct = f32(3, seed=5)
    np.testing.assert_allclose(tape.gradient(y, x, output_gradients=ct),
                               2 * x * ct, rtol=1e-6)


def test_eager_and_traced_tapes_slice_alike():
    # One slice (the tracer's, in C++) serves both: a source computed from
    # another source passes the gradient on (as in TensorFlow: h is an
    # intermediate, w's gradient flows through it), a path through
    # integers carries none, a record not on a path is not replayed.
    w = np.array([0.3, -1.2, 2.0])
    b = np.array([1.5, 0.5, -2.0])

    def program(tape, w, b):
        # (Eager values are NumPy arrays: tnp functions, not operators,
        # are what a tape records.)
        tape.watch([w, b])
        h = tnp.multiply(tnp.sin(w), b)
        k = tnp.argmax(h)                       # integer: no gradient
        y = tnp.add(tnp.sum(tnp.multiply(tnp.multiply(h, h), w)),
                    tnp.take(h, k))
        unused = tnp.exp(b)                     # not between sources and y
        return y, h, unused

    def grads_eagerly(w, b):
        with tracec.GradientTape() as tape:
            y, h, _ = program(tape, w, b)
        return tape.gradient(y, [w, h, b])

    @tracec.function
    def grads_traced(w, b):
        with tracec.GradientTape() as tape:
            y, h, _ = program(tape, w, b)
        return tape.gradient(y, [w, h, b])

    tw, tb = (torch.tensor(a, requires_grad=True) for a in (w, b))
    th = torch.sin(tw) * tb
    th.retain_grad()
    ty = (th * th * tw).sum() + th[torch.argmax(th)]
    ty.backward()
    expected = [tw.grad.numpy(), th.grad.numpy(), tb.grad.numpy()]
    for got in (grads_eagerly(w, b), grads_traced(w, b)):
        for g, e in zip(got, expected):
            np.testing.assert_allclose(np.asarray(g), e, rtol=1e-12)


def test_integer_targets_and_sources_give_none():
    # TensorFlow's convention: no gradient flows through integers; a None,
    # not an error, eagerly and traced.
    n = np.arange(3, dtype=np.int32)
    x = np.ones(3, np.float32)
    with tracec.GradientTape(persistent=True) as tape:
        tape.watch([n, x])
        total = tnp.sum(n)
        y = tnp.sum(tnp.multiply(x, x))
    assert tape.gradient(total, x) is None
    gn, gx = tape.gradient(y, [n, x])
    assert gn is None
    np.testing.assert_allclose(gx, 2 * x)

    @tracec.function
    def traced(n, x):
        assert tracec.gradients(tnp.sum(n), [x])[0] is None
        return tracec.gradients([tnp.sum(n), tnp.sum(tnp.multiply(x, x))],
                                [x])[0]

    np.testing.assert_allclose(traced(n, x), 2 * x)


def test_stop_recording_and_reset():
    x = f32(3)
    with tracec.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tnp.exp(x)
        with tape.stop_recording():
            z = tnp.exp(x)
    assert tape.gradient(z, x) is None
    np.testing.assert_array_equal(tape.gradient(z, x, unconnected_gradients="zero"),
                                  np.zeros(3, np.float32))
    np.testing.assert_allclose(tape.gradient(y, x), np.exp(x), rtol=1e-6)
    tape.reset()
    assert tape.gradient(y, x) is None


def test_nested_tapes_give_second_derivatives():
    x = np.asarray(1.5, np.float32)
    with tracec.GradientTape() as outer:
        outer.watch(x)
        with tracec.GradientTape() as inner:
            inner.watch(x)
            y = tnp.multiply(tnp.multiply(x, x), x)      # x^3
        dy = inner.gradient(y, x)                         # 3x^2
    d2y = outer.gradient(dy, x)                           # 6x
    np.testing.assert_allclose(dy, 3 * 1.5 ** 2, rtol=1e-6)
    np.testing.assert_allclose(d2y, 6 * 1.5, rtol=1e-6)


def test_nested_eager_tapes_give_second_derivatives_of_variables():
    # TensorFlow's: with tape1, tape2: y = v^3; dy = tape2.gradient(y, v);
    # tape1.gradient(dy, v) = 6v (it was None: tape1 did not record the
    # inner gradient, which reads v).
    v = tracec.Variable(np.array([1.5, -0.5]))
    w = tracec.Variable(np.array([2.0, 3.0]))
    with tracec.GradientTape() as outer:
        with tracec.GradientTape() as inner:
            y = v * v * v * w
        dv = inner.gradient(y, v)                  # 3 v^2 w
    dvv, dvw = outer.gradient(dv, [v, w])         # 6 v w, 3 v^2
    vv, wv = v.numpy(), w.numpy()
    np.testing.assert_allclose(dv, 3 * vv ** 2 * wv, rtol=1e-12)
    np.testing.assert_allclose(dvv, 6 * vv * wv, rtol=1e-12)
    np.testing.assert_allclose(dvw, 3 * vv ** 2, rtol=1e-12)

    with tracec.GradientTape() as outer:
        [(g, _)] = tracec.implicit_grad(lambda: tnp.sum(v * v * v))()
    np.testing.assert_allclose(outer.gradient(g, v), 6 * vv, rtol=1e-12)


def test_nested_eager_tapes_through_a_tracec_function():
    # The inner gradient comes from the call's compiled backward (the
    # function runs once); the outer tape records it, so it differentiates
    # it again (it was None).
    calls = tracec.Variable(0.0, trainable=False)

    @tracec.function
    def cube(x):
        calls.assign_add(1.0)
        return tnp.sum(x * x * x)

    x = np.array([1.5, -0.5])
    with tracec.GradientTape() as outer:
        outer.watch(x)
        with tracec.GradientTape() as inner:
            inner.watch(x)
            y = cube(x)
        dx = inner.gradient(y, x)
        assert float(calls.numpy()) == 1.0
        s = tnp.sum(dx)
    np.testing.assert_allclose(dx, 3 * x ** 2, rtol=1e-12)
    np.testing.assert_allclose(outer.gradient(s, x), 6 * x, rtol=1e-12)


def test_eager_operators_under_a_tape_are_recorded():
    # Eager values computed under a tape (TapedArrays) record their Python
    # operators, NumPy's ufuncs and functions, indexing and methods as
    # tracec ops, as TensorFlow's eager tensors do (`loss += v * v` was
    # None, and 0-d values a TypeError).
    v = tracec.Variable(np.array([0.5, -1.5, 2.0]))
    s = tracec.Variable(np.array(1.25))
    x0 = np.array([[0.3, -0.2, 0.1], [1.0, 0.4, -0.7]])
    with tracec.GradientTape() as tape:
        tape.watch(x0)
        x = tnp.asarray(x0)        # x0's operators are NumPy's; x's record
        loss = 0.0
        for k in range(2):
            loss += v * v * k + s * s
        h = np.tanh(x @ v) ** 2 - x[1] @ v / s
        loss = loss.sum() + np.mean(h) + h.T[0] * 3.0 + abs(-x).max(axis=1)[1]
        loss = loss + np.where(h > 0, h, -h).sum() + np.dot(x, x[0]).sum()
    gv, gs, gx = tape.gradient(loss, [v, s, x0])

    tv, ts, tx = (torch.tensor(a.numpy() if isinstance(a, tracec.Variable)
                               else a, requires_grad=True) for a in (v, s, x0))
    tloss = 0.0
    for k in range(2):
        tloss = tloss + tv * tv * k + ts * ts
    th = torch.tanh(tx @ tv) ** 2 - tx[1] @ tv / ts
    tloss = tloss.sum() + th.mean() + th[0] * 3.0 + tx.abs().max(dim=1)[0][1]
    tloss = tloss + torch.where(th > 0, th, -th).sum() + (tx @ tx[0]).sum()
    tloss.backward()
    np.testing.assert_allclose(loss, tloss.item(), rtol=1e-12)
    for g, t in ((gv, tv), (gs, ts), (gx, tx)):
        np.testing.assert_allclose(g, t.grad.numpy(), rtol=1e-12, atol=1e-14)


def test_unrecorded_numpy_on_a_recorded_value_is_an_error():
    # NumPy operations with no tracec op would silently carry no gradient:
    # while the tape records they are errors if floating-point; booleans,
    # integers and NumPy's own arrays are NumPy's.
    x = np.array([0.5, 2.0])
    with tracec.GradientTape() as tape:
        tape.watch(x)
        y = tnp.exp(x)
        for numpy_op in (lambda: np.sinh(y), lambda: y.copy(),
                         lambda: y[y > 1.0]):
            with pytest.raises(TypeError, match="on an array that a "
                               "GradientTape records: tracec has no op"):
                numpy_op()
        assert (y > 1.0).tolist() == [True, True] and np.argmax(y) == 1
        np.testing.assert_allclose(np.sinh(np.asarray(y)),
                                   np.sinh(np.exp(x)))
        assert repr(y) == repr(np.asarray(y))  # NumPy's
    assert type(y * 2.0) is np.ndarray and y.copy().sum() > 0


def test_tape_argument_errors():
    with tracec.GradientTape() as tape:
        with pytest.raises(TypeError, match="watch: a str is neither"):
            tape.watch("x")
        with pytest.raises(TypeError, match="watch: a NumPy scalar"):
            tape.watch(np.float32(1.0))
    with pytest.raises(ValueError, match="unconnected_gradients must be"):
        tape.gradient(np.ones(1, np.float32), [], unconnected_gradients="bogus")


def test_tape_differentiates_through_a_tracec_function():
    # The seeds' _backprop_call: the compiled forward (results + residuals)
    # runs once, the compiled backward gives the gradients: no retrace, no
    # second forward (the call counter is assigned once per call).
    w = tracec.Variable(f32(3, 2))
    calls = tracec.Variable(0.0, trainable=False)
    traces = []

    @tracec.function
    def predict(x):
        traces.append(1)
        calls.assign_add(1.0)
        return tnp.sum(tnp.square(x @ w))

    x = f32(4, 3, seed=1)
    predict(x)
    with tracec.GradientTape() as tape:
        tape.watch(x)
        loss = predict(x)
    gx, gw = tape.gradient(loss, [x, w])
    tx, tw = torch_grad(lambda a, b: ((a @ b) ** 2).sum(), x, w.numpy())
    np.testing.assert_allclose(gx, tx, rtol=1e-5)
    np.testing.assert_allclose(gw, tw, rtol=1e-5)
    assert len(traces) == 1 and float(calls.numpy()) == 2.0

    # A target computed from the function's result: the tape replays.
    with tracec.GradientTape() as tape:
        tape.watch(x)
        y = tnp.multiply(predict(x), 3.0)
    np.testing.assert_allclose(tape.gradient(y, x), 3 * tx, rtol=1e-5)


# --- function transforms ------------------------------------------------------


def test_grad_and_value_and_grad_with_argnums():
    def f(x, y):
        return tnp.sum(tnp.sin(x) * y)

    x, y = f32(5), f32(5, seed=1)
    np.testing.assert_allclose(tracec.grad(f)(x, y), np.cos(x) * y, rtol=1e-5)
    value, (gx, gy) = tracec.value_and_grad(f, argnums=(0, 1))(x, y)
    np.testing.assert_allclose(value, np.sum(np.sin(x) * y), rtol=1e-5)
    np.testing.assert_allclose(gx, np.cos(x) * y, rtol=1e-5)
    np.testing.assert_allclose(gy, np.sin(x), rtol=1e-5)


def test_grad_of_grad():
    inner = tracec.grad(lambda x: tnp.sum(x * x * x))   # 3x^2
    f = tracec.grad(lambda x: tnp.sum(inner(x)))          # 6x
    x = f32(4)
    np.testing.assert_allclose(f(x), 6 * x, rtol=1e-5)


def test_vjp():
    x = f32(3)
    y, vjp_fn = tracec.vjp(lambda a: tnp.exp(a) * 2.0, x)
    np.testing.assert_allclose(y, 2 * np.exp(x), rtol=1e-6)
    ct = f32(3, seed=2)
    (gx,) = vjp_fn(ct)
    np.testing.assert_allclose(gx, 2 * np.exp(x) * ct, rtol=1e-5)


def test_transforms_inside_a_traced_function_match_torch():
    def f(x, y):
        return tnp.sum(tnp.tanh(x @ y))

    @tracec.function
    def traced(x, y, ct):
        value, (gx, gy) = tracec.value_and_grad(f, argnums=(0, 1))(x, y)
        gy_only = tracec.grad(f, argnums=1)(x, y)
        out, vjp_fn = tracec.vjp(lambda a: tnp.tanh(a @ y), x)
        return value, gx, gy, gy_only, out, vjp_fn(ct)[0]

    x, y, ct = f32(2, 3), f32(3, 4, seed=1), f32(2, 4, seed=2)
    value, gx, gy, gy_only, out, vx = traced(x, y, ct)
    tx, ty = (torch.tensor(a, requires_grad=True) for a in (x, y))
    t_out = torch.tanh(tx @ ty)
    t_out.sum().backward(retain_graph=True)
    np.testing.assert_allclose(value, t_out.sum().item(), rtol=1e-5)
    np.testing.assert_allclose(gx, tx.grad.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gy, ty.grad.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gy_only, ty.grad.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out, t_out.detach().numpy(), rtol=1e-5)
    tx.grad = None
    t_out.backward(torch.from_numpy(ct))
    np.testing.assert_allclose(vx, tx.grad.numpy(), rtol=1e-5, atol=1e-6)
    assert "trace.value_and_grad" in traced.get_concrete_function(x, y, ct).ir()


def test_a_tape_sees_through_a_gradient_op():
    # grad(f) recorded as one op on an enclosing tape: d/dx of f'(x).
    @tracec.function
    def f(x):
        with tracec.GradientTape() as tape:
            tape.watch(x)
            g = tracec.grad(lambda a: tnp.sum(tnp.sin(a) * a))(x)
            s = tnp.sum(g)
        return tape.gradient(s, x)

    x = f32(4)
    # g = cos(x) x + sin(x); dg/dx = 2 cos(x) - x sin(x)
    np.testing.assert_allclose(f(x), 2 * np.cos(x) - x * np.sin(x),
                               rtol=1e-5, atol=1e-6)


def test_gradients_function_with_params():
    def f(x, y, z):
        return tnp.sum(x * y * tnp.exp(z))

    x, y, z = f32(3), f32(3, seed=1), f32(3, seed=2)
    gy, gz = tracec.gradients_function(f, params=[1, 2])(x, y, z)
    np.testing.assert_allclose(gy, x * np.exp(z), rtol=1e-5)
    np.testing.assert_allclose(gz, x * y * np.exp(z), rtol=1e-5)


def test_grad_of_non_array_argument_is_an_error():
    with pytest.raises(TypeError, match="argument 1 of .* is differentiated"):
        tracec.grad(lambda x, n: x * n, argnums=1)(f32(2), 3)


# --- tracec.gradients / hessians -----------------------------------------------


def test_gradients_with_stop_gradients_and_unconnected():
    @tracec.function
    def f(x, y):
        a = x * y
        b = a + x
        z = tnp.sum(b * b)
        g_all = tracec.gradients(z, [x, y])
        g_stop = tracec.gradients(z, [x], stop_gradients=[a])
        g_none = tracec.gradients(tnp.sum(x), [x, y])
        g_zero = tracec.gradients(tnp.sum(x), [x, y], unconnected_gradients="zero")
        return g_all, g_stop, g_none[1] is None, g_zero[1]

    x, y = f32(3), f32(3, seed=1)
    (gx, gy), (gx_stop,), none, zero = f(x, y)
    b = x * y + x
    np.testing.assert_allclose(gx, 2 * b * (y + 1), rtol=1e-5)
    np.testing.assert_allclose(gy, 2 * b * x, rtol=1e-5)
    np.testing.assert_allclose(gx_stop, 2 * b, rtol=1e-5)
    assert none
    np.testing.assert_array_equal(zero, np.zeros(3, np.float32))


def test_stopped_sources_get_partial_derivatives():
    # TensorFlow's gradients_test.testPartialDerivatives: an x that is also
    # among stop_gradients gets the gradient flowing into it, the other
    # stops held constant (it was None).
    @tracec.function
    def f(x):
        y = 2.0 * x
        z = x + y
        return (tracec.gradients(z, [x, y]),
                tracec.gradients(z, [x, y], stop_gradients=[x, y]),
                tracec.gradients(z, [x, y], stop_gradients=[y]),
                tracec.gradients(z, [x, y], stop_gradients=[x]))

    total, partial, y_stopped, x_stopped = f(np.array(1.0))
    assert [float(g) for g in total] == [3.0, 1.0]
    assert [float(g) for g in partial] == [1.0, 1.0]
    assert [float(g) for g in y_stopped] == [1.0, 1.0]
    assert [float(g) for g in x_stopped] == [3.0, 1.0]


def test_stop_gradients_are_stop_gradient_ops():
    # TensorFlow's gradients_test.testStopGradients: gradients with
    # stop_gradients=[those] equal gradients of the graph where those are
    # tracec.stop_gradient(...), for subsets of sources and of stops.
    rng = np.random.default_rng(3)
    mats = [rng.standard_normal((3, 3)) for _ in range(10)]
    names = "abcd"
    inputs = {"a": [], "b": ["a"], "c": ["a", "b"], "d": ["b", "c"]}
    subsets = ["", "a", "b", "d", "ab", "bc", "acd", "abcd"]

    def graph(base, stops=""):
        nodes, it = {}, iter(mats)
        for n in names:
            value = base + next(it)
            for m in inputs[n]:
                value = value + next(it) @ nodes[m]
            nodes[n] = tracec.stop_gradient(value) if n in stops else value
        return nodes

    def dense(grads, xs):
        return [tnp.zeros_like(x) if g is None else g
                for g, x in zip(grads, xs)]

    @tracec.function
    def cases(base):
        out = []
        for stops in subsets:
            plain, stopped = graph(base), graph(base, stops)
            for sources in subsets[1:]:
                xs = [plain[n] for n in sources]
                by_kwarg = tracec.gradients(
                    plain["d"], xs, stop_gradients=[plain[n] for n in stops])
                ys = [stopped[n] for n in sources]
                by_ops = tracec.gradients(stopped["d"], ys)
                out.append((dense(by_kwarg, xs), dense(by_ops, ys)))
        return out

    for by_kwarg, by_ops in cases(np.zeros((3, 3))):
        for g1, g2 in zip(by_kwarg, by_ops):
            np.testing.assert_allclose(g1, g2, rtol=1e-12, atol=1e-12)


def test_gradients_with_grad_ys_against_torch():
    @tracec.function
    def f(x, w, ct1, ct2):
        h = tnp.tanh(x @ w)
        y1 = h * h
        y2 = tnp.sum(h, axis=1)
        return tracec.gradients([y1, y2], [x, w], grad_ys=[ct1, ct2])

    x, w = f32(2, 3), f32(3, 4, seed=1)
    ct1, ct2 = f32(2, 4, seed=2), f32(2, seed=3)
    gx, gw = f(x, w, ct1, ct2)
    tx, tw = (torch.tensor(a, requires_grad=True) for a in (x, w))
    h = torch.tanh(tx @ tw)
    torch.autograd.backward([h * h, h.sum(1)],
                            [torch.from_numpy(ct1), torch.from_numpy(ct2)])
    np.testing.assert_allclose(gx, tx.grad.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gw, tw.grad.numpy(), rtol=1e-5, atol=1e-6)


def test_gradients_and_hessians_return_a_list_for_one_tensor():
    # tf.gradients(y, x) is a list of one: the idiom is [0].
    @tracec.function
    def f(x):
        y = tnp.sum(x * x * x)
        g = tracec.gradients(y, x)
        h = tracec.hessians(y, x)
        g_tuple = tracec.gradients(y, (x,))
        return type(g) is list and type(h) is list and \
            type(g_tuple) is list, g[0], h[0]

    x = np.array([0.5, -2.0], np.float64)
    is_list, g, h = f(x)
    assert is_list
    np.testing.assert_allclose(g, 3 * x * x, rtol=1e-12)
    np.testing.assert_allclose(h, np.diag(6 * x), rtol=1e-12)


def test_aggregation_method_is_accepted_and_changes_nothing():
    methods = [None, tracec.AggregationMethod.ADD_N,
               tracec.AggregationMethod.DEFAULT,
               tracec.AggregationMethod.EXPERIMENTAL_TREE,
               tracec.AggregationMethod.EXPERIMENTAL_ACCUMULATE_N]

    @tracec.function
    def f(x, method):
        y = tnp.sum(tnp.sin(x) * x + x * x)  # x fans out to three uses
        return (tracec.gradients(y, x, aggregation_method=method)[0],
                tracec.hessians(y, x, aggregation_method=method)[0])

    x = np.array([0.3, -1.1, 2.0])
    results = [f(x, m) for m in methods]
    np.testing.assert_allclose(results[0][0], np.cos(x) * x + np.sin(x)
                               + 2 * x, rtol=1e-12)
    for g, h in results[1:]:
        np.testing.assert_array_equal(g, results[0][0])
        np.testing.assert_array_equal(h, results[0][1])
    with pytest.raises(ValueError, match="Invalid aggregation_method"):
        f(x, "tree")


def test_variable_with_a_callable_initial_value():
    v = tracec.Variable(lambda: np.arange(3, dtype=np.float64))
    assert v.dtype == np.float64
    np.testing.assert_array_equal(v.numpy(), [0, 1, 2])
    w = tracec.Variable(lambda: 2.0, trainable=False)
    assert w.dtype == np.float32 and not w.trainable and w.numpy() == 2.0


def test_gradients_outside_a_function_is_an_error():
    with pytest.raises(RuntimeError, match="works inside a tracec.function"):
        tracec.gradients(np.ones(2, np.float32), [np.ones(2, np.float32)])


def test_hessians_against_finite_differences():
    def loss(x):
        return tnp.sum(tnp.exp(x) * x[0] + x * x * x)

    @tracec.function
    def h(x):
        return tracec.hessians(loss(x), x)[0]

    x = np.array([0.3, -0.2, 0.5], np.float64)
    hess = h(x)

    def grad_np(v):
        return np.exp(v) * v[0] + np.eye(3)[0] * np.sum(np.exp(v)) + 3 * v * v
    eps = 1e-6
    fd = np.stack([(grad_np(x + eps * e) - grad_np(x - eps * e)) / (2 * eps)
                   for e in np.eye(3)], axis=1)
    np.testing.assert_allclose(hess, fd, rtol=1e-6, atol=1e-8)


def test_hessians_of_a_list_of_sources_against_finite_differences():
    def loss(a, b):
        return tnp.sum(tnp.tanh(a @ b))

    @tracec.function
    def h(a, b):
        return tracec.hessians(loss(a, b), [a, b])

    a = np.array([[0.3, -0.2], [0.1, 0.4]], np.float64)
    b = np.array([[0.5, -0.7, 0.2], [0.1, 0.3, -0.4]], np.float64)
    ha, hb = h(a, b)
    assert ha.shape == (2, 2, 2, 2) and hb.shape == (2, 3, 2, 3)

    def grads(a, b):
        s = 1 - np.tanh(a @ b) ** 2
        return s @ b.T, a.T @ s
    eps = 1e-6
    for k, (x, hx) in enumerate([(a, ha), (b, hb)]):
        fd = np.zeros(x.shape + x.shape)
        for idx in np.ndindex(*x.shape):
            e = np.zeros_like(x)
            e[idx] = eps
            args_p = [a + e, b] if k == 0 else [a, b + e]
            args_m = [a - e, b] if k == 0 else [a, b - e]
            fd[(Ellipsis,) + idx] = (grads(*args_p)[k] - grads(*args_m)[k]) / (2 * eps)
        np.testing.assert_allclose(hx, fd, rtol=1e-5, atol=1e-8)


def test_eager_tape_through_a_function_closing_over_a_watched_array():
    # A tracec.function that closes over an array the tape watches, called
    # eagerly under the tape, is differentiated through the closure
    # (TensorFlow's captures); it was None.
    for x in (np.array([0.5, -1.25]), np.array(0.75)):
        @tracec.function
        def f(a):
            return tnp.sum(tnp.exp(a * x) + tnp.multiply(x, x))

        a = np.full_like(x, 2.0)
        with tracec.GradientTape() as tape:
            tape.watch([x, a])
            y = f(a)
        gx, ga = tape.gradient(y, [x, a])
        np.testing.assert_allclose(gx, a * np.exp(a * x) + 2 * x, rtol=1e-12)
        np.testing.assert_allclose(ga, x * np.exp(a * x), rtol=1e-12)


def test_tape_jacobian_and_batch_jacobian():
    # tf.GradientTape.jacobian / batch_jacobian, eagerly and in a function,
    # against the analytic Jacobians (f64).
    x0 = np.array([0.5, -1.0, 2.0])
    w = tracec.Variable(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    z = np.ones(2)
    with tracec.GradientTape() as tape:
        tape.watch(x0)
        tape.watch(z)
        x = tnp.asarray(x0)
        y = tnp.tanh(tnp.matmul(x * x, w))
    jx, jw, jz = tape.jacobian(y, [x0, w, z])
    d = 1 - np.tanh((x0 * x0) @ w.numpy()) ** 2
    np.testing.assert_allclose(jx, d[:, None] * w.numpy().T * 2 * x0,
                               rtol=1e-12)
    ref_w = np.zeros((2, 3, 2))
    for i in range(2):
        ref_w[i, :, i] = d[i] * x0 * x0
    np.testing.assert_allclose(jw, ref_w, rtol=1e-12)
    assert jz is None
    with pytest.raises(RuntimeError, match="only be called once"):
        tape.jacobian(y, x0)

    @tracec.function
    def f(x):
        with tracec.GradientTape(persistent=True) as tape:
            tape.watch(x)
            x2 = tnp.reshape(x, (2, 1))
            y2 = tnp.sin(x2) * 3.0
            y = tnp.sin(x) * tnp.sum(x)
        return tape.jacobian(y, x), tape.batch_jacobian(y2, x2)

    xx = np.array([0.3, 0.7])
    j, bj = f(xx)
    full = np.diag(np.cos(xx) * xx.sum()) + np.sin(xx)[:, None]
    np.testing.assert_allclose(j, full, rtol=1e-12)
    np.testing.assert_allclose(bj[:, 0, 0], 3 * np.cos(xx), rtol=1e-12)

    xb = np.random.default_rng(0).standard_normal((4, 3))
    with tracec.GradientTape() as tape:
        tape.watch(xb)
        yb = tnp.matmul(tnp.asarray(xb) ** 2, w)
    np.testing.assert_allclose(tape.batch_jacobian(yb, xb),
                               np.einsum("bj,ji->bij", 2 * xb, w.numpy()),
                               rtol=1e-12)
    with tracec.GradientTape() as tape:
        tape.watch(xb)
        yb = tnp.asarray(xb)[:3]
    with pytest.raises(ValueError, match="same first"):
        tape.batch_jacobian(yb, xb)
