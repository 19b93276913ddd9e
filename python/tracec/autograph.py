"""Autograph: Python `if`, `while` and `for` on traced values become
tracec.cond, tracec.while_loop and tracec.fori_loop (TensorFlow's
AutoGraph; the seeds' `defun(experimental_autograph=True)`).

`convert(f)` rewrites f's source (Python's `ast`) so that each such
statement calls an operator of `autograph_operators` with its condition or
iterable and its bodies as functions of the variables the statement assigns
(found here, by analysis). The operators decide at run time: a Python
condition runs as Python, a traced one as compiled control flow. The
converted source is `to_source(f)`.

Jumps are canonicalized first, as AutoGraph does: a `return` inside `if`s
becomes an assignment of one return value (what follows an `if` whose
branch returns moves into its other branch), `break` and `continue` flags
(_Jumps): `continue` guards the rest of the body, `break` also ends the
loop. Not converted (left as Python, which raises a clear error if the
condition is traced): loops with a `return` inside or an `else`, jumps
inside `try`. Functions f calls are converted at the call
(converted_call), but for library code.
"""
from __future__ import annotations

import ast
import copy
import functools
import inspect
import os
import sys
import textwrap
import types
import weakref

from . import autograph_operators

# Generated names start with this: the analysis leaves them out.
_PREFIX = "__ag"


def _own_scope_nodes(node):
    """The nodes of `node`'s scope: nested functions, lambdas, classes and
    comprehensions are their own scopes (only their names are bound
    here)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        for child in ast.iter_child_nodes(current):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                  ast.ClassDef)):
                yield child  # binds its name; its body is its own
                stack.extend(child.decorator_list)
            elif isinstance(child, (ast.Lambda, ast.ListComp, ast.SetComp,
                                    ast.DictComp, ast.GeneratorExp)):
                continue
            else:
                stack.append(child)


def _assigned(statements):
    """Names the statements bind in their own scope, in first-seen order."""
    names = {}
    for statement in statements:
        for node in _own_scope_nodes(statement):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.setdefault(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                   ast.ClassDef)):
                names.setdefault(node.name)
    return [n for n in names if not n.startswith(_PREFIX)]


def _jumps(statements):
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


def _name(identifier, store=False):
    return ast.Name(id=identifier, ctx=ast.Store() if store else ast.Load())


def _tuple(names, store=False):
    return ast.Tuple(elts=[_name(n, store) for n in names],
                     ctx=ast.Store() if store else ast.Load())


def _strings(names):
    return ast.Tuple(elts=[ast.Constant(n) for n in names], ctx=ast.Load())


def _call(function, *args):
    return ast.Call(func=ast.Attribute(value=_name(f"{_PREFIX}ops"),
                                       attr=function, ctx=ast.Load()),
                    args=list(args), keywords=[])


def _function(name, params, body, returned):
    """def name(*params): body; return (returned,)"""
    arguments = ast.arguments(
        posonlyargs=[], args=[ast.arg(arg=p) for p in params], vararg=None,
        kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    return _function_def(name, arguments,
                         list(body) + [ast.Return(value=_tuple(returned))])


def _function_def(name, arguments, body):
    node = ast.FunctionDef(name=name, args=arguments, body=body,
                           decorator_list=[], returns=None)
    if "type_params" in ast.FunctionDef._fields:  # Python 3.12+
        node.type_params = []
    return node


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


def _assign(name, value):
    return ast.Assign(targets=[_name(name, store=True)], value=value)


def _not(name):
    return _call("not_", _name(name))


def _guarded_after(statements, kind, flag):
    """The statements with each `kind` of their level replaced by `flag =
    True` and what would follow it run only while `not flag` (TensorFlow
    AutoGraph's canonicalization of break and continue)."""
    result = []
    for i, statement in enumerate(statements):
        if isinstance(statement, kind):
            result.append(ast.copy_location(
                _assign(flag, ast.Constant(True)), statement))
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
                test=_not(flag),
                body=_guarded_after(rest, kind, flag) or [ast.Pass()],
                orelse=[]), rest[0]))
        return result
    return result


class _Unconvertible(Exception):
    """A jump inside a statement (try, match) that is not rewritten."""


