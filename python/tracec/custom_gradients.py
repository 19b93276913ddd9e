"""tracec.custom_gradient (tf.custom_gradient) and tracec.checkpoint
(jax.checkpoint): functions that trace-autodiff differentiates in a way the
user chose. Inside a traced function each call records a func.call of a
private function with the attribute trace.custom_vjp or trace.checkpoint;
eagerly, they run like any op (and GradientTape sees through them)."""
from __future__ import annotations

import functools
import re

from . import _core
from . import _tracec as _C
from ._core import apply

_POLICIES = ("nothing", "contractions", "everything")


def _symbol(f, suffix):
    """f's name with `suffix`: a valid symbol that is never a libm function
    (a private function named `exp` would be what exp's lowering calls)."""
    name = re.sub(r"\W", "_", getattr(f, "__name__", ""))
    if not name or not (name[0].isalpha() or name[0] == "_"):
        return suffix
    return f"{name}_{suffix}"


def _name(f):
    return getattr(f, "__name__", "the function")


def _outputs(result, what):
    single = not isinstance(result, (tuple, list))
    values = [result] if single else list(result)
    return [_core.to_value(v, what) for v in values], single


def _custom_gradient_kernel(*args_and_f):
    *args, f = args_and_f
    info = {}

    def body(values):
        with _core.suspended_tapes():
            result = f(*values)
        if not (isinstance(result, tuple) and len(result) == 2 and
                callable(result[1])):
            raise TypeError(
                f"custom_gradient: {_name(f)} must return (y, grad_fn) "
                f"with grad_fn a function of the cotangents of y, got "
                f"{type(result).__name__}")
        y, grad_fn = result
        outputs, info["single"] = _outputs(y, "an output of the function")

        def backward(dys):
            with _core.suspended_tapes():
                grads = grad_fn(*dys)
            if not isinstance(grads, (tuple, list)):
                grads = [grads]
            grads = list(grads)
            if len(grads) != len(values):
                raise ValueError(
                    f"custom_gradient: grad_fn of {_name(f)} returned "
                    f"{len(grads)} gradients for {len(values)} inputs (one "
                    "per input, None for no gradient)")
            return [None if g is None else _core.to_value(g, "a gradient")
                    for g in grads]
        return outputs, backward

    values = [_core.to_value(a, "an argument") for a in args]
    results = _C.custom_gradient(body, values, _symbol(f, "custom_gradient"))
    return results[0] if info["single"] else tuple(results)


def custom_gradient(f):
    """Decorator: f with a gradient of its own (tf.custom_gradient).

    f(*x) returns (y, grad_fn); grad_fn(*dy), given the cotangents of y
    (one per floating-point output), returns those of x (one per input,
    None for none). grad_fn may use values f computed: they are saved for
    it by the forward pass. Higher derivatives differentiate grad_fn.

    >>> import numpy as np, tracec
    >>> @tracec.custom_gradient
    ... def log1pexp(x):
    ...     e = tracec.numpy.exp(x)
    ...     return tracec.numpy.log1p(e), lambda dy: dy * (1 - 1 / (1 + e))
    >>> tracec.grad(lambda x: tracec.numpy.sum(log1pexp(x)))(
    ...     np.array([0.0, 100.0], np.float32))
    array([0.5, 1. ], dtype=float32)
    """
    @functools.wraps(f)
    def wrapper(*args):
        if not args:
            raise TypeError(f"custom_gradient: {_name(f)} needs at "
                            "least one input")
        return apply(_custom_gradient_kernel, tuple(args), f,
                     name="custom_gradient")
    return wrapper


def _checkpoint_kernel(*args_and_static):
    *args, f, policy = args_and_static
    info = {}

    def body(values):
        with _core.suspended_tapes():
            outputs, info["single"] = _outputs(f(*values),
                                               "an output of the function")
        return outputs

    values = [_core.to_value(a, "an argument") for a in args]
    results = _C.checkpoint(body, values, policy, _symbol(f, "checkpoint"))
    return results[0] if info["single"] else tuple(results)


def checkpoint(f, policy: str = "nothing"):
    """f, whose intermediates the backward pass recomputes instead of
    saving them (jax.checkpoint / jax.remat). `policy` says what is saved:
    "nothing" (only f's inputs), "contractions" (also the results of
    matmuls and convolutions) or "everything" (no recomputation). The
    gradients are the same, bit for bit.

    >>> import numpy as np, tracec
    >>> layer = tracec.checkpoint(lambda x, w: tracec.numpy.tanh(x @ w))
    >>> x, w = np.ones((2, 3), np.float32), np.ones((3, 3), np.float32)
    >>> tracec.grad(lambda w: tracec.numpy.sum(layer(x, w)))(w).shape
    (3, 3)
    """
    if policy not in _POLICIES:
        raise ValueError(f"checkpoint: policy must be one of "
                         f"{', '.join(_POLICIES)}, got {policy!r}")

    @functools.wraps(f)
    def wrapper(*args):
        return apply(_checkpoint_kernel, tuple(args), f, policy,
                     name="checkpoint")
    return wrapper
