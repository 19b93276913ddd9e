"""The workloads of bench/run: what tracec compiles, the inputs, and the
peers that compute the same thing.

Each workload names a module in bench/workloads/ and its entry; `inputs`
makes the arguments (seeded NumPy arrays, saved as .npy for tracec-run and
loaded by the peers); `peers` maps a peer's name to a function that takes
the inputs and returns (call, results): `call()` runs once and is what is
timed, `results()` gives the NumPy arrays to check against tracec's
outputs. A peer whose name is in `references` computes something else
(np.tanh alone, a copy of the same bytes): it is timed for scale, never
checked.
"""

import dataclasses
import math
import os
import sys
from typing import Callable, Dict, List, Optional

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "workloads"))
import lstm  # noqa: E402
import vmap  # noqa: E402


@dataclasses.dataclass
class Workload:
    name: str
    module: str  # file under bench/workloads/
    entry: str
    inputs: Callable[[np.random.Generator], List[np.ndarray]]
    peers: Dict[str, Callable]
    description: str
    references: tuple = ()
    rtol: float = 1e-4
    atol: float = 1e-5
    # Reported as "compile" rows (cold and cached) too.
    compile_row: Optional[str] = None
    # The module has a `?` leading dim: bench/run also times it with that
    # dim fixed to this size (peer "static": the static compile).
    static_batch: Optional[int] = None
    # Also as AOT objects called from C (bench/aot_dynamic_bench.c: the MLP
    # train step at static_batch), the `?` one against the static one (peer
    # "static AOT"): a row "MLP train step AOT, ...", 1 thread only.
    aot_row: bool = False
    # FLOPs of the contractions in one call (a multiply-add is 2): bench/run
    # reports tracec's rate against the measured FMA peak.
    flops: Optional[float] = None
    # A Python workload (`module` is a .py file): bench/run runs it with
    # these arguments and the tracec package to trace the module (the
    # program as users write it), and calls the entry it names.
    trace_args: tuple = ()