class _Jumps(ast.NodeTransformer):
    """Rewrites `break` and `continue` of loops without `else` into flags
    (before _Converter): `continue` guards the rest of the body, `break`
    also ends the loop (a while's test, a for's `extra_test`)."""

    def __init__(self):
        self.count = 0

    def _fresh(self, kind):
        # A variable of the user's code to the analysis: not _PREFIX.
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
                node.body = [_assign(flag, ast.Constant(False))] + \
                    _guarded_after(node.body, ast.Continue, flag)
            if _has(node.body, ast.Break):
                flag = self._fresh("break")
                node.body = _guarded_after(node.body, ast.Break, flag)
                before.append(ast.copy_location(
                    _assign(flag, ast.Constant(False)), node))
                node.ag_break = flag
                if isinstance(node, ast.While):
                    test = ast.Lambda(args=_no_arguments(), body=node.test)
                    node.test = _call("and_", _not(flag), test)
        except _Unconvertible:
            node.body = original
            return node
        return [*before, node]

    visit_For = visit_While = _loop


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


def _returns_assigned(statements):
    """The statements with each `return e` ending a path replaced by
    `ag__retval = e`; None if a `return` is anywhere else (in a loop)."""
    if not statements:
        return statements
    *init, last = statements
    if any(_contains_return(s) for s in init):
        return None
    if isinstance(last, ast.Return):
        return init + [ast.copy_location(_assign(
            autograph_operators.RETURN_VALUE,
            last.value or ast.Constant(None)), last)]
    if isinstance(last, ast.If):
        body = _returns_assigned(last.body)
        orelse = _returns_assigned(last.orelse)
        if body is None or orelse is None:
            return None
        last.body, last.orelse = body or [ast.Pass()], orelse
        return statements
    return None if _contains_return(last) else statements


def _contains_return(node):
    if isinstance(node, ast.Return):
        return True
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                         ast.ClassDef, ast.Lambda)):
        return False
    return any(_contains_return(c) for c in ast.iter_child_nodes(node))


def _canonical_returns(function):
    """`function`'s body with its returns inside `if`s as one return of a
    variable (autograph_operators.RETURN_VALUE) at the end; unchanged where
    a return is in a loop."""
    if not any(_contains_return(s) for s in function.body
               if isinstance(s, ast.If)):
        return function.body
    body = _returns_assigned(
        _rest_into_branches(copy.deepcopy(function.body)))
    if body is None:
        return function.body
    retval = autograph_operators.RETURN_VALUE
    return [_assign(retval, ast.Constant(None)), *body,
            ast.Return(value=_name(retval))]


# Calls whose callee reads the caller's frame: left as they are.
_FRAME_CALLS = {"super", "locals", "globals", "vars", "eval", "exec", "dir"}


class _Calls(ast.NodeTransformer):
    """`f(args)` -> `__agcall(f, unroll)(args)` (converted_call): the
    functions the converted function calls are converted too (not library
    code)."""

    def __init__(self, unroll):
        self.unroll = unroll

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and \
                (node.func.id in _FRAME_CALLS or node.func.id == "range"):
            return node
        node.func = ast.copy_location(ast.Call(
            func=_name(f"{_PREFIX}call"),
            args=[node.func, ast.Constant(self.unroll)], keywords=[]),
            node.func)
        return node


def _no_arguments():
    return ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                         kw_defaults=[], kwarg=None, defaults=[])


