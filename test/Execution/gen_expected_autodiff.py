#!/usr/bin/python3
"""Expected values for test/Execution/autodiff-mlp.mlir, computed with NumPy.

Run with Debian's interpreter: /usr/bin/python3 gen_expected_autodiff.py

The case is a two-layer MLP (x @ w1 + b1, relu, @ w2 + b2) with the mean
softmax cross-entropy of integer labels, the loss the test differentiates
with trace.value_and_grad wrt w1, b1, w2, b2. `mlp_loss_and_gradients`
computes the loss and the analytic gradients in float64 (backpropagation
written out by hand); `finite_differences` cross-checks every gradient
element by central differences of `mlp_loss` and the script stops if they
disagree.

It prints the RUN line's --input flags and the CHECK lines for tracec-run's
output (NumPy's printing): each element is matched on its leading
significant digits only, as many as are stable under a relative change of
1e-5 (float32 evaluation in a different order), so rounding never decides
a match. The inputs are exactly representable in float32 and keep every
hidden pre-activation at least 0.05 away from relu's kink.
"""

import sys

import numpy as np

X = np.array([[0.5, -1.0, 0.25],
              [1.5, 0.75, -0.5],
              [-0.25, 0.5, 1.0],
              [1.0, -0.75, -1.25]])
LABELS = np.array([2, 0, 1, 2], dtype=np.int32)
W1 = np.array([[0.5, -0.25, 0.75, 0.125],
               [-0.5, 0.375, 0.25, -0.625],
               [0.25, 0.5, -0.375, 0.875]])
B1 = np.array([0.1875, -0.25, 0.0625, 0.1875])
W2 = np.array([[0.625, -0.5, 0.25],
               [-0.375, 0.75, 0.5],
               [0.5, 0.125, -0.625],
               [-0.25, -0.875, 0.375]])
B2 = np.array([0.0625, -0.125, 0.25])
INPUTS = [("x", X), ("labels", LABELS), ("w1", W1), ("b1", B1), ("w2", W2),
          ("b2", B2)]
RELATIVE_SPREAD = 1e-5


def log_softmax(z):
    m = z.max(axis=1, keepdims=True)
    return z - m - np.log(np.exp(z - m).sum(axis=1, keepdims=True))


def mlp_loss(x, labels, w1, b1, w2, b2):
    h = x @ w1 + b1
    a = np.maximum(h, 0)
    logits = a @ w2 + b2
    onehot = np.eye(w2.shape[1])[labels]
    return -(log_softmax(logits) * onehot).sum() / x.shape[0]


def mlp_loss_and_gradients(x, labels, w1, b1, w2, b2):
    """The loss and d loss / d (w1, b1, w2, b2), by hand."""
    n = x.shape[0]
    h = x @ w1 + b1
    a = np.maximum(h, 0)
    logits = a @ w2 + b2
    onehot = np.eye(w2.shape[1])[labels]
    logp = log_softmax(logits)
    loss = -(logp * onehot).sum() / n
    dlogits = (np.exp(logp) - onehot) / n   # softmax - onehot, averaged
    dw2 = a.T @ dlogits
    db2 = dlogits.sum(axis=0)
    dh = (dlogits @ w2.T) * (h > 0)
    dw1 = x.T @ dh
    db1 = dh.sum(axis=0)
    return loss, [dw1, db1, dw2, db2], h


def finite_differences(args, wrt, eps=1e-6):
    grads = []
    for index in wrt:
        g = np.zeros_like(args[index])
        for i in np.ndindex(args[index].shape):
            plus = [a.copy() for a in args]
            minus = [a.copy() for a in args]
            plus[index][i] += eps
            minus[index][i] -= eps
            g[i] = (mlp_loss(*plus) - mlp_loss(*minus)) / (2 * eps)
        grads.append(g)
    return grads


SIGNIFICANT = 5


def positional(value, significant):
    """`value` written without an exponent, truncated (not rounded) to
    `significant` significant digits."""
    exponent = int(np.floor(np.log10(abs(value))))
    if exponent < -4 or exponent >= 4:
        sys.exit("%r would print in scientific notation" % value)
    decimals = max(significant - 1 - exponent, 0)
    scaled = int(abs(value) * 10**decimals)   # truncation toward zero
    digits = str(scaled).rjust(decimals + 1, "0")
    text = digits[:len(digits) - decimals] + "." + digits[len(digits) - decimals:]
    # A printed value may end before a trailing zero (0.2365 for 0.23650).
    text = text.rstrip("0")
    return ("-" if value < 0 else "") + text


def element_pattern(value):
    """A FileCheck pattern for one printed element: its leading digits,
    with every truncation that a value within RELATIVE_SPREAD of it can
    have as an alternative, then any further digits."""
    if value == 0:
        return "{{-?0\\.}}"
    texts = sorted({positional(v, SIGNIFICANT) for v in (
        value * (1 - RELATIVE_SPREAD), value, value * (1 + RELATIVE_SPREAD))})
    return "{{(%s)[0-9]*}}" % "|".join(t.replace(".", "\\.") for t in texts)


def literal(array):
    if array.dtype.kind == "i":
        return "[" + ", ".join(str(int(v)) for v in array) + "]"
    return np.array2string(array, separator=", ", floatmode="unique",
                           max_line_width=10**6).replace("\n", "")


def check_lines(prefix, index, array):
    """CHECK lines for `result <index>: tensor<...xf32>` and its rows."""
    shape = "x".join(str(d) for d in array.shape)
    lines = ["// %s: result %d: tensor<%sf32>" % (
        prefix if index == 0 else prefix + "-NEXT", index,
        shape + "x" if shape else "")]
    if array.ndim == 0:
        lines.append("// %s-NEXT: {{^}}%s{{$}}" % (prefix, element_pattern(float(array))))
        return lines
    nonzero = np.abs(array[array != 0])
    if nonzero.size and nonzero.max() / nonzero.min() >= 1e3:
        sys.exit("NumPy would print %s in scientific notation" % array)
    rows = array.reshape(-1, array.shape[-1]) if array.ndim > 1 else array[None]
    for r, row in enumerate(rows):
        opening = "[[" if array.ndim > 1 and r == 0 else "["
        if array.ndim == 1:
            opening = "["
        elements = "{{ +}}".join(element_pattern(float(v)) for v in row)
        lines.append("// %s-NEXT: {{^ *%s *}}%s{{ *\\]}}" % (
            prefix, opening.replace("[", "\\["), elements))
    return lines


def main():
    args = [a for _, a in INPUTS]
    loss, grads, h = mlp_loss_and_gradients(*args)
    if np.min(np.abs(h)) < 0.05:
        sys.exit("an input sits next to relu's kink")
    assert abs(loss - mlp_loss(*args)) < 1e-15
    numeric = finite_differences(args, [2, 3, 4, 5])
    for name, g, n in zip(["w1", "b1", "w2", "b2"], grads, numeric):
        if not np.allclose(g, n, rtol=1e-6, atol=1e-8):
            sys.exit("analytic and finite-difference d/d%s differ:\n%s\n%s" % (name, g, n))
    for name, a in INPUTS:
        if a.dtype.kind == "f":
            assert np.array_equal(a.astype(np.float32).astype(np.float64), a), name
    print("// RUN flags: " + " ".join("--input %s=\"%s\"" % (name, literal(a))
                                     for name, a in INPUTS))
    print("// loss = %r" % loss)
    for index, array in enumerate([np.array(loss)] + grads):
        print("\n".join(check_lines("CHECK", index, array)))


if __name__ == "__main__":
    main()
