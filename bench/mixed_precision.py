"""bf16 mixed precision against f32 on two training steps: the time per
step and the loss curve of each, tracec and PyTorch side by side.

    PYTHONPATH=build/python /usr/bin/python3 bench/mixed_precision.py
        [--model mlp|transformer|all] [--steps 200] [--every 20]
        [--threads 1] [--min-time 1]

- mlp: the MLP 784-512-512-10 at batch 256, classifying 8192 inputs
  labelled by a fixed random teacher network (a fresh batch of 256 per
  step), softmax cross-entropy, SGD lr 0.1.
- transformer: the bench's transformer encoder layer (batch 16, sequence
  128, width 256, 4 heads, MLP 1024, post-norm, ReLU) regressing a fixed
  random teacher's targets (each token's own features and the sequence's
  mean, mixed), mean squared error, SGD lr 0.2; a fresh batch per step.
  PyTorch's step is torch.nn.TransformerEncoderLayer with the same weights.

Mixed precision is what torch.autocast(dtype=torch.bfloat16) does on a CPU:
f32 master weights, each matmul's operands cast to bf16 and its products
summed in f32 (rounded to bf16), everything else (softmax, layer norm, the
loss) in f32. tracec's steps write the casts themselves (tnp.astype to
tnp.bfloat16 around each matmul, the attention's batched ones included);
their gradients go through the same casts. Both sides train from the same
initial weights on the same data.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from timing import time_per_call  # noqa: E402


def cast_matmul(bf16):
    """a @ b, or with `bf16` its operands cast to bf16 and its f32 sums
    (rounded to bf16) cast back, as torch.autocast does."""
    import tracec.numpy as tnp

    def matmul(a, b):
        if not bf16:
            return a @ b
        return tnp.astype(tnp.astype(a, tnp.bfloat16) @
                          tnp.astype(b, tnp.bfloat16), tnp.float32)
    return matmul


def sgd_step(loss, lr):
    """A tracec.function taking the parameters and a batch to the loss and
    the parameters after one SGD step."""
    import tracec
    grad = tracec.value_and_grad(loss)

    @tracec.function
    def step(params, *batch):
        value, grads = grad(params, *batch)
        return value, [p - lr * g for p, g in zip(params, grads)]
    return step


def torch_sgd_step(loss, lr, bf16):
    """PyTorch's step: `loss` under autocast, its gradients by autograd."""
    import torch

    def step(params, *batch):
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
            value = loss(params, *batch)
        grads = torch.autograd.grad(value, params)
        with torch.no_grad():
            return value.item(), [(p - lr * g).requires_grad_()
                                  for p, g in zip(params, grads)]
    return step


class Mlp:
    title = "MLP 784-512-512-10 training step, batch 256"
    sizes = (784, 512, 512, 10)
    batch = 256
    lr = 0.1

    def __init__(self, rng, count=8192):
        self.x = rng.standard_normal((count, self.sizes[0])).astype(np.float32)
        teacher = rng.standard_normal((self.sizes[0], self.sizes[-1])) \
            .astype(np.float32)
        self.y = np.argmax(self.x @ teacher, axis=1).astype(np.int32)
        pairs = list(zip(self.sizes[:-1], self.sizes[1:]))
        self.weights = [(rng.standard_normal((a, b)) * np.sqrt(2.0 / a))
                        .astype(np.float32) for a, b in pairs] + \
            [np.zeros(b, np.float32) for _, b in pairs]

    def batch_at(self, step):
        start = (step * self.batch) % len(self.x)
        rows = slice(start, start + self.batch)
        return self.x[rows], self.y[rows]

    def tracec_step(self, bf16):
        import tracec
        import tracec.nn  # noqa: F401
        import tracec.numpy as tnp
        matmul = cast_matmul(bf16)

        def loss(params, x, y):
            h = x
            for i, (w, b) in enumerate(zip(params[:3], params[3:])):
                h = matmul(h, w) + b
                if i < 2:
                    h = tracec.nn.relu(h)
            return tnp.mean(
                tracec.nn.sparse_softmax_cross_entropy_with_logits(y, h))
        return sgd_step(loss, self.lr)

    def torch_step(self, bf16):
        import torch

        def loss(params, x, y):
            h = x
            for i, (w, b) in enumerate(zip(params[:3], params[3:])):
                h = torch.addmm(b, h, w)
                if i < 2:
                    h = torch.relu(h)
            return torch.nn.functional.cross_entropy(h.float(), y)
        step = torch_sgd_step(loss, self.lr, bf16)
        params = [torch.tensor(w, requires_grad=True) for w in self.weights]
        return step, params

    def torch_batch(self, x, y):
        import torch
        return torch.from_numpy(x), torch.from_numpy(y).long()


