"""Inputs and torch.autograd references for dynamic-spatial-autodiff.test.

    dynamic_spatial_check.py inputs DIR N H W   the .npy inputs (N x H x W)
    dynamic_spatial_check.py check DIR N H W    DIR/dfcn_result<k>.npy against
                                                torch.autograd in float64
"""
import os
import sys

import numpy as np


def inputs(n, h, w):
    rng = np.random.RandomState(n * 100 + h * 10 + w)
    f32 = lambda *shape: rng.randn(*shape).astype(np.float32)
    # baddy: one column too many for conv2d_backprop_filter of x.
    return {"x": f32(n, h, w, 2), "w": f32(3, 3, 2, 4), "u": f32(2, 2, 4, 3),
            "baddy": f32(n, h, w + 1, 4)}


def fcn(x, w, u):
    import torch
    import torch.nn.functional as F

    nchw = x.permute(0, 3, 1, 2)
    c = torch.tanh(F.conv2d(nchw, w.permute(3, 2, 0, 1), padding=1))
    m = F.max_pool2d(c, 2, 2)
    a = F.avg_pool2d(m, 3, 1, padding=1, count_include_pad=False)
    # padding [top 0, bottom 1, left 1, right 0], strides (2, 1)
    d = F.conv2d(F.pad(a, (1, 0, 0, 1)), u.permute(3, 2, 0, 1), stride=(2, 1))
    return torch.sin(d).sum()


directory = sys.argv[2]
n, h, w = (int(v) for v in sys.argv[3:6])
given = inputs(n, h, w)
if sys.argv[1] == "inputs":
    for name, array in given.items():
        np.save(os.path.join(directory, name + ".npy"), array)
    sys.exit(0)
import torch  # only for the check: the inputs step stays fast

args = [torch.tensor(given[name].astype(np.float64), requires_grad=True)
        for name in ["x", "w", "u"]]
grads = torch.autograd.grad(fcn(*args), args)
for k, want in enumerate(grads):
    got = np.load(os.path.join(directory, "dfcn_result%d.npy" % k))
    want = want.numpy()
    ok = got.shape == want.shape and np.allclose(got, want, rtol=1e-4,
                                                 atol=1e-4)
    print(("ok " if ok else "MISMATCH ") + "dfcn result %d %s" %
          (k, "x".join(str(s) for s in want.shape)) +
          ("" if ok else " got %s, max error %g" % (
              got.shape, np.abs(got - want).max() if got.shape == want.shape
              else -1)))
