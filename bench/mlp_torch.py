#!/usr/bin/python3
"""PyTorch (CPU) peer of bench/mlp_bench.cpp: the same MLP training step.

batch 64, 784 -> 256 (relu) -> 10, mean softmax cross-entropy of integer
labels (log_softmax, one_hot, sum, mean: the ops of bench/mlp.mlir).
  forward:          the loss alone, under torch.no_grad (nothing recorded,
                    as tracec's @loss saves nothing)
  forward+backward: the loss with autograd recording, then torch.autograd.grad
                    wrt w1, b1, w2, b2 (as tracec's value_and_grad)
Prints one JSON object: median seconds per call of each, and the settings.

  /usr/bin/python3 bench/mlp_torch.py [--threads N] [--repeats R] [--min-time S]
"""

import argparse
import json

import torch

from timing import time_per_call
import torch.nn.functional as F

BATCH, IN, HIDDEN, CLASSES = 64, 784, 256, 10


def loss_fn(x, onehot_labels, w1, b1, w2, b2):
    a = torch.relu(x @ w1 + b1)
    logp = torch.log_softmax(a @ w2 + b2, dim=1)
    return (-(logp * onehot_labels).sum(dim=1)).mean()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--min-time", type=float, default=0.5)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    gen = torch.Generator().manual_seed(0)

    def uniform(shape, scale):
        return (torch.rand(shape, generator=gen) * 2 - 1) * scale

    x = uniform((BATCH, IN), 1.0)
    labels = torch.tensor([(i * 7) % CLASSES for i in range(BATCH)])
    w1 = uniform((IN, HIDDEN), 0.05).requires_grad_()
    b1 = uniform((HIDDEN,), 0.05).requires_grad_()
    w2 = uniform((HIDDEN, CLASSES), 0.1).requires_grad_()
    b2 = uniform((CLASSES,), 0.1).requires_grad_()
    params = [w1, b1, w2, b2]

    def forward():
        with torch.no_grad():
            onehot = F.one_hot(labels, CLASSES).to(torch.float32)
            return loss_fn(x, onehot, *params)

    def forward_backward():
        onehot = F.one_hot(labels, CLASSES).to(torch.float32)
        loss = loss_fn(x, onehot, *params)
        return loss, torch.autograd.grad(loss, params)

    fwd = time_per_call(forward, args.min_time, args.repeats)
    fwd_bwd = time_per_call(forward_backward, args.min_time, args.repeats)
    print(json.dumps({
        "torch": torch.__version__, "threads": args.threads,
        "loss": float(forward()), "forward_s": fwd,
        "forward_backward_s": fwd_bwd,
    }))


if __name__ == "__main__":
    main()
