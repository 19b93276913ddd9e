#!/usr/bin/python3
"""Trains a small CNN on scikit-learn's 8x8 handwritten digits with tracec:
a @tracec.function training step (GradientTape + Adam, traced into one
compiled function that updates the weights in place), next to the same
model, weights and batches in PyTorch. Prints the test accuracy and the
time per training step of both, and saves the loss curves as a PNG.

    PYTHONPATH=build/python /usr/bin/python3 examples/digits_cnn.py \
        [--epochs 15] [--batch 64] [--seed 0] [--threads N] [--png build/demo/digits_loss.png]
        [--losses losses.npy] [--distributed]

Both run on the same number of threads: all cores by default (as each
library's own default), or --threads N (tracec.set_num_threads and
torch.set_num_threads).

Data parallel on MPI (docs/guides/distributed.md): under
`mpirun -np R ... examples/digits_cnn.py --distributed`, each of the R
processes trains on its 1/R of every batch, the gradients averaged by
tracec.distributed.all_reduce_gradients inside the compiled step, so the
weights follow the one-process training (PyTorch is then left out).
"""
import argparse
import os
import time

import numpy as np
import tracec
import tracec.numpy as tnp


class CNN(tracec.Module):
    """conv3x3(1->16) relu maxpool2 conv3x3(16->32) relu maxpool2 dense(128->10)."""

    def __init__(self, rng):
        super().__init__()

        def he(shape, fan_in):
            return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)
        self.k1 = tracec.Variable(he((3, 3, 1, 16), 9), name="k1")
        self.b1 = tracec.Variable(np.zeros(16, np.float32), name="b1")
        self.k2 = tracec.Variable(he((3, 3, 16, 32), 144), name="k2")
        self.b2 = tracec.Variable(np.zeros(32, np.float32), name="b2")
        self.w = tracec.Variable(he((128, 10), 128), name="w")
        self.b = tracec.Variable(np.zeros(10, np.float32), name="b")

    def __call__(self, x):  # x: [N, 8, 8, 1]
        h = tracec.nn.relu(tracec.nn.conv2d(x, self.k1, padding="SAME") + self.b1)
        h = tracec.nn.max_pool2d(h, 2)                                  # 4x4x16
        h = tracec.nn.relu(tracec.nn.conv2d(h, self.k2, padding="SAME") + self.b2)
        h = tracec.nn.max_pool2d(h, 2)                                  # 2x2x32
        return tnp.reshape(h, (h.shape[0], 128)) @ self.w + self.b


def load(seed):
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split
    digits = load_digits()
    x = (digits.images / 16.0).astype(np.float32)[..., None]
    y = digits.target.astype(np.int32)
    return train_test_split(x, y, test_size=0.2, random_state=seed, stratify=y)


