"""tracec.Module (tf.Module) and the optimizers SGD and Adam.

An optimizer's slots (Adam's moments and step count) are tracec.Variables,
and `apply_gradients` is ordinary tracec ops on them: called inside a
tracec.function, the update is traced into the same compiled step as the
gradient and updates every variable in place.

>>> class Linear(tracec.Module):
...     def __init__(self):
...         super().__init__()
...         self.w = tracec.Variable(np.zeros((3, 2), np.float32))
...     def __call__(self, x):
...         return x @ self.w
>>> [v.shape for v in Linear().trainable_variables]
[(3, 2)]
"""
from __future__ import annotations

import numpy as np

from . import numpy as tnp
from .gradient_tape import GradientTape
from .variables import Variable


class Module:
    """Tracks the Variables and sub-Modules in its attributes (also in
    lists, tuples and dicts), depth first in attribute order."""

    def __init__(self, name=None):
        self._module_name = name or type(self).__name__

    @property
    def name(self):
        return getattr(self, "_module_name", type(self).__name__)

    def _walk(self, seen):
        for key, value in vars(self).items():
            if key.startswith("_tracec"):
                continue
            yield from _walk_value(value, seen)

    @property
    def variables(self):
        return list(self._walk(set()))

    @property
    def trainable_variables(self):
        return [v for v in self.variables if v.trainable]

    @property
    def submodules(self):
        found = []

        def visit(value):
            if isinstance(value, Module):
                found.append(value)
                for v in vars(value).values():
                    visit(v)
            elif isinstance(value, (list, tuple)):
                for v in value:
                    visit(v)
            elif isinstance(value, dict):
                for v in value.values():
                    visit(v)
        for v in vars(self).values():
            visit(v)
        return found


def _walk_value(value, seen):
    if isinstance(value, Variable):
        if id(value) not in seen:
            seen.add(id(value))
            yield value
    elif isinstance(value, Module):
        if id(value) not in seen:
            seen.add(id(value))
            yield from value._walk(seen)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _walk_value(v, seen)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _walk_value(v, seen)


class Optimizer:
    def apply_gradients(self, grads_and_vars):
        """Updates each variable from its gradient (None gradients are
        skipped), like tf.keras optimizers."""
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        self._before_update()
        for g, v in pairs:
            self._update(g, v)

    def minimize(self, loss_fn, var_list):
        with GradientTape() as tape:
            loss = loss_fn()
        grads = tape.gradient(loss, var_list)
        self.apply_gradients(zip(grads, var_list))
        return loss

    def _before_update(self):
        pass


class SGD(Optimizer):
    """v -= learning_rate * g (torch.optim.SGD without momentum)."""

    def __init__(self, learning_rate=0.01):
        self.learning_rate = float(learning_rate)

    def _update(self, g, v):
        v.assign_sub(tnp.multiply(g, self.learning_rate))


class Adam(Optimizer):
    """Adam as torch.optim.Adam (bias-corrected moments, eps added to the
    corrected second moment's square root)."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-8):
        self.learning_rate = float(learning_rate)
        self.beta_1 = float(beta_1)
        self.beta_2 = float(beta_2)
        self.epsilon = float(epsilon)
        self.iterations = Variable(np.zeros((), np.float32), trainable=False,
                                   name="adam_step")
        self._slots = {}

    def _slot(self, v):
        slots = self._slots.get(id(v))
        if slots is None:
            zeros = np.zeros(v.shape, v.dtype)
            slots = (v, Variable(zeros, trainable=False, name=f"{v.name}_m"),
                     Variable(zeros, trainable=False, name=f"{v.name}_v"))
            self._slots[id(v)] = slots
        return slots[1], slots[2]

    def _before_update(self):
        self.iterations.assign_add(np.float32(1.0))
        t = self.iterations.read_value()
        # Bias corrections, shared by every variable of this step.
        self._c1 = tnp.subtract(1.0, tnp.power(np.float32(self.beta_1), t))
        self._c2 = tnp.subtract(1.0, tnp.power(np.float32(self.beta_2), t))

    def _update(self, g, v):
        m, s = self._slot(v)
        b1, b2 = self.beta_1, self.beta_2
        m_new = tnp.add(tnp.multiply(m, b1), tnp.multiply(g, 1.0 - b1))
        s_new = tnp.add(tnp.multiply(s, b2),
                        tnp.multiply(tnp.multiply(g, g), 1.0 - b2))
        m.assign(m_new)
        s.assign(s_new)
        m_hat = tnp.divide(m_new, self._c1)
        s_hat = tnp.divide(s_new, self._c2)
        step = tnp.divide(tnp.multiply(m_hat, self.learning_rate),
                          tnp.add(tnp.sqrt(s_hat), self.epsilon))
        v.assign_sub(step)
