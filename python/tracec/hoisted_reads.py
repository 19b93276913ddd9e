"""Reads of watched variables in the Python bodies of an op (the branches
and loop bodies of tracec.cond/while_loop/fori_loop, the functions that
grad, vjp and jvp transform), done before the op while tapes record it.

Inside a body the tapes are suspended (the op is recorded as one), so a
read there could not be recorded. Read before the op instead, the value is
recorded (the tape watches it as a read of the variable) and the body uses
it as any value it closes over: an input of the op, through which the tape
differentiates. So for the hidden tape of a traced function too (its
float variables), for tracec.gradients. A body that assigns the variable reads it there, as
before (its gradient is then an error, Tape._symbolic).
"""
from __future__ import annotations

from . import _core


class _Retrace(Exception):
    """A body read a variable whose read must move before the op, or
    assigned one whose read was moved: the op is traced again."""

    def __init__(self, reads, variable):
        super().__init__(f"retrace for variable {variable.name!r}")
        self.reads = reads
        self.variable = variable


class _ReadsBeforeTheOp:
    """While the bodies of an op are traced under users' tapes (one of
    _core._variable_scopes): the values of the variables they watch, read
    before the op."""

    def __init__(self, tapes):
        self.tapes = tapes
        self.values = {}  # id(variable) -> the Value read before the op
        self.in_body = set()  # ids of variables the bodies assign
        # Functions traced deeper (callees) read their variables themselves
        # for the hidden tape, so that their calls share one callee.
        self.depth = len(_core._function_captures)

    def read(self, variable):
        """The value read before the op, None to read it here, or _Retrace
        if it is to be read before the op."""
        value = self.values.get(id(variable))
        in_callee = len(_core._function_captures) != self.depth
        if value is not None or id(variable) in self.in_body or not any(
                _hoists(t, variable, in_callee) for t in self.tapes):
            return value
        raise _Retrace(self, variable)

    def assign(self, variable):
        if id(variable) in self.values:
            raise _Retrace(self, variable)

    def retrace(self, variable):
        if id(variable) in self.values:
            del self.values[id(variable)]
            self.in_body.add(id(variable))
        else:
            self.values[id(variable)] = variable.read_value()


def _hoists(tape, variable, in_callee):
    """Whether a read of `variable` in a body moves before the op for
    `tape`: one it watches; for the hidden tape of a traced function
    (tracec.gradients), which watches every variable, a float one read
    in the body itself (not in a function it calls)."""
    if tape._record_all:
        return variable.dtype.kind == "f" and not in_callee
    return tape._watches(variable)


def trace_op(build):
    """build(), which traces the bodies of an op (inside
    _core.collecting_body_uses), with the reads of the variables the active
    users' tapes watch done before the op: a body that reads one is traced
    again (what it traced is dropped) with the value read."""
    # The hidden tape of a traced function too: tracec.gradients with
    # respect to a variable read in a branch or loop body (it was an error).
    tapes = list(_core._tapes)
    if not tapes:
        return build()
    reads = _ReadsBeforeTheOp(tapes)
    while True:
        _core._variable_scopes.append(reads)
        try:
            return build()
        except _Retrace as retrace:
            if retrace.reads is not reads:
                raise
            variable = retrace.variable
            # What the abandoned bodies used is gone with them.
            _core._body_uses[-1].clear()
        finally:
            _core._variable_scopes.pop()
        reads.retrace(variable)