class Transformer:
    title = ("transformer encoder layer training step (batch 16, sequence "
             "128, width 256, 4 heads, MLP 1024)")
    batch, seq, width, heads, hidden = 16, 128, 256, 4, 1024
    lr = 0.2

    def __init__(self, rng):
        d = self.width
        self.seed = int(rng.integers(1 << 30))
        self.teacher = [rng.standard_normal((d, d)).astype(np.float32)
                        / np.float32(np.sqrt(d)) for _ in range(2)]

        def dense(n_in, n_out):
            return [(rng.standard_normal((n_in, n_out)) / np.sqrt(n_in))
                    .astype(np.float32), np.zeros(n_out, np.float32)]

        def norm():
            return [np.ones(d, np.float32), np.zeros(d, np.float32)]
        # wq bq wk bk wv bv wo bo g1 n1 w1 b1 w2 b2 g2 n2, as the bench's.
        self.weights = (dense(d, d) + dense(d, d) + dense(d, d) + dense(d, d)
                        + norm() + dense(d, self.hidden)
                        + dense(self.hidden, d) + norm())

    def batch_at(self, step):
        rng = np.random.default_rng((self.seed, step))
        x = rng.standard_normal((self.batch, self.seq, self.width)) \
            .astype(np.float32)
        mixed = x @ self.teacher[0] + x.mean(axis=1, keepdims=True) @ \
            self.teacher[1]
        target = np.tanh(mixed).astype(np.float32)
        return (x.reshape(-1, self.width),
                target.reshape(-1, self.width))

    def tracec_step(self, bf16):
        import tracec
        import tracec.nn  # noqa: F401
        import tracec.numpy as tnp
        matmul = cast_matmul(bf16)
        b, s, d, h = self.batch, self.seq, self.width, self.heads

        def layer_norm(x, gamma, beta):
            mean = tnp.mean(x, axis=-1, keepdims=True)
            centred = x - mean
            var = tnp.mean(centred * centred, axis=-1, keepdims=True)
            return centred / tnp.sqrt(var + 1e-5) * gamma + beta

        def split_heads(t):
            return tnp.transpose(tnp.reshape(t, (b, s, h, d // h)),
                                 (0, 2, 1, 3))

        def loss(params, x, target):
            (wq, bq, wk, bk, wv, bv, wo, bo, g1, n1, w1, b1, w2, b2, g2,
             n2) = params
            q = split_heads(matmul(x, wq) + bq)
            k = split_heads(matmul(x, wk) + bk)
            v = split_heads(matmul(x, wv) + bv)
            scores = matmul(q, tnp.transpose(k, (0, 1, 3, 2))) / \
                np.float32(np.sqrt(d // h))
            heads = matmul(tracec.nn.softmax(scores), v)
            merged = tnp.reshape(tnp.transpose(heads, (0, 2, 1, 3)), (b * s, d))
            y = layer_norm(x + matmul(merged, wo) + bo, g1, n1)
            f = matmul(tracec.nn.relu(matmul(y, w1) + b1), w2) + b2
            out = layer_norm(y + f, g2, n2)
            return tnp.mean(tnp.square(out - target))
        return sgd_step(loss, self.lr)

    def torch_step(self, bf16):
        import torch
        from torch.nn.utils.stateless import functional_call
        layer = torch.nn.TransformerEncoderLayer(
            self.width, self.heads, dim_feedforward=self.hidden,
            dropout=0.0, batch_first=True)
        (wq, bq, wk, bk, wv, bv, wo, bo, g1, n1, w1, b1, w2, b2, g2,
         n2) = self.weights
        # torch's weights are the transposes of x @ w's.
        values = {
            "self_attn.in_proj_weight": np.concatenate([wq.T, wk.T, wv.T]),
            "self_attn.in_proj_bias": np.concatenate([bq, bk, bv]),
            "self_attn.out_proj.weight": wo.T, "self_attn.out_proj.bias": bo,
            "linear1.weight": w1.T, "linear1.bias": b1,
            "linear2.weight": w2.T, "linear2.bias": b2,
            "norm1.weight": g1, "norm1.bias": n1,
            "norm2.weight": g2, "norm2.bias": n2}
        names = [name for name, _ in layer.named_parameters()]
        params = [torch.tensor(np.ascontiguousarray(values[name]),
                               requires_grad=True) for name in names]
        shape = (self.batch, self.seq, self.width)

        def loss(params, x, target):
            out = functional_call(
                layer, dict(zip(names, params)), (x.reshape(shape),))
            return ((out.float().reshape(target.shape) - target) ** 2).mean()
        return torch_sgd_step(loss, self.lr, bf16), params

    def torch_batch(self, x, target):
        import torch
        return torch.from_numpy(x), torch.from_numpy(target)


MODELS = {"mlp": Mlp, "transformer": Transformer}


def train(step, params, model, steps, every, to_inputs):
    curve = []
    for s in range(steps):
        value, params = step(params, *to_inputs(*model.batch_at(s)))
        if s % every == 0 or s == steps - 1:
            curve.append((s, float(value)))
    return curve


def compare(model, args):
    rows = {}
    first = model.batch_at(0)
    for name, bf16 in (("f32", False), ("bf16", True)):
        t_step = model.tracec_step(bf16)
        t_time = time_per_call(lambda: t_step(model.weights, *first),
                               args.min_time, 3)
        t_curve = train(t_step, model.weights, model, args.steps, args.every,
                        lambda *batch: batch)
        p_step, p_params = model.torch_step(bf16)
        p_first = model.torch_batch(*first)
        p_time = time_per_call(lambda: p_step(p_params, *p_first),
                               args.min_time, 3)
        p_curve = train(p_step, p_params, model, args.steps, args.every,
                        model.torch_batch)
        rows[name] = (t_time, t_curve, p_time, p_curve)

    print(f"{model.title}, {args.threads} thread(s): median time per step")
    print(f"{'':6}{'tracec':>10}{'torch':>10}{'ratio':>8}")
    for name, (t_time, _, p_time, _) in rows.items():
        print(f"{name:6}{t_time * 1e3:>8.2f}ms{p_time * 1e3:>8.2f}ms"
              f"{p_time / t_time:>7.2f}x")
    t32, t16 = rows["f32"][0], rows["bf16"][0]
    print(f"tracec bf16 / f32 speed-up: {t32 / t16:.2f}x")
    print("\nloss curves (step: tracec f32, tracec bf16, torch f32, "
          "torch bf16)")
    curves = [rows["f32"][1], rows["bf16"][1], rows["f32"][3], rows["bf16"][3]]
    for points in zip(*curves):
        print(f"  {points[0][0]:>4}: " +
              "  ".join(f"{value:.5f}" for _, value in points))
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", choices=[*MODELS, "all"], default="all")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--every", type=int, default=20)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--min-time", type=float, default=1.0)
    args = parser.parse_args()
    # The thread pools (OpenMP: tracec's and PyTorch's; OpenBLAS: NumPy's
    # and PyTorch's) size themselves when loaded: a process of its own.
    pools = {name: str(args.threads) for name in (
        "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
    if any(os.environ.get(name) != value for name, value in pools.items()):
        os.execve(sys.executable, [sys.executable, *sys.argv],
                  {**os.environ, **pools})
    import torch
    torch.set_num_threads(args.threads)
    for name in (MODELS if args.model == "all" else [args.model]):
        compare(MODELS[name](np.random.default_rng(0)), args)


if __name__ == "__main__":
    main()