class _Converter(ast.NodeTransformer):
    def __init__(self, loads, excluded, unroll):
        # (name, line) of every name the function reads.
        self.loads = loads
        self.excluded = excluded  # global and nonlocal names
        self.unroll = unroll
        self.count = 0

    def _fresh(self, kind):
        self.count += 1
        return f"{_PREFIX}_{kind}_{self.count}"

    def _state(self, node, statements):
        """The variables `node` assigns, and those of them no code outside
        it reads (temporaries: dropped where they have no value)."""
        names = [n for n in _assigned(statements) if n not in self.excluded]
        first, last = node.lineno, node.end_lineno
        local = [n for n in names
                 if not any(name == n and not first <= line <= last
                            for name, line in self.loads)]
        return names, local

    def _guarded(self, node, what):
        """`node` left as Python; its test raises if it is traced."""
        node.test = _call("python_condition", node.test,
                          ast.Constant(what), ast.Constant(node.lineno))
        return node

    def _emit(self, node, functions, names, call):
        """functions; names = Undefined where unbound; (names) = call"""
        state = self._fresh("state")
        statements = list(functions)
        for n in names:
            # try: n / except NameError: n = Undefined("n")
            statements.append(ast.Try(
                body=[ast.Expr(value=_name(n))],
                handlers=[ast.ExceptHandler(
                    type=_name("NameError"), name=None,
                    body=[ast.Assign(targets=[_name(n, store=True)],
                                     value=_call("Undefined",
                                                 ast.Constant(n)))])],
                orelse=[], finalbody=[]))
        statements.append(ast.Assign(targets=[_name(state, store=True)],
                                     value=call))
        if names:
            statements.append(ast.Assign(targets=[_tuple(names, store=True)],
                                         value=_name(state)))
        return [ast.fix_missing_locations(ast.copy_location(s, node))
                for s in statements]

    def visit_If(self, node):
        self.generic_visit(node)
        if _jumps(node.body + node.orelse):
            return self._guarded(node, "an `if` with `return`, `break` or "
                                       "`continue` inside")
        names, local = self._state(node, node.body + node.orelse)
        true_fn, false_fn = self._fresh("if_true"), self._fresh("if_false")
        functions = [_function(true_fn, names, node.body, names),
                     _function(false_fn, names, node.orelse or [ast.Pass()],
                               names)]
        both = [n for n in _assigned(node.body)
                if n in _assigned(node.orelse)]
        call = _call("if_stmt", node.test, _name(true_fn), _name(false_fn),
                     _tuple(names), _strings(names), _strings(local),
                     _strings(both), ast.Constant(node.lineno))
        return self._emit(node, functions, names, call)

    def visit_While(self, node):
        self.generic_visit(node)
        if node.orelse or _jumps(node.body):
            return self._guarded(node, "a `while` loop with an `else`, "
                                       "`return`, `break` or `continue`")
        names, local = self._state(node, node.body)
        test_fn, body_fn = self._fresh("while_test"), self._fresh("while_body")
        test = _function(test_fn, names, [], [])
        test.body = [ast.Return(value=node.test)]
        functions = [test, _function(body_fn, names, node.body, names)]
        call = _call("while_stmt", _name(test_fn), _name(body_fn),
                     _tuple(names), _strings(names), _strings(local),
                     ast.Constant(node.lineno))
        return self._emit(node, functions, names, call)

    def visit_For(self, node):
        self.generic_visit(node)
        if node.orelse or _jumps(node.body) or \
                not isinstance(node.target, ast.Name):
            return node  # Python iteration: a traced iterable raises
        target = node.target.id
        names, local = self._state(node, node.body)
        names = [n for n in names if n != target]
        local = [n for n in local if n != target]
        body_fn = self._fresh("for_body")
        functions = [_function(body_fn, [target] + names, node.body, names)]
        extra_test = ast.Constant(None)
        flag = getattr(node, "ag_break", None)
        if flag is not None:
            # The loop goes on while the break flag is down.
            test_fn = self._fresh("for_test")
            test = _function(test_fn, names, [], [])
            test.body = [ast.Return(value=_not(flag))]
            functions.append(test)
            extra_test = _name(test_fn)
        common = (_name(body_fn), _tuple(names), _strings(names),
                  _strings(local), ast.Constant(node.lineno),
                  ast.Constant(self.unroll), extra_test)
        iterable = node.iter
        if isinstance(iterable, ast.Call) and \
                isinstance(iterable.func, ast.Name) and \
                iterable.func.id == "range" and not iterable.keywords and \
                1 <= len(iterable.args) <= 3 and \
                not any(isinstance(a, ast.Starred) for a in iterable.args):
            call = _call("for_range", iterable.func,
                         ast.Tuple(elts=iterable.args, ctx=ast.Load()),
                         *common)
        else:
            call = _call("for_stmt", iterable, *common)
        return self._emit(node, functions, names, call)


def _function_node(f):
    source = textwrap.dedent(inspect.getsource(f))
    module = ast.parse(source)
    node = module.body[0]
    if not isinstance(node, ast.FunctionDef):
        raise TypeError(f"autograph converts functions defined with `def`, "
                        f"not {type(node).__name__}")
    first_line = f.__code__.co_firstlineno
    ast.increment_lineno(module, first_line - node.lineno)
    return module, node


