#!/usr/bin/python3
"""An LSTM language model's training step as a user writes it in Python
(hidden 256, batch 32, vocabulary 256; the state starts at zeros): the
cross entropy of the next token, averaged over the steps, and its gradients
wrt the weights [w (input), u (recurrent), b, head]. Gates in the order
i, f, g, o (torch.nn.LSTM's).

Three forms of the same model: `unrolled` (a Python loop over the steps, one
graph node per step), `loop` (tracec.fori_loop: one scf.for) and
`autograph` (the unrolled form's code converted by tracec.autograph: its
Python loop becomes one scf.for).

bench/run traces it with the tracec Python package:

    PYTHONPATH=build/python /usr/bin/python3 bench/workloads/lstm.py \\
        --form loop --steps 64 --out lstm.mlir

writes the module and prints the name of its entry function.
"""
import argparse
import os

import numpy as np

HIDDEN, BATCH, VOCAB = 256, 32, 256


def inputs(steps, rng):
    """[w, u, b, head], xs (steps x batch x hidden), labels (steps x batch)."""
    params = [rng.standard_normal(s).astype(np.float32) * 0.1
              for s in ((HIDDEN, 4 * HIDDEN), (HIDDEN, 4 * HIDDEN),
                        (4 * HIDDEN,), (HIDDEN, VOCAB))]
    xs = rng.standard_normal((steps, BATCH, HIDDEN)).astype(np.float32)
    labels = rng.integers(0, VOCAB, (steps, BATCH)).astype(np.int32)
    return params, xs, labels


def _cell(params, x, labels, h, c):
    """One step: the new state and the step's mean cross entropy."""
    import tracec
    import tracec.nn  # noqa: F401
    import tracec.numpy as tnp
    w, u, b, head = params
    z = x @ w + h @ u + b
    i, f, g, o = (z[:, k * HIDDEN:(k + 1) * HIDDEN] for k in range(4))
    sigmoid = tracec.nn.sigmoid
    c = sigmoid(f) * c + sigmoid(i) * tnp.tanh(g)
    h = sigmoid(o) * tnp.tanh(c)
    loss = tnp.mean(tracec.nn.sparse_softmax_cross_entropy_with_logits(
        labels, h @ head))
    return h, c, loss


def _zero_state():
    import tracec.numpy as tnp
    return (tnp.zeros((BATCH, HIDDEN), dtype=tnp.float32),
            tnp.zeros((BATCH, HIDDEN), dtype=tnp.float32))


def loss_unrolled(params, xs, labels):
    h, c = _zero_state()
    loss = 0.0
    for t in range(xs.shape[0]):
        h, c, step_loss = _cell(params, xs[t], labels[t], h, c)
        loss = loss + step_loss
    return loss / xs.shape[0]


def loss_loop(params, xs, labels):
    import tracec
    import tracec.numpy as tnp

    def body(t, carry):
        h, c, loss = carry
        h, c, step_loss = _cell(params, xs[t], labels[t], h, c)
        return h, c, loss + step_loss
    h, c = _zero_state()
    _, _, loss = tracec.fori_loop(0, xs.shape[0], body,
                                  (h, c, tnp.zeros((), dtype=tnp.float32)))
    return loss / xs.shape[0]


def loss_autograph(params, xs, labels):
    """loss_unrolled's code as autograph converts it."""
    from tracec import autograph
    return autograph.convert(loss_unrolled)(params, xs, labels)


LOSSES = {"unrolled": loss_unrolled, "loop": loss_loop,
          "autograph": loss_autograph}


def trace(form, steps):
    """The concrete training step (value_and_grad wrt the weights)."""
    import tracec
    params, xs, labels = inputs(steps, np.random.default_rng(0))
    step = tracec.function(tracec.value_and_grad(LOSSES[form]))
    return step.get_concrete_function(params, xs, labels)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--form", choices=sorted(LOSSES), required=True)
    parser.add_argument("--steps", type=int, default=64)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.environ.setdefault("TRACEC_DISABLE_CACHE", "1")
    concrete = trace(args.form, args.steps)
    with open(args.out, "w") as f:
        f.write(concrete.ir())
    print(concrete.name)


if __name__ == "__main__":
    main()
