"""Autograph's jumps (autograph.py), canonicalized before the conversion as
TensorFlow's AutoGraph does: `break` and `continue` become flags
(`continue` guards the rest of the body, `break` also ends the loop), and
`return`s inside `if`s one return value (what follows an `if` one of whose
branches returns moves into its other branch)."""
from __future__ import annotations

import ast
import copy

from . import _autograph_ast as A
from . import autograph_operators

def has_jump(statements):
    """Whether a `return`, or a `break`/`continue` of the statements' own
    loop level, is among the statements."""
    def visit(node, in_loop):
        if isinstance(node, ast.Return):
            return True
        if isinstance(node, (ast.Break, ast.Continue)) and not in_loop:
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                             ast.ClassDef, ast.Lambda)):
            return False
        nested = in_loop or isinstance(node, (ast.For, ast.While))
        return any(visit(child, nested)
                   for child in ast.iter_child_nodes(node))
    return any(visit(s, False) for s in statements)


def _has(statements, kind):
    """Whether a `kind` (ast.Break or ast.Continue) of the statements' own
    loop level is among them."""
    def visit(node):
        if isinstance(node, kind):
            return True
        if isinstance(node, (ast.For, ast.While, ast.FunctionDef,
                             ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            return False
        return any(visit(child) for child in ast.iter_child_nodes(node))
    return any(visit(s) for s in statements)


def _guarded_after(statements, kind, flag):
    """The statements with each `kind` of their level replaced by `flag =
    True` and what would follow it run only while `not flag` (TensorFlow
    AutoGraph's canonicalization of break and continue)."""
    result = []
    for i, statement in enumerate(statements):
        if isinstance(statement, kind):
            result.append(ast.copy_location(
                A.assign(flag, ast.Constant(True)), statement))
            return result  # the rest of the block is unreachable
        if not _has([statement], kind):
            result.append(statement)
            continue
        if isinstance(statement, ast.If):
            statement.body = _guarded_after(statement.body, kind, flag) or \
                [ast.Pass()]
            statement.orelse = _guarded_after(statement.orelse, kind, flag)
        elif isinstance(statement, ast.With):
            statement.body = _guarded_after(statement.body, kind, flag)
        else:
            raise _Unconvertible(statement)
        result.append(statement)
        rest = statements[i + 1:]
        if rest:
            result.append(ast.copy_location(ast.If(
                test=A.not_flag(flag),
                body=_guarded_after(rest, kind, flag) or [ast.Pass()],
                orelse=[]), rest[0]))
        return result
    return result


def _as_list(converted):
    return converted if isinstance(converted, list) else [converted]


class _Unconvertible(Exception):
    """A jump inside a statement (try, match) that is not rewritten."""


class Jumps(ast.NodeTransformer):
    """Rewrites `break` and `continue` of loops without `else` into flags
    (before _Converter): `continue` guards the rest of the body, `break`
    also ends the loop (a while's test, a for's `extra_test`)."""

    def __init__(self):
        self.count = 0

    def _fresh(self, kind):
        # A variable of the user's code to the analysis: not A.PREFIX.
        self.count += 1
        return f"ag__{kind}_{self.count}"

    def _loop(self, node):
        self.generic_visit(node)
        if node.orelse:
            return node
        original = list(node.body)
        try:
            before = []
            if _has(node.body, ast.Continue):
                flag = self._fresh("continue")
                node.body = [A.assign(flag, ast.Constant(False))] + \
                    _guarded_after(node.body, ast.Continue, flag)
            if _has(node.body, ast.Break):
                flag = self._fresh("break")
                node.body = _guarded_after(node.body, ast.Break, flag)
                before.append(ast.copy_location(
                    A.assign(flag, ast.Constant(False)), node))
                node.ag_break = flag
                if isinstance(node, ast.While):
                    test = ast.Lambda(args=A.no_arguments(), body=node.test)
                    node.test = A.call("and_", A.not_flag(flag), test)
        except _Unconvertible:
            node.body = original
            return node
        return [*before, node]

    visit_For = visit_While = _loop


class LoopElse(ast.NodeTransformer):
    """A loop's `else` runs when the loop ends without `break`: `for ...:
    body else: rest` becomes `no_break = True; for ...: body (with
    `no_break = False` before each of its breaks); if no_break: rest`
    (AutoGraph does the same), so that the loop and its `else` convert as
    any other loop and `if`. Run first, on the function's statements
    (nested functions' too)."""

    def __init__(self):
        self.count = 0

    def _loop(self, node):
        self.generic_visit(node)
        if not node.orelse:
            return node
        rest, node.orelse = node.orelse, []
        # The lines of each statement now (the analysis of what code
        # outside a statement reads goes by lines).
        node.end_lineno = node.body[-1].end_lineno
        node.end_col_offset = node.body[-1].end_col_offset
        if not _has(node.body, ast.Break):
            return [node, *rest]
        self.count += 1
        flag = f"ag__no_break_{self.count}"
        node.body = [_BreaksFlagged(flag).visit(s) for s in node.body]
        after = ast.copy_location(
            ast.If(test=A.name(flag), body=rest, orelse=[]), rest[0])
        after.end_lineno = rest[-1].end_lineno
        after.end_col_offset = rest[-1].end_col_offset
        return [ast.copy_location(A.assign(flag, ast.Constant(True)), node),
                node, after]

    visit_For = visit_While = _loop


class _BreaksFlagged(ast.NodeTransformer):
    """`flag = False` before each `break` of the loop whose body it visits
    (not of nested loops)."""

    def __init__(self, flag):
        self.flag = flag

    def visit_Break(self, node):
        return [ast.copy_location(A.assign(self.flag, ast.Constant(False)),
                                  node), node]

    def _own(self, node):
        return node

    visit_For = visit_While = visit_FunctionDef = visit_AsyncFunctionDef = \
        visit_ClassDef = visit_Lambda = _own


def _always_returns(statements):
    if not statements:
        return False
    last = statements[-1]
    if isinstance(last, ast.Return):
        return True
    return isinstance(last, ast.If) and _always_returns(last.body) and \
        _always_returns(last.orelse)


def _rest_into_branches(statements):
    """After an `if` one of whose branches always returns, the statements
    that follow it move into its other branch (AutoGraph does the same), so
    that every `return` ends a path through the function."""
    result = []
    for i, statement in enumerate(statements):
        result.append(statement)
        if not isinstance(statement, ast.If):
            continue
        rest = statements[i + 1:]
        body_returns = _always_returns(statement.body)
        else_returns = _always_returns(statement.orelse)
        if rest and body_returns != else_returns:
            if body_returns:
                statement.orelse = statement.orelse + rest
            else:
                statement.body = statement.body + rest
            # Its lines now span the statements moved in (the analysis of
            # what code outside a statement reads goes by lines).
            statement.end_lineno = rest[-1].end_lineno
            statement.end_col_offset = rest[-1].end_col_offset
        statement.body = _rest_into_branches(statement.body)
        statement.orelse = _rest_into_branches(statement.orelse)
        if rest and (body_returns or else_returns):
            return result
    return result


def _returns_assigned(statements, parent):
    """The statements (of `parent`) with each `return e` ending a path
    replaced by `ag__retval = e`, and a path that ends without one given
    `ag__retval = None`; None if a `return` is anywhere else (in a
    loop)."""
    falls_off = ast.copy_location(A.assign(autograph_operators.RETURN_VALUE,
                                           ast.Constant(None)),
                                  statements[-1] if statements else parent)
    if not statements:
        return [falls_off]
    *init, last = statements
    if any(_contains_return(s) for s in init):
        return None
    if isinstance(last, ast.Return):
        return init + [ast.copy_location(A.assign(
            autograph_operators.RETURN_VALUE,
            last.value or ast.Constant(None)), last)]
    if isinstance(last, ast.If) and _contains_return(last):
        body = _returns_assigned(last.body, last)
        orelse = _returns_assigned(last.orelse, last)
        if body is None or orelse is None:
            return None
        last.body, last.orelse = body, orelse
        return statements
    return None if _contains_return(last) else statements + [falls_off]


def _contains_return(node):
    if isinstance(node, ast.Return):
        return True
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                         ast.ClassDef, ast.Lambda)):
        return False
    return any(_contains_return(c) for c in ast.iter_child_nodes(node))


