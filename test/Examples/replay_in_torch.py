"""Replays a train_mlp run in PyTorch and compares every step's loss.

train_mlp --dump DIR saves the data, the initial weights and the loss of
each step (before its update). This trains the same 2-32-32-3 relu MLP
from the same weights on the same batches with torch.optim.SGD or
torch.optim.Adam (PyTorch's defaults: betas 0.9/0.999, eps 1e-8), an
independent implementation of the model, its gradients and the updates.

usage: replay_in_torch.py DIR sgd|adam
"""
import sys

import numpy as np
import torch

BATCH = 64
LEARNING_RATE = {"sgd": 0.5, "adam": 0.01}


def main(directory, optimizer_name):
    torch.set_num_threads(1)
    load = lambda name: torch.from_numpy(np.load(f"{directory}/{name}.npy"))
    x, labels, expected = load("x"), load("labels").long(), np.load(f"{directory}/losses.npy")
    params = [load(n).clone().requires_grad_() for n in ("w1", "b1", "w2", "b2", "w3", "b3")]
    w1, b1, w2, b2, w3, b3 = params
    optimizer_class = torch.optim.SGD if optimizer_name == "sgd" else torch.optim.Adam
    optimizer = optimizer_class(params, lr=LEARNING_RATE[optimizer_name])

    batches = x.shape[0] // BATCH
    losses = []
    for step in range(len(expected)):
        b = step % batches
        xb, yb = x[b * BATCH:(b + 1) * BATCH], labels[b * BATCH:(b + 1) * BATCH]
        h = torch.relu(xb @ w1 + b1)
        h = torch.relu(h @ w2 + b2)
        loss = torch.nn.functional.cross_entropy(h @ w3 + b3, yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())

    losses = np.array(losses)
    error = np.abs(losses - expected)
    tolerance = 1e-4 + 1e-3 * np.abs(losses)
    worst = int(np.argmax(error - tolerance))
    print(f"{len(losses)} steps; first loss tracec {expected[0]:.6f} torch {losses[0]:.6f}; "
          f"last tracec {expected[-1]:.6f} torch {losses[-1]:.6f}; "
          f"max |difference| {error.max():.2e}")
    if (error > tolerance).any():
        print(f"MISMATCH at step {worst}: tracec {expected[worst]} torch {losses[worst]}")
        return 1
    print("losses match PyTorch")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
