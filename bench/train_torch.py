#!/usr/bin/python3
"""PyTorch (CPU) peer of bench/train_bench.cpp: one training step of the
2-32-32-3 relu MLP of examples/train_mlp.mlir on a batch of 64 — forward,
cross-entropy, backward, and torch.optim.SGD or torch.optim.Adam's update
of the weights in place (as a PyTorch user writes a training loop).
Prints one JSON object: median seconds per step of each optimizer.

  /usr/bin/python3 bench/train_torch.py [--threads N] [--repeats R] [--min-time S]
"""

import argparse
import json

import torch

from timing import time_per_call

BATCH, FEATURES, HIDDEN, CLASSES = 64, 2, 32, 3


def step_function(optimizer_class):
    gen = torch.Generator().manual_seed(0)
    shapes = [(FEATURES, HIDDEN), (HIDDEN,), (HIDDEN, HIDDEN), (HIDDEN,),
              (HIDDEN, CLASSES), (CLASSES,)]
    params = [((torch.rand(s, generator=gen) * 2 - 1) * 0.3).requires_grad_()
              for s in shapes]
    w1, b1, w2, b2, w3, b3 = params
    x = torch.rand((BATCH, FEATURES), generator=gen) * 2 - 1
    labels = torch.arange(BATCH) % CLASSES
    optimizer = optimizer_class(params, lr=1e-3)

    def step():
        h = torch.relu(x @ w1 + b1)
        h = torch.relu(h @ w2 + b2)
        loss = torch.nn.functional.cross_entropy(h @ w3 + b3, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        return loss

    return step


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--min-time", type=float, default=0.5)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    result = {"torch": torch.__version__, "threads": args.threads}
    for name, cls in (("sgd", torch.optim.SGD), ("adam", torch.optim.Adam)):
        result[name + "_step_s"] = time_per_call(step_function(cls), args.min_time,
                                                 args.repeats)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