def canonical_returns(function):
    """`function`'s body with its returns inside `if`s (and loops,
    LoopReturns) as one return of a variable
    (autograph_operators.RETURN_VALUE) at the end; unchanged where that
    cannot be done."""
    loops = LoopReturns()
    statements = [converted for statement in copy.deepcopy(function.body)
                  for converted in _as_list(loops.visit(statement))]
    if not any(_contains_return(s) for s in statements
               if isinstance(s, ast.If)):
        return function.body
    body = _returns_assigned(_rest_into_branches(statements), function)
    if body is None:
        return function.body
    retval = autograph_operators.RETURN_VALUE
    return [A.assign(retval, ast.Constant(None)), *body,
            ast.Return(value=A.name(retval))]


class LoopReturns(ast.NodeTransformer):
    """`return e` inside a loop (without `else`) becomes `retval = e;
    do_return = True; break`, and `if do_return: return retval` follows the
    loop (canonical_returns then makes it one return value); before the
    loop, retval is Pending (a compiled loop carries a placeholder of its
    type). Run before Jumps, on the function's statements; nested functions
    are their own."""

    def __init__(self):
        self.count = 0

    def _loop(self, node):
        self.generic_visit(node)
        if node.orelse or not _returns_here(node.body):
            return node
        self.count += 1
        flag = f"ag__do_return_{self.count}"
        try:
            node.body = _returns_replaced(node.body, flag)
        except _Unconvertible:
            return node
        after = ast.If(test=A.name(flag), body=[ast.Return(
            value=A.name(autograph_operators.RETURN_VALUE))], orelse=[])
        pending = A.assign(autograph_operators.RETURN_VALUE,
                           A.call("Pending"))
        return [ast.copy_location(A.assign(flag, ast.Constant(False)), node),
                ast.copy_location(pending, node), node,
                ast.copy_location(after, node)]

    visit_For = visit_While = _loop

    def _own(self, node):
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = \
        visit_Lambda = _own


def _returns_here(statements):
    """Whether a `return` is among the statements, not inside nested
    functions or loops."""
    def visit(node):
        if isinstance(node, ast.Return):
            return True
        if isinstance(node, (ast.For, ast.While, ast.FunctionDef,
                             ast.AsyncFunctionDef, ast.ClassDef,
                             ast.Lambda)):
            return False
        return any(visit(child) for child in ast.iter_child_nodes(node))
    return any(visit(s) for s in statements)


def _returns_replaced(statements, flag):
    result = []
    for statement in statements:
        if isinstance(statement, ast.Return):
            result += [ast.copy_location(node, statement) for node in (
                A.assign(autograph_operators.RETURN_VALUE,
                         statement.value or ast.Constant(None)),
                A.assign(flag, ast.Constant(True)), ast.Break())]
            return result  # the rest of the block is unreachable
        if _returns_here([statement]):
            if isinstance(statement, ast.If):
                statement.body = _returns_replaced(statement.body, flag)
                statement.orelse = _returns_replaced(statement.orelse, flag)
            elif isinstance(statement, ast.With):
                statement.body = _returns_replaced(statement.body, flag)
            else:
                raise _Unconvertible(statement)
        result.append(statement)
    return result
