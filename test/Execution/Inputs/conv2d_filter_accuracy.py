"""The f32 filter gradient of a CIFAR-sized conv2d (16 -> 16 channels,
32x32, batch 64: 65,536 terms per sum) against float64: tracec's error
must stay within 2x of PyTorch's f32 error on the same inputs (issue 32's
bound), and below 1e-6 relative. Prints "ok" lines or "FAIL: why".

usage: conv2d_filter_accuracy.py WORKDIR   (tracec-run on PATH)
"""
import subprocess
import sys

import numpy as np
import torch

work = sys.argv[1]
module = f"{work}/filter.mlir"
with open(module, "w") as f:
    f.write("""
func.func @grad(%x: tensor<64x32x32x16xf32>, %dy: tensor<64x32x32x16xf32>) -> tensor<3x3x16x16xf32> {
  %0 = trace.conv2d_backprop_filter %x, %dy {filter_shape = array<i64: 3, 3, 16, 16>, padding = array<i64: 1, 1, 1, 1>} : (tensor<64x32x32x16xf32>, tensor<64x32x32x16xf32>) -> tensor<3x3x16x16xf32>
  return %0 : tensor<3x3x16x16xf32>
}
""")
rng = np.random.default_rng(0)
# Positive-mean inputs: the sums grow, as batch-norm-free activations do.
x = (rng.standard_normal((64, 32, 32, 16)) + 1).astype(np.float32)
dy = rng.standard_normal((64, 32, 32, 16)).astype(np.float32)
np.save(f"{work}/x.npy", x)
np.save(f"{work}/dy.npy", dy)
subprocess.run(["tracec-run", module, "--entry", "grad", "--input",
                f"x=@{work}/x.npy", "--input", f"dy=@{work}/dy.npy",
                "--output-dir", work], check=True, capture_output=True)
got = np.load(f"{work}/grad_result0.npy").astype(np.float64)


def torch_grad(dtype):
    tx = torch.from_numpy(x).to(dtype).permute(0, 3, 1, 2)
    tdy = torch.from_numpy(dy).to(dtype).permute(0, 3, 1, 2)
    w = torch.zeros(16, 16, 3, 3, dtype=dtype)
    dw = torch.ops.aten.convolution_backward(
        tdy, tx, w, None, (1, 1), (1, 1), (1, 1), False, (0, 0), 1,
        [False, True, False])[1]
    return dw.permute(2, 3, 1, 0).to(torch.float64).numpy()


torch.set_num_threads(1)
ref = torch_grad(torch.float64)
scale = np.abs(ref).max()
error = np.abs(got - ref).max() / scale
torch_error = np.abs(torch_grad(torch.float32) - ref).max() / scale
print(f"tracec {error:.3g}, torch {torch_error:.3g}", file=sys.stderr)
print("ok within 2x of torch" if error <= 2 * torch_error else
      f"FAIL: error {error:.3g} > 2 x torch's {torch_error:.3g}")
print("ok below 1e-6" if error <= 1e-6 else f"FAIL: error {error:.3g} > 1e-6")