def _convert_tree(f, unroll):
    module, node = _function_node(f)
    node.decorator_list = []
    excluded = set()
    for child in _own_scope_nodes(node):
        if isinstance(child, (ast.Global, ast.Nonlocal)):
            excluded.update(child.names)
    node.body = _canonical_returns(node)
    ast.fix_missing_locations(node)
    loads = [(n.id, n.lineno) for n in ast.walk(node)
             if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
    calls = _Calls(unroll)
    node.body = [calls.visit(statement) for statement in node.body]
    jumps = _Jumps()
    node.body = [converted for statement in node.body
                 for converted in _as_list(jumps.visit(statement))]
    converter = _Converter(loads, excluded, unroll)
    node.body = [converted for statement in node.body
                 for converted in _as_list(converter.visit(statement))]
    # A factory of the function: its closure's variables and the operators
    # are its parameters.
    factory = _function_def(
        f"{_PREFIX}_factory",
        ast.arguments(
            posonlyargs=[],
            args=[ast.arg(arg=a) for a in
                  (f"{_PREFIX}ops", f"{_PREFIX}call",
                   *f.__code__.co_freevars)],
            vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
            defaults=[]),
        [node, ast.Return(value=_name(node.name))])
    module.body = [ast.copy_location(factory, node)]
    return ast.fix_missing_locations(module)


def _as_list(converted):
    return converted if isinstance(converted, list) else [converted]


# Loops over Python ranges (and traced arrays' rows) of at most this many
# iterations unroll; longer ones compile to a loop.
DEFAULT_UNROLL = 8


def to_source(f, unroll=DEFAULT_UNROLL) -> str:
    """The converted source of `f` (as `convert` compiles it)."""
    return ast.unparse(
        _convert_tree(inspect.unwrap(f), unroll).body[0].body[0])


def _library_paths():
    import site
    import sysconfig
    paths = {os.path.dirname(os.path.abspath(__file__))}
    paths.update(sysconfig.get_paths()[k] for k in
                 ("stdlib", "platstdlib", "purelib", "platlib"))
    paths.update(site.getsitepackages())
    paths.add(os.path.join(sys.base_prefix, "lib", "python3", "dist-packages"))
    return tuple(os.path.join(os.path.abspath(p), "") for p in paths)


@functools.lru_cache(maxsize=None)
def _library_prefixes():
    return _library_paths()


def is_library_code(f) -> bool:
    """Whether `f` is tracec's, the standard library's or an installed
    package's (autograph converts the user's functions only)."""
    path = getattr(getattr(f, "__code__", None), "co_filename", "")
    return not path or path.startswith("<") or \
        os.path.abspath(path).startswith(_library_prefixes())


_converted = weakref.WeakKeyDictionary()  # function -> {unroll: converted}


def converted_call(f, unroll):
    """What a converted function calls instead of `f` (as `__agcall`): `f`
    converted where it is the user's function (or method), else `f`."""
    function = getattr(f, "__func__", f)
    if not inspect.isfunction(function) or \
            function.__name__ == "<lambda>" or \
            inspect.isgeneratorfunction(function) or \
            inspect.iscoroutinefunction(function) or \
            is_library_code(function):
        return f
    try:
        by_unroll = _converted.setdefault(function, {})
    except TypeError:
        return f
    converted = by_unroll.get(unroll)
    if converted is None:
        # Before converting: a function that calls itself gets itself.
        by_unroll[unroll] = function
        converted = by_unroll[unroll] = convert(function, unroll)
    if function is not f:  # a bound method
        return types.MethodType(converted, f.__self__)
    return converted


def convert(f, unroll=DEFAULT_UNROLL):
    """`f` with its `if`, `while` and `for` statements converted (see the
    module's docstring); `f` itself where it has no Python source (a
    builtin, a lambda). A loop over a Python range, or over a traced
    array's rows, of at most `unroll` iterations unrolls; a longer one is
    a compiled loop where it carries traced values."""
    f = inspect.unwrap(f)
    if not inspect.isfunction(f) or f.__name__ == "<lambda>":
        return f
    if inspect.isgeneratorfunction(f) or inspect.iscoroutinefunction(f):
        raise TypeError(
            f"autograph: {f.__code__.co_filename}:{f.__code__.co_firstlineno}"
            f": {f.__name__} is a generator or coroutine function, which "
            "autograph does not convert")
    try:
        module = _convert_tree(f, unroll)
    except (OSError, TypeError):
        return f  # no source to convert (defined in a REPL, ...)
    code = compile(module, inspect.getsourcefile(f) or "<autograph>", "exec")
    namespace = {}
    exec(code, f.__globals__, namespace)  # noqa: S102 (the user's own code)
    cells = [c.cell_contents for c in (f.__closure__ or ())]
    converted = namespace[f"{_PREFIX}_factory"](autograph_operators,
                                                converted_call, *cells)
    converted.__defaults__ = f.__defaults__
    converted.__kwdefaults__ = f.__kwdefaults__
    functools.update_wrapper(converted, f)
    converted.__wrapped__ = f
    return converted