def torch_model(model):
    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1 = nn.Conv2d(1, 16, 3, padding=1)
            self.c2 = nn.Conv2d(16, 32, 3, padding=1)
            self.fc = nn.Linear(128, 10)

        def forward(self, x):  # x: [N, 8, 8, 1] as tracec's, NHWC
            h = x.permute(0, 3, 1, 2)
            h = torch.max_pool2d(torch.relu(self.c1(h)), 2)
            h = torch.max_pool2d(torch.relu(self.c2(h)), 2)
            return self.fc(h.permute(0, 2, 3, 1).reshape(h.shape[0], 128))

    net = Net()
    with torch.no_grad():  # the same initial weights (HWIO -> OIHW)
        net.c1.weight.copy_(torch.from_numpy(model.k1.numpy().transpose(3, 2, 0, 1)))
        net.c1.bias.copy_(torch.from_numpy(model.b1.numpy()))
        net.c2.weight.copy_(torch.from_numpy(model.k2.numpy().transpose(3, 2, 0, 1)))
        net.c2.bias.copy_(torch.from_numpy(model.b2.numpy()))
        net.fc.weight.copy_(torch.from_numpy(model.w.numpy().T))
        net.fc.bias.copy_(torch.from_numpy(model.b.numpy()))
    return net


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=15)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--png", default="build/demo/digits_loss.png")
    parser.add_argument("--no-torch", action="store_true")
    parser.add_argument("--threads", type=int, default=0,
                        help="threads for both tracec and PyTorch (default: one per core)")
    parser.add_argument("--losses", help="save tracec's loss per step here (.npy)")
    parser.add_argument("--distributed", action="store_true",
                        help="data parallel across the processes of mpirun")
    args = parser.parse_args()
    rank, ranks = 0, 1
    if args.distributed:
        from tracec import distributed
        distributed.init()
        rank, ranks = distributed.rank(), distributed.size()
        if args.batch % ranks:
            raise SystemExit(f"--batch {args.batch} does not split over {ranks} processes")
        args.no_torch = True
    say = print if rank == 0 else (lambda *a, **k: None)
    if args.threads:
        tracec.set_num_threads(args.threads)
    threads = tracec.get_num_threads()

    from tqdm import tqdm
    x_train, x_test, y_train, y_test = load(args.seed)
    rng = np.random.default_rng(args.seed)
    model = CNN(rng)
    net = None if args.no_torch else torch_model(model)
    optimizer = tracec.Adam(args.lr)

    @tracec.function
    def train_step(x, y):
        with tracec.GradientTape() as tape:
            logits = model(x)
            loss = tnp.mean(tracec.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
        grads = tape.gradient(loss, model.trainable_variables)
        if args.distributed:  # each process's shard: the batch's mean
            grads = distributed.all_reduce_gradients(grads)
            loss = distributed.all_reduce(loss, "mean")
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    @tracec.function
    def predict(x):
        return tnp.argmax(model(x), axis=-1)

    if args.distributed:  # every process starts from rank 0's weights
        distributed.broadcast_variables(model.trainable_variables)
    shard = args.batch // ranks
    n = len(x_train) // args.batch * args.batch
    say(f"digits: {len(x_train)} training images (8x8), {len(x_test)} held out; "
          f"CNN {sum(v.numpy().size for v in model.trainable_variables)} parameters, "
          f"batch {args.batch}, Adam lr {args.lr}")
    t0 = time.perf_counter()
    concrete = train_step.get_concrete_function(x_train[:shard], y_train[:shard])
    say(f"traced and compiled the training step in {time.perf_counter() - t0:.2f} s "
          f"({len(concrete.variables)} variables updated in place)")

    losses, step_times, order_seed = [], [], np.random.default_rng(args.seed + 1)
    batches = []
    for epoch in range(args.epochs):
        perm = order_seed.permutation(len(x_train))[:n].reshape(-1, args.batch)
        batches.extend(perm)
    bar = tqdm(batches, desc="tracec", unit="step", ncols=90, mininterval=0.5,
               disable=rank != 0)
    for idx in bar:
        idx = idx[rank * shard:(rank + 1) * shard]
        xb, yb = x_train[idx], y_train[idx]
        t = time.perf_counter()
        loss = train_step(xb, yb)
        step_times.append(time.perf_counter() - t)
        losses.append(float(loss))
        bar.set_postfix(loss=f"{losses[-1]:.4f}")
    accuracy = float(np.mean(predict(x_test) == y_test))

    torch_losses, torch_times, torch_accuracy = [], [], None
    if net is not None:
        import torch
        torch.set_num_threads(threads)
        opt = torch.optim.Adam(net.parameters(), lr=args.lr)
        bar = tqdm(batches, desc="torch ", unit="step", ncols=90, mininterval=0.5)
        for idx in bar:
            xb = torch.from_numpy(x_train[idx])
            yb = torch.from_numpy(y_train[idx]).long()
            t = time.perf_counter()
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(net(xb), yb)
            loss.backward()
            opt.step()
            torch_times.append(time.perf_counter() - t)
            torch_losses.append(loss.item())
            bar.set_postfix(loss=f"{torch_losses[-1]:.4f}")
        with torch.no_grad():
            torch_accuracy = float((net(torch.from_numpy(x_test)).argmax(-1).numpy()
                                    == y_test).mean())

    say(f"tracec: test accuracy {accuracy:.4f}, median step "
        f"{np.median(step_times) * 1e6:.0f} us ({threads} threads"
        f"{f' x {ranks} processes' if args.distributed else ''}), "
        f"last loss {losses[-1]:.6f}")
    if net is not None:
        say(f"torch:  test accuracy {torch_accuracy:.4f}, median step "
              f"{np.median(torch_times) * 1e6:.0f} us ({threads} threads); tracec/torch step time "
              f"{np.median(step_times) / np.median(torch_times):.2f}x; largest loss "
              f"difference {np.max(np.abs(np.array(losses) - torch_losses)):.2e}")

    if rank != 0:
        return
    if args.losses:
        np.save(args.losses, np.array(losses))
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    os.makedirs(os.path.dirname(os.path.abspath(args.png)), exist_ok=True)
    plt.figure(figsize=(7, 4))
    plt.plot(losses, label=f"tracec (test acc {accuracy:.3f})")
    if torch_losses:
        plt.plot(torch_losses, "--", label=f"PyTorch (test acc {torch_accuracy:.3f})")
    plt.xlabel("training step")
    plt.ylabel("cross-entropy loss")
    plt.yscale("log")
    plt.title("CNN on sklearn digits (8x8): Adam, same weights and batches")
    plt.legend()
    plt.tight_layout()
    plt.savefig(args.png, dpi=100)
    say(f"loss curves: {args.png}")
    if accuracy < 0.97:
        raise SystemExit(f"test accuracy {accuracy:.4f} is below 0.97")


if __name__ == "__main__":
    main()
