"""has_aux=True for tracec.grad, value_and_grad and vjp (JAX's semantics):
the function returns (output, aux); aux comes back alongside the gradients
and is not differentiated. Checked against PyTorch autograd, eagerly and
inside tracec.function."""
import numpy as np
import pytest
import torch

import tracec
import tracec.numpy as tnp


def f32(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def loss_with_aux(w, x):
    h = tnp.tanh(x @ w)
    loss = tnp.mean(tnp.square(h))
    return loss, {"hidden": h, "argmax": tnp.argmax(h, 1),
                  "stats": [tnp.max(h), loss * 2.0]}


def torch_reference(w, x):
    tw, tx = (torch.tensor(a, requires_grad=True) for a in (w, x))
    h = torch.tanh(tx @ tw)
    loss = (h ** 2).mean()
    loss.backward()
    return (loss.item(), h.detach().numpy(), tw.grad.numpy(),
            tx.grad.numpy())


def check_aux(aux, h, loss):
    np.testing.assert_allclose(aux["hidden"], h, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(aux["argmax"], np.argmax(h, 1))
    assert aux["argmax"].dtype == np.asarray(tnp.argmax(h, 1)).dtype
    np.testing.assert_allclose(aux["stats"][0], h.max(), rtol=1e-6)
    np.testing.assert_allclose(aux["stats"][1], 2 * loss, rtol=1e-5)


def test_value_and_grad_has_aux_eager_matches_torch():
    w, x = f32(3, 4), f32(5, 3, seed=1)
    (loss, aux), (gw, gx) = tracec.value_and_grad(
        loss_with_aux, argnums=(0, 1), has_aux=True)(w, x)
    t_loss, t_h, t_gw, t_gx = torch_reference(w, x)
    np.testing.assert_allclose(loss, t_loss, rtol=1e-5)
    np.testing.assert_allclose(gw, t_gw, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(gx, t_gx, rtol=1e-4, atol=1e-6)
    check_aux(aux, t_h, t_loss)


def test_grad_has_aux_eager_and_traced_agree():
    w, x = f32(3, 4), f32(5, 3, seed=1)
    g, aux = tracec.grad(loss_with_aux, has_aux=True)(w, x)
    t_loss, t_h, t_gw, _ = torch_reference(w, x)
    np.testing.assert_allclose(g, t_gw, rtol=1e-4, atol=1e-6)
    check_aux(aux, t_h, t_loss)

    @tracec.function
    def step(w, x):
        g, aux = tracec.grad(loss_with_aux, has_aux=True)(w, x)
        return w - 0.1 * g, aux

    new_w, traced_aux = step(w, x)
    np.testing.assert_allclose(new_w, w - 0.1 * t_gw, rtol=1e-5, atol=1e-6)
    check_aux(traced_aux, t_h, t_loss)
    assert "trace.vjp" in step.get_concrete_function(w, x).ir()


def test_has_aux_runs_the_function_once():
    # The loss and aux come from one run: an assign_add inside f happens
    # once per call, and aux sees the value it read.
    counter = tracec.Variable(np.zeros((), np.float32), trainable=False)

    def f(x):
        counter.assign_add(1.0)
        return tnp.sum(x * x), counter.read_value()

    x = f32(3)
    (value, seen), g = tracec.value_and_grad(f, has_aux=True)(x)
    np.testing.assert_allclose(g, 2 * x, rtol=1e-6)
    assert float(counter.numpy()) == 1.0 and float(seen) == 1.0
    tracec.grad(f, has_aux=True)(x)
    assert float(counter.numpy()) == 2.0


def test_vjp_has_aux_matches_torch():
    w = f32(3, 2)

    def f(w):
        y = tnp.sin(w) * w
        return y, (tnp.sum(y), tnp.astype(tnp.greater(y, 0.0), np.int32))

    out, vjp_fn, aux = tracec.vjp(f, w, has_aux=True)
    ct = f32(3, 2, seed=2)
    (g,) = vjp_fn(ct)
    tw = torch.tensor(w, requires_grad=True)
    ty = torch.sin(tw) * tw
    ty.backward(torch.tensor(ct))
    np.testing.assert_allclose(out, ty.detach().numpy(), rtol=1e-6)
    np.testing.assert_allclose(g, tw.grad.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(aux[0], ty.detach().numpy().sum(), rtol=1e-5)
    np.testing.assert_array_equal(aux[1], (ty.detach().numpy() > 0))
    assert aux[1].dtype == np.int32

    @tracec.function
    def traced(w, ct):
        out, fn, aux = tracec.vjp(f, w, has_aux=True)
        return fn(ct)[0], aux[0]

    tg, tsum = traced(w, ct)
    np.testing.assert_allclose(tg, g, rtol=1e-6)
    np.testing.assert_allclose(tsum, aux[0], rtol=1e-6)


# --- errors -----------------------------------------------------------------


def test_has_aux_needs_a_pair():
    x = f32(3)
    with pytest.raises(TypeError, match=r"f was differentiated with "
                       r"has_aux=True, so it must return a pair \(output, "
                       r"aux\), but it returned a \w+$"):
        def f(x):
            return tnp.sum(x)
        tracec.grad(f, has_aux=True)(x)
    with pytest.raises(TypeError, match="returned a tuple of length 3"):
        tracec.value_and_grad(lambda x: (tnp.sum(x), x, x), has_aux=True)(x)
    with pytest.raises(TypeError, match="must return a pair"):
        tracec.vjp(lambda x: x, x, has_aux=True)


def test_has_aux_rejects_non_array_aux():
    x = f32(3)
    with pytest.raises(TypeError, match=r"the auxiliary output of g "
                       r"\(has_aux=True\) must hold arrays, but "
                       r"aux\['name'\] is a str"):
        def g(x):
            return tnp.sum(x), {"name": "loss", "x": x}
        tracec.grad(g, has_aux=True)(x)
    with pytest.raises(TypeError, match=r"aux\[1\] is a object"):
        tracec.vjp(lambda x: (x, (x, object())), x, has_aux=True)


def test_tuple_without_has_aux_suggests_it():
    x = f32(3)
    with pytest.raises(TypeError, match=r"returned a tuple \(if it returns "
                       r"\(output, aux\), pass has_aux=True\)"):
        tracec.grad(lambda x: (tnp.sum(x), x))(x)


def test_has_aux_loss_must_be_a_scalar():
    x = f32(3)
    with pytest.raises(tracec.TraceError, match="'trace.value_and_grad' with "
                       "has_aux needs a function returning a scalar float "
                       "loss first.*starting with a tensor<3xf32>"):
        tracec.value_and_grad(lambda x: (x * 2.0, x), has_aux=True)(x)