def _normal(rng, shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


# ---------------------------------------------------------------------------
# sgemm


def _matmul_flops(m, k, n, batch=1):
    return 2.0 * batch * m * k * n


def _conv3x3_flops(batch, hw, stride, c, f):
    """Each of the three forms (forward, backprop input and filter) does
    the forward's multiply-adds."""
    return 2.0 * batch * (hw // stride) ** 2 * 9 * c * f


def _mlp_flops(batch, train):
    """784-512-512-10: the forward's products; a training step adds the
    weight gradients (as many) and the input gradients of layers 2 and 3."""
    forward = sum(_matmul_flops(batch, a, b)
                  for a, b in ((784, 512), (512, 512), (512, 10)))
    if not train:
        return forward
    return 2 * forward + sum(_matmul_flops(batch, a, b)
                             for a, b in ((512, 512), (512, 10)))


def _attention_flops(batch, seq, width, heads, mlp=None, input_grad=True):
    """Self-attention's projections, scores and mixing (and an MLP of width
    `mlp`), forward + backward: each product's backward does it twice (both
    operands' gradients), once for the q/k/v projections where the input
    needs no gradient."""
    tokens, head = batch * seq, width // heads
    projections = 3 * _matmul_flops(tokens, width, width)
    rest = (2 * _matmul_flops(seq, head, seq, batch * heads)  # scores, p v
            + _matmul_flops(tokens, width, width))  # output projection
    if mlp:
        rest += 2 * _matmul_flops(tokens, width, mlp)
    return (3 if input_grad else 2) * projections + 3 * rest


def _sgemm_inputs(n):
    return lambda rng: [_normal(rng, (n, n)), _normal(rng, (n, n))]


def _np_sgemm(a, b):
    c = np.empty((a.shape[0], b.shape[1]), np.float32)
    return (lambda: np.matmul(a, b, out=c)), (lambda: [c])


def _torch_sgemm(a, b):
    import torch
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    c = torch.empty(a.shape[0], b.shape[1])
    return (lambda: torch.matmul(ta, tb, out=c)), (lambda: [c.numpy()])


def _torch_bf16_sgemm(a, b):
    """PyTorch's bf16 matmul (oneDNN's vdpbf16ps kernels where the CPU has
    them) on the inputs rounded to bf16 once, outside the timed call."""
    import torch
    ta = torch.from_numpy(a).bfloat16()
    tb = torch.from_numpy(b).bfloat16()
    c = torch.empty(a.shape[0], b.shape[1], dtype=torch.bfloat16)
    return (lambda: torch.matmul(ta, tb, out=c)), \
        (lambda: [c.float().numpy()])


# ---------------------------------------------------------------------------
# tanh-GELU over 16M floats

GELU_K = math.sqrt(2.0 / math.pi)


def _gelu_inputs(rng):
    return [_normal(rng, (1 << 24,), 2.0)]


def _torch_gelu(x):
    import torch
    t = torch.from_numpy(x)
    out = [None]

    def call():
        # PyTorch eager, the composed expression (one kernel per op).
        out[0] = 0.5 * t * (1.0 + torch.tanh(GELU_K * (t + 0.044715 * t * t * t)))
    call()
    return call, (lambda: [out[0].numpy()])


def _gelu_rows_inputs(rng):
    return [_normal(rng, (4096, 4096), 2.0)]


def _np_tanh(x):
    y = np.empty_like(x)
    return (lambda: np.tanh(x, out=y)), (lambda: [y])


def _copy(x):
    y = np.empty_like(x)
    return (lambda: np.copyto(y, x)), (lambda: [y])


# ---------------------------------------------------------------------------
# softmax and layer norm, 4096x1024


def _rows_inputs(rng):
    return [_normal(rng, (4096, 1024), 3.0)]


def _torch_softmax(x):
    import torch
    t = torch.from_numpy(x)
    out = [None]

    def call():
        out[0] = torch.softmax(t, dim=-1)
    call()
    return call, (lambda: [out[0].numpy()])


def _np_softmax(x):
    out = [None]

    def call():
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        out[0] = e / e.sum(axis=-1, keepdims=True)
    call()
    return call, (lambda: [out[0]])


def _layernorm_inputs(rng):
    return [_normal(rng, (4096, 1024), 3.0), _normal(rng, (1024,)) + 1,
            _normal(rng, (1024,))]


def _torch_layernorm(x, gamma, beta):
    import torch
    import torch.nn.functional as F
    t, g, b = map(torch.from_numpy, (x, gamma, beta))
    out = [None]

    def call():
        out[0] = F.layer_norm(t, (1024,), g, b, eps=1e-5)
    call()
    return call, (lambda: [out[0].numpy()])


def _np_layernorm(x, gamma, beta):
    out = [None]

    def call():
        mean = x.mean(axis=-1, keepdims=True)
        d = x - mean
        var = (d * d).mean(axis=-1, keepdims=True)
        out[0] = d / np.sqrt(var + 1e-5) * gamma + beta
    call()
    return call, (lambda: [out[0]])


# ---------------------------------------------------------------------------
# MLP 784-512-512-10, batch 256


def _mlp_inputs_of(batch):
    def inputs(rng):
        def dense(n_in, n_out):
            return [_normal(rng, (n_in, n_out), 1 / math.sqrt(n_in)),
                    _normal(rng, (n_out,), 0.1)]
        return ([_normal(rng, (batch, 784)),
                 rng.integers(0, 10, batch).astype(np.int32)]
                + dense(784, 512) + dense(512, 512) + dense(512, 10))
    return inputs


_mlp_inputs = _mlp_inputs_of(256)


def _torch_mlp(train, bf16=False):
    """The MLP in PyTorch; with `bf16`, under torch.autocast (bf16 matmuls
    of f32 weights, as mlp_bf16.mlir)."""
    def make(x, labels, *params):
        import torch
        import torch.nn.functional as F
        tx = torch.from_numpy(x)
        tl = torch.from_numpy(labels).long()
        ps = [torch.from_numpy(p).requires_grad_(train) for p in params]

        def loss():
            w1, b1, w2, b2, w3, b3 = ps
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
                a1 = torch.relu(tx @ w1 + b1)
                a2 = torch.relu(a1 @ w2 + b2)
                logits = (a2 @ w3 + b3).float()
            logp = torch.log_softmax(logits, dim=1)
            onehot = F.one_hot(tl, 10).to(torch.float32)
            return (-(logp * onehot).sum(dim=1)).mean()
        return _torch_step(loss, ps, train)
    return make


def _torch_step(loss, params, train):
    """Times loss() (under no_grad) or loss() and its gradients wrt params
    (torch.autograd.grad, as tracec's value_and_grad)."""
    import torch
    out = [None]

    def call():
        if train:
            value = loss()
            out[0] = [value] + list(torch.autograd.grad(value, params))
        else:
            with torch.no_grad():
                out[0] = [loss()]
    call()
    return call, (lambda: [t.detach().numpy() for t in out[0]])


# ---------------------------------------------------------------------------
# Small CNN, batch 32, 28x28x1 (NHWC / HWCF in tracec; NCHW / OIHW in torch)


def _cnn_inputs(rng):
    return [_normal(rng, (32, 28, 28, 1)),
            rng.integers(0, 10, 32).astype(np.int32),
            _normal(rng, (3, 3, 1, 16), 1 / 3), _normal(rng, (16,), 0.1),
            _normal(rng, (3, 3, 16, 32), 1 / 12), _normal(rng, (32,), 0.1),
            _normal(rng, (1568, 10), 1 / math.sqrt(1568)),
            _normal(rng, (10,), 0.1)]


def _torch_cnn(x, labels, k1, b1, k2, b2, w, b3):
    import torch
    import torch.nn.functional as F
    # Layout changes are made once, outside the timed call.
    tx = torch.from_numpy(x).permute(0, 3, 1, 2).contiguous()
    tl = torch.from_numpy(labels).long()
    params = [torch.from_numpy(k1).permute(3, 2, 0, 1).contiguous(),
              torch.from_numpy(b1),
              torch.from_numpy(k2).permute(3, 2, 0, 1).contiguous(),
              torch.from_numpy(b2), torch.from_numpy(w), torch.from_numpy(b3)]
    for p in params:
        p.requires_grad_(True)

    def loss():
        k1, b1, k2, b2, w, b3 = params
        a = F.max_pool2d(torch.relu(F.conv2d(tx, k1, b1, padding=1)), 2)
        a = F.max_pool2d(torch.relu(F.conv2d(a, k2, b2, padding=1)), 2)
        # tracec flattens NHWC: flatten in that order.
        f = a.permute(0, 2, 3, 1).reshape(32, 1568)
        logp = torch.log_softmax(f @ w + b3, dim=1)
        onehot = F.one_hot(tl, 10).to(torch.float32)
        return (-(logp * onehot).sum(dim=1)).mean()
    call, results = _torch_step(loss, params, True)

    def hwcf():
        r = results()
        r[1] = r[1].transpose(2, 3, 1, 0)
        r[3] = r[3].transpose(2, 3, 1, 0)
        return r
    return call, hwcf


# ---------------------------------------------------------------------------
# A ResNet basic block, batch 64, 32x32x16 (bench/workloads/resnet_block.mlir)


def _resnet_block_inputs(rng):
    def conv():
        return _normal(rng, (3, 3, 16, 16), 1 / 12)

    def norm():
        return [1 + _normal(rng, (16,), 0.1), _normal(rng, (16,), 0.1)]
    return ([_normal(rng, (64, 32, 32, 16)),
             rng.integers(0, 10, 64).astype(np.int32)]
            + [conv()] + norm() + [conv()] + norm()
            + [_normal(rng, (16, 10), 0.25), _normal(rng, (10,), 0.1)])


def _torch_resnet_block(x, labels, k1, g1, b1, k2, g2, b2, w, bw):
    """The same block as PyTorch users write it (NCHW, F.conv2d,
    F.batch_norm in training mode); gradients wrt the same weights."""
    import torch
    import torch.nn.functional as F
    tx = torch.from_numpy(x).permute(0, 3, 1, 2).contiguous()
    tl = torch.from_numpy(labels).long()

    def oihw(k):
        return torch.from_numpy(k).permute(3, 2, 0, 1).contiguous()
    params = [oihw(k1), torch.from_numpy(g1), torch.from_numpy(b1),
              oihw(k2), torch.from_numpy(g2), torch.from_numpy(b2),
              torch.from_numpy(w), torch.from_numpy(bw)]
    for p in params:
        p.requires_grad_(True)

    def loss():
        k1, g1, b1, k2, g2, b2, w, bw = params
        a = F.conv2d(tx, k1, padding=1)
        a = torch.relu(F.batch_norm(a, None, None, g1, b1, training=True,
                                    eps=1e-5))
        a = F.conv2d(a, k2, padding=1)
        a = F.batch_norm(a, None, None, g2, b2, training=True, eps=1e-5)
        a = torch.relu(a + tx)
        logp = torch.log_softmax(a.mean(dim=(2, 3)) @ w + bw, dim=1)
        onehot = F.one_hot(tl, 10).to(torch.float32)
        return (-(logp * onehot).sum(dim=1)).mean()
    call, results = _torch_step(loss, params, True)

    def hwcf():
        r = results()
        r[1] = r[1].transpose(2, 3, 1, 0)
        r[4] = r[4].transpose(2, 3, 1, 0)
        return r
    return call, hwcf


# ---------------------------------------------------------------------------
# Attention block, batch 4, sequence 128, width 256, 4 heads


def _attention_inputs(rng):
    return [_normal(rng, (512, 256))] + [
        _normal(rng, (256, 256), 1 / 16) for _ in range(4)]


def _torch_attention(x, wq, wk, wv, wo):
    import torch
    params = [torch.from_numpy(a).requires_grad_(True)
              for a in (x, wq, wk, wv, wo)]

    def heads(t):
        return t.reshape(4, 128, 4, 64).transpose(1, 2).reshape(16, 128, 64)

    def loss():
        x, wq, wk, wv, wo = params
        q, k, v = heads(x @ wq), heads(x @ wk), heads(x @ wv)
        p = torch.softmax(q @ k.transpose(1, 2) * 0.125, dim=-1)
        c = (p @ v).reshape(4, 4, 128, 64).transpose(1, 2).reshape(512, 256)
        y = x + c @ wo
        return (y * y).mean()
    return _torch_step(loss, params, True)


# ---------------------------------------------------------------------------
# Transformer encoder layer: batch 16, sequence 128, width 256, 4 heads, MLP
# 1024 (bench/workloads/transformer_layer.mlir); the peer is
# torch.nn.TransformerEncoderLayer with the same weights.


def _transformer_inputs(rng):
    def dense(n_in, n_out):
        return [_normal(rng, (n_in, n_out), 1 / math.sqrt(n_in)),
                _normal(rng, (n_out,), 0.1)]

    def norm():
        return [1 + _normal(rng, (256,), 0.1), _normal(rng, (256,), 0.1)]
    return ([_normal(rng, (2048, 256))] + dense(256, 256) + dense(256, 256)
            + dense(256, 256) + dense(256, 256) + norm() + dense(256, 1024)
            + dense(1024, 256) + norm())


def _torch_transformer(x, wq, bq, wk, bk, wv, bv, wo, bo, g1, n1, w1, b1, w2,
                       b2, g2, n2):
    """nn.TransformerEncoderLayer (post-norm, ReLU, dropout 0, batch first)
    holding the same weights (torch's are the transposes of x @ w's);
    gradients wrt its 12 parameters, returned as tracec's 16."""
    import torch
    layer = torch.nn.TransformerEncoderLayer(
        256, 4, dim_feedforward=1024, dropout=0.0, batch_first=True)

    def set_(param, value):
        with torch.no_grad():
            param.copy_(torch.from_numpy(np.ascontiguousarray(value)))
    attention = layer.self_attn
    set_(attention.in_proj_weight, np.concatenate([wq.T, wk.T, wv.T]))
    set_(attention.in_proj_bias, np.concatenate([bq, bk, bv]))
    set_(attention.out_proj.weight, wo.T)
    set_(attention.out_proj.bias, bo)
    set_(layer.norm1.weight, g1)
    set_(layer.norm1.bias, n1)
    set_(layer.linear1.weight, w1.T)
    set_(layer.linear1.bias, b1)
    set_(layer.linear2.weight, w2.T)
    set_(layer.linear2.bias, b2)
    set_(layer.norm2.weight, g2)
    set_(layer.norm2.bias, n2)
    params = list(layer.parameters())
    tx = torch.from_numpy(x).reshape(16, 128, 256)

    def loss():
        y = layer(tx)
        return (y * y).mean()
    call, results = _torch_step(loss, params, True)

    def as_tracec():
        # In the order of layer.parameters().
        (value, in_w, in_b, out_w, out_b, l1_w, l1_b, l2_w, l2_b, ng1, nn1,
         ng2, nn2) = results()
        qkv_w = [w.T for w in np.split(in_w, 3)]
        qkv_b = np.split(in_b, 3)
        return [value, qkv_w[0], qkv_b[0], qkv_w[1], qkv_b[1], qkv_w[2],
                qkv_b[2], out_w.T, out_b, ng1, nn1, l1_w.T, l1_b, l2_w.T,
                l2_b, ng2, nn2]
    return call, as_tracec


# ---------------------------------------------------------------------------
# LSTM language model, hidden 256, batch 32, 64 steps (bench/workloads/
# lstm.py, traced unrolled, as a fori_loop and through autograph): against the same loop in
# PyTorch and against torch.nn.LSTM with the same weights.

LSTM_STEPS = 64


def _lstm_inputs(rng):
    params, xs, labels = lstm.inputs(LSTM_STEPS, rng)
    return params + [xs, labels]


def _torch_lstm_loop(w, u, b, head, xs, labels):
    """The model's Python loop, step by step in PyTorch."""
    import torch
    import torch.nn.functional as F
    params = [torch.from_numpy(p).requires_grad_(True)
              for p in (w, u, b, head)]
    txs, tls = torch.from_numpy(xs), torch.from_numpy(labels).long()
    hidden = lstm.HIDDEN

    def loss():
        w, u, b, head = params
        h = torch.zeros(lstm.BATCH, hidden)
        c = torch.zeros(lstm.BATCH, hidden)
        total = 0.0
        for t in range(txs.shape[0]):
            i, f, g, o = (txs[t] @ w + h @ u + b).split(hidden, dim=1)
            c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            h = torch.sigmoid(o) * torch.tanh(c)
            total = total + F.cross_entropy(h @ head, tls[t])
        return total / txs.shape[0]
    return _torch_step(loss, params, True)


def _torch_nn_lstm(w, u, b, head, xs, labels):
    """torch.nn.LSTM (one fused layer, its recurrent bias 0) and the head."""
    import torch
    import torch.nn.functional as F
    layer = torch.nn.LSTM(lstm.HIDDEN, lstm.HIDDEN)
    with torch.no_grad():
        layer.weight_ih_l0.copy_(torch.from_numpy(w.T.copy()))
        layer.weight_hh_l0.copy_(torch.from_numpy(u.T.copy()))
        layer.bias_ih_l0.copy_(torch.from_numpy(b))
        layer.bias_hh_l0.zero_()
    layer.bias_hh_l0.requires_grad_(False)
    thead = torch.from_numpy(head).requires_grad_(True)
    params = [layer.weight_ih_l0, layer.weight_hh_l0, layer.bias_ih_l0, thead]
    txs = torch.from_numpy(xs)
    tls = torch.from_numpy(labels).long().reshape(-1)

    def loss():
        out, _ = layer(txs)
        logits = (out @ thead).reshape(-1, lstm.VOCAB)
        return F.cross_entropy(logits, tls)
    call, results = _torch_step(loss, params, True)

    def as_tracec():
        value, dw, du, db, dhead = results()
        return [value, dw.T, du.T, db, dhead]
    return call, as_tracec


def _lstm_flops(steps):
    """Per step the gates' two products and the head's, forward; the
    backward does each twice (the weights' and the inputs' gradients; the
    input x needs none)."""
    tokens = lstm.BATCH
    gates = _matmul_flops(tokens, lstm.HIDDEN, 4 * lstm.HIDDEN)
    head = _matmul_flops(tokens, lstm.HIDDEN, lstm.VOCAB)
    return steps * (2 * gates + 3 * gates + 3 * head)


def _lstm_workloads():
    return [Workload(
        "LSTM train step, %s" % name, "lstm.py", "", _lstm_inputs,
        {"torch": _torch_lstm_loop, "torch nn.LSTM": _torch_nn_lstm},
        "LSTM LM hidden 256, batch 32, %d steps, %s: value_and_grad wrt "
        "4 weights" % (LSTM_STEPS, how), rtol=1e-3, atol=1e-5,
        trace_args=("--form", form, "--steps", str(LSTM_STEPS)),
        flops=_lstm_flops(LSTM_STEPS))
        for name, form, how in (
            ("fori_loop", "loop", "tracec.fori_loop"),
            ("unrolled", "unrolled", "a Python loop unrolled in the trace"),
            ("autograph", "autograph",
             "the same Python loop compiled to a loop by tracec.autograph"))]


# ---------------------------------------------------------------------------
# vmap (bench/workloads/vmap.py): per-example gradients of the MLP at batch
# 256 against PyTorch's loop of per-example backward passes (torch.func is
# not in PyTorch 1.13), and a Hessian as vmap of Hessian-vector products
# against torch.autograd.functional.hessian (its rows in a loop, and
# vectorized by PyTorch's own batching).


def _per_example_inputs(rng):
    params, x, labels = vmap.grads_inputs(rng)
    return [params[k] for k in sorted(params)] + [x, labels]


def _torch_per_example_loop(b0, b1, b2, w0, w1, w2, x, labels):
    import torch
    params = [torch.from_numpy(p).requires_grad_(True)
              for p in (b0, b1, b2, w0, w1, w2)]
    tx, tl = torch.from_numpy(x), torch.from_numpy(labels)
    out = [None]

    def call():
        b0, b1, b2, w0, w1, w2 = params
        grads = []
        for k in range(tx.shape[0]):
            h = torch.relu(tx[k] @ w0 + b0)
            h = torch.relu(h @ w1 + b1)
            loss = -(torch.log_softmax(h @ w2 + b2, -1) * tl[k]).sum()
            grads.append(torch.autograd.grad(loss, params))
        out[0] = grads
    call()
    return call, (lambda: [np.stack([g[i].numpy() for g in out[0]])
                           for i in range(len(params))])


def _torch_hessian(vectorize):
    def peer(w, x, y, eye):
        import torch
        tw, tx, ty = (torch.from_numpy(a) for a in (w, x, y))

        def loss(w):
            w1 = w[:vmap.H_N1].reshape(vmap.H_IN, vmap.H_HIDDEN)
            w2 = w[vmap.H_N1:].reshape(vmap.H_HIDDEN, vmap.H_OUT)
            r = torch.tanh(tx @ w1) @ w2 - ty
            return (r * r).mean()
        out = [None]

        def call():
            out[0] = torch.autograd.functional.hessian(loss, tw,
                                                       vectorize=vectorize)
        call()
        return call, (lambda: [out[0].numpy()])
    return peer


def _vmap_workloads():
    return [
        Workload("per-example gradients, MLP b256", "vmap.py", "",
                 _per_example_inputs, {"torch loop": _torch_per_example_loop},
                 "vmap(grad(loss), in_axes=(None, 0, 0)) of the MLP "
                 "784-512-512-10 at batch 256: one gradient per example",
                 rtol=1e-3, atol=1e-5, trace_args=("--what", "grads")),
        Workload("Hessian 224, vmap of hvp", "vmap.py", "",
                 lambda rng: list(vmap.hessian_inputs(rng)),
                 {"torch": _torch_hessian(False),
                  "torch vectorize": _torch_hessian(True)},
                 "the Hessian of a 224-weight MLP loss (batch 32) as vmap "
                 "of Hessian-vector products over the identity",
                 rtol=1e-3, atol=1e-5, trace_args=("--what", "hessian")),
    ]


# ---------------------------------------------------------------------------
# conv2d 3x3: 64 channels at 56x56, batch 1 (bench/workloads/conv2d.mlir,
# conv2d_grad.mlir), and a CIFAR ResNet's channel counts at batch 64
# (conv2d_channels.mlir): forward, backprop input and backprop filter, each
# against PyTorch.

CONV_CHANNELS = [  # entry suffix, in channels, out channels, size, stride
    ("c3", 3, 16, 32, 1),
    ("c16", 16, 16, 32, 1),
    ("c32", 32, 32, 16, 1),
    ("c16_s2", 16, 32, 32, 2),
]


def _conv_shape_inputs(kind, c, f, hw, stride, batch=64):
    out = hw // stride

    def inputs(rng):
        x = _normal(rng, (batch, hw, hw, c))
        w = _normal(rng, (3, 3, c, f), 1 / math.sqrt(9 * c))
        dy = _normal(rng, (batch, out, out, f))
        return {"forward": [x, w], "input": [w, dy], "filter": [x, dy]}[kind]
    return inputs


def _torch_conv_shape(kind, c, f, hw, stride, batch=64):
    """F.conv2d, or convolution_backward for one gradient. Strided SAME
    padding [0, 1] pads the input by hand (PyTorch pads both sides)."""
    def peer(a, b):
        import torch
        import torch.nn.functional as F

        def nchw(t):
            return torch.from_numpy(t).permute(0, 3, 1, 2).contiguous()

        def oihw(t):
            return torch.from_numpy(t).permute(3, 2, 0, 1).contiguous()
        pad = 1 if stride == 1 else 0
        extra = stride - 1  # the bottom/right pad of SAME at stride 2
        out = [None]
        if kind == "forward":
            tx, tw = nchw(a), oihw(b)

            def call():
                x = F.pad(tx, (0, extra, 0, extra)) if extra else tx
                out[0] = F.conv2d(x, tw, stride=stride, padding=pad)
            call()
            return call, (lambda: [out[0].permute(0, 2, 3, 1).numpy()])
        tdy = nchw(b)
        if kind == "input":
            tw = oihw(a)
            tx = torch.zeros(batch, c, hw + extra, hw + extra)
        else:
            tw = torch.zeros(f, c, 3, 3)
            tx = nchw(a)
            if extra:
                tx = F.pad(tx, (0, extra, 0, extra))
        mask = [kind == "input", kind == "filter", False]

        def call():
            out[0] = torch.ops.aten.convolution_backward(
                tdy, tx, tw, None, (stride, stride), (pad, pad), (1, 1), False,
                (0, 0), 1, mask)

        def results():
            if kind == "input":
                return [out[0][0][:, :, :hw, :hw].permute(0, 2, 3, 1).numpy()]
            return [out[0][1].permute(2, 3, 1, 0).numpy()]
        call()
        return call, results
    return peer


def _conv_channel_workloads():
    names = {"forward": "forward", "input": "backprop input",
             "filter": "backprop filter"}
    entries = {"forward": "forward", "input": "backprop_input",
               "filter": "backprop_filter"}
    out = []
    for suffix, c, f, hw, stride in CONV_CHANNELS:
        for kind in ("forward", "input", "filter"):
            s = " s2" if stride == 2 else ""
            out.append(Workload(
                "conv2d %d->%d %dx%d%s %s" % (c, f, hw, hw, s, names[kind]),
                "conv2d_channels.mlir", "%s_%s" % (entries[kind], suffix),
                _conv_shape_inputs(kind, c, f, hw, stride),
                {"torch": _torch_conv_shape(kind, c, f, hw, stride)},
                "3x3, batch 64, NHWC, %s" % (
                    "padding 1" if stride == 1 else "strides 2, SAME"),
                # A filter gradient sums up to 65,536 products into values
                # of ~300: PyTorch's own f32 error there reaches 6e-3.
                rtol=1e-4, atol=2e-2 if kind == "filter" else 1e-3,
                flops=_conv3x3_flops(64, hw, stride, c, f)))
    return out


# ---------------------------------------------------------------------------
# Embedding backward: the table's gradient through a gather
# (bench/workloads/embedding_grad.mlir)

EMBEDDING_ROWS, EMBEDDING_DIM = 50000, 128


def _embedding_inputs(rng):
    # Zipf-like ids (repeats, as in real token streams), all in range.
    idx = np.minimum(rng.zipf(1.2, (256, 32)) - 1, EMBEDDING_ROWS - 1)
    return [_normal(rng, (EMBEDDING_ROWS, EMBEDDING_DIM)),
            idx.astype(np.int32),
            _normal(rng, (256, 32, EMBEDDING_DIM))]


def _torch_embedding_backward(table, idx, w):
    """aten.embedding_dense_backward: what nn.Embedding's backward runs."""
    import torch
    tidx = torch.from_numpy(idx.astype(np.int64))
    tw = torch.from_numpy(w)
    out = [None]

    def call():
        out[0] = torch.ops.aten.embedding_dense_backward(
            tw, tidx, EMBEDDING_ROWS, -1, False)
    call()
    return call, (lambda: [out[0].numpy()])


def _torch_embedding_autograd(table, idx, w):
    """nn.Embedding forward + backward by autograd (sum(emb(idx) * w))."""
    import torch
    emb = torch.nn.Embedding(EMBEDDING_ROWS, EMBEDDING_DIM)
    with torch.no_grad():
        emb.weight.copy_(torch.from_numpy(table))
    tidx = torch.from_numpy(idx.astype(np.int64))
    tw = torch.from_numpy(w)

    def call():
        emb.weight.grad = None
        (emb(tidx) * tw).sum().backward()
    call()
    return call, (lambda: [emb.weight.grad.numpy()])


# ---------------------------------------------------------------------------
# A tiny function: the cost of a call (bench/aot_tiny.mlir)


def _tiny_inputs(rng):
    return [_normal(rng, (4,))]


def _np_tiny(x):
    y = np.empty_like(x)
    return (lambda: np.add(x, x, out=y)), (lambda: [y])


def _torch_tiny(x):
    import torch
    t = torch.from_numpy(x)
    y = torch.empty(4)
    return (lambda: torch.add(t, t, out=y)), (lambda: [y.numpy()])


WORKLOADS = [
    Workload("sgemm 256", "sgemm_256.mlir", "sgemm", _sgemm_inputs(256),
             {"numpy": _np_sgemm, "torch": _torch_sgemm},
             "C = A B, 256x256x256 f32", rtol=1e-4, atol=1e-3,
             flops=_matmul_flops(256, 256, 256)),
    Workload("sgemm 1024", "sgemm_1024.mlir", "sgemm", _sgemm_inputs(1024),
             {"numpy": _np_sgemm, "torch": _torch_sgemm},
             "C = A B, 1024x1024x1024 f32", rtol=1e-4, atol=2e-3,
             flops=_matmul_flops(1024, 1024, 1024)),
    # bf16 results differ by up to one bf16 ulp (2^-8 relative) where the
    # f32 sums, taken in another order, round the other way.
    Workload("bf16 sgemm 1024", "sgemm_bf16_1024.mlir", "sgemm",
             _sgemm_inputs(1024), {"torch bf16": _torch_bf16_sgemm},
             "C = A B, 1024x1024x1024 bf16, f32 sums", rtol=2.0**-7,
             atol=0.05),
    Workload("sgemm 2048", "sgemm_2048.mlir", "sgemm", _sgemm_inputs(2048),
             {"numpy": _np_sgemm, "torch": _torch_sgemm},
             "C = A B, 2048x2048x2048 f32", rtol=1e-4, atol=3e-3,
             flops=_matmul_flops(2048, 2048, 2048)),
    Workload("tanh-GELU 16M", "gelu.mlir", "gelu", _gelu_inputs,
             {"torch": _torch_gelu, "np.tanh": _np_tanh, "copy": _copy},
             "0.5 x (1 + tanh(k (x + 0.044715 x^3))) over 2^24 f32",
             references=("np.tanh", "copy"), rtol=1e-5, atol=1e-5),
    Workload("softmax 4096x1024", "softmax.mlir", "softmax", _rows_inputs,
             {"numpy": _np_softmax, "torch": _torch_softmax},
             "softmax over rows of 1024", rtol=1e-4, atol=1e-7),
    Workload("layer norm 4096x1024", "layernorm.mlir", "layernorm",
             _layernorm_inputs,
             {"numpy": _np_layernorm, "torch": _torch_layernorm},
             "layer norm over rows of 1024, scale and shift", rtol=1e-4,
             atol=1e-4),
    Workload("MLP forward", "mlp.mlir", "forward", _mlp_inputs,
             {"torch": _torch_mlp(False)},
             "784-512-512-10 relu, batch 256, softmax cross-entropy loss",
             rtol=1e-4, atol=1e-5, flops=_mlp_flops(256, False)),
    Workload("MLP train step", "mlp.mlir", "train_step", _mlp_inputs,
             {"torch": _torch_mlp(True)},
             "the same, value_and_grad wrt the 6 weights and biases",
             rtol=1e-3, atol=1e-5, compile_row="MLP train step",
             flops=_mlp_flops(256, True)),
    # bf16 products differ by a bf16 ulp (2^-8 relative) where the two
    # sides sum in different orders; gradients by that of their largest.
    Workload("MLP train step, bf16 mixed", "mlp_bf16.mlir", "train_step",
             _mlp_inputs, {"torch autocast": _torch_mlp(True, bf16=True)},
             "the MLP train step with bf16 matmuls of f32 weights, as "
             "torch.autocast", rtol=2.0**-6, atol=2e-3),
    Workload("CNN train step", "cnn.mlir", "train_step", _cnn_inputs,
             {"torch": _torch_cnn},
             "conv-relu-pool x2, dense, batch 32 of 28x28x1: value_and_grad",
             rtol=1e-3, atol=1e-5, compile_row="CNN train step"),
    Workload("ResNet block train step", "resnet_block.mlir", "train_step",
             _resnet_block_inputs, {"torch": _torch_resnet_block},
             "conv-bn-relu-conv-bn + skip, relu, pool, dense; batch 64 of "
             "32x32x16: value_and_grad wrt 8 weights", rtol=1e-3, atol=1e-4,
             compile_row="ResNet block train step",
             # Both convs forward and filter gradients, the second's input
             # gradient (the dense layer's products are negligible).
             flops=5 * _conv3x3_flops(64, 32, 1, 16, 16)),
    Workload("attention fwd+bwd", "attention.mlir", "train_step",
             _attention_inputs, {"torch": _torch_attention},
             "self-attention 4x128x256, 4 heads: value_and_grad wrt x, wq, wk, wv, wo",
             rtol=1e-3, atol=1e-5, compile_row="attention fwd+bwd",
             flops=_attention_flops(4, 128, 256, 4)),
    Workload("transformer layer train step", "transformer_layer.mlir",
             "train_step", _transformer_inputs,
             {"torch": _torch_transformer},
             "encoder layer b16 s128 d256, 4 heads, MLP 1024, post-norm: "
             "value_and_grad wrt 16 weights", rtol=1e-3, atol=1e-4,
             compile_row="transformer layer train step",
             flops=_attention_flops(16, 128, 256, 4, mlp=1024,
                                    input_grad=False)),
    Workload("conv2d 3x3 64ch 56x56", "conv2d.mlir", "conv2d",
             _conv_shape_inputs("forward", 64, 64, 56, 1, batch=1),
             {"torch": _torch_conv_shape("forward", 64, 64, 56, 1, batch=1)}, "NHWC 1x56x56x64, 3x3x64x64, padding 1",
             rtol=1e-4, atol=1e-4, flops=_conv3x3_flops(1, 56, 1, 64, 64)),
    Workload("conv2d backprop input", "conv2d_grad.mlir",
             "backprop_input", _conv_shape_inputs("input", 64, 64, 56, 1, batch=1),
             {"torch": _torch_conv_shape("input", 64, 64, 56, 1, batch=1)},
             "d input of conv2d 3x3x64x64 on 1x56x56x64, padding 1",
             rtol=1e-4, atol=1e-3, flops=_conv3x3_flops(1, 56, 1, 64, 64)),
    Workload("conv2d backprop input s2", "conv2d_grad.mlir",
             "backprop_input_s2", _conv_shape_inputs("input", 64, 64, 56, 2, batch=1),
             {"torch": _torch_conv_shape("input", 64, 64, 56, 2, batch=1)},
             "d input of conv2d 3x3x64x64 on 1x56x56x64, strides 2, SAME",
             rtol=1e-4, atol=1e-3, flops=_conv3x3_flops(1, 56, 2, 64, 64)),
    Workload("conv2d backprop filter", "conv2d_grad.mlir",
             "backprop_filter", _conv_shape_inputs("filter", 64, 64, 56, 1, batch=1),
             {"torch": _torch_conv_shape("filter", 64, 64, 56, 1, batch=1)},
             "d filter of conv2d 3x3x64x64 on 1x56x56x64, padding 1",
             rtol=1e-4, atol=1e-3, flops=_conv3x3_flops(1, 56, 1, 64, 64)),
    Workload("conv2d backprop filter s2", "conv2d_grad.mlir",
             "backprop_filter_s2", _conv_shape_inputs("filter", 64, 64, 56, 2, batch=1),
             {"torch": _torch_conv_shape("filter", 64, 64, 56, 2, batch=1)},
             "d filter of conv2d 3x3x64x64 on 1x56x56x64, strides 2, SAME",
             rtol=1e-4, atol=1e-3, flops=_conv3x3_flops(1, 56, 2, 64, 64)),
] + _lstm_workloads() + _vmap_workloads() + _conv_channel_workloads() + [
    # Dynamic shapes: one compile for every batch size, against the static
    # compile of the same module at the batch it runs.
    Workload("MLP train step, ? batch, 256", "mlp_dynamic.mlir", "train_step",
             _mlp_inputs, {"torch": _torch_mlp(True)},
             "the MLP train step compiled once with a ? batch, run at 256",
             rtol=1e-3, atol=1e-5, static_batch=256,
             aot_row=True),
    Workload("MLP train step, ? batch, 64", "mlp_dynamic.mlir", "train_step",
             _mlp_inputs_of(64), {"torch": _torch_mlp(True)},
             "the MLP train step compiled once with a ? batch, run at 64",
             rtol=1e-3, atol=1e-5, static_batch=64,
             aot_row=True),
    Workload("tanh-GELU ?x4096", "gelu_dynamic.mlir", "gelu",
             _gelu_rows_inputs, {"copy": _copy},
             "tanh-GELU over a ? number of rows of 4096 f32, run at 4096 rows",
             references=("copy",), rtol=1e-5, atol=1e-5, static_batch=4096),
    Workload("embedding backward", "embedding_grad.mlir",
             "embedding_backward", _embedding_inputs,
             {"torch": _torch_embedding_backward,
              "torch autograd": _torch_embedding_autograd},
             "d table of sum(gather(table, idx) * w): table 50000x128 f32, "
             "256x32 ids (scatter_add)", rtol=1e-5, atol=1e-5),
    Workload("tiny call (JIT)", "../aot_tiny.mlir", "tiny", _tiny_inputs,
             {"numpy": _np_tiny, "torch": _torch_tiny},
             "x + x on 4 floats: the cost of one call through tracec::Function::call"),
]


def by_name(name):
    for w in WORKLOADS:
        if w.name == name:
            return w
    raise KeyError(name)
