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
(jumps.Jumps): `continue` guards the rest of the body, `break` also ends the
loop; a `return` in a loop a flag, a `break` and a return after the loop.
Not converted (left as Python, which raises a clear error if the condition
is traced): loops with an `else`, jumps inside `try`. Functions f calls are converted at the call
(converted_call), but for library code.
"""
from __future__ import annotations

import ast
import functools
import inspect
import os
import sys
import textwrap
import types
import weakref

from . import _autograph_ast as A
from . import _autograph_jumps as jumps
from . import autograph_operators


# Calls whose callee reads the caller's frame: left as they are.
_FRAME_CALLS = {"super", "locals", "globals", "vars", "eval", "exec", "dir"}
# Builtins a `for` iterates that the operators see through.
_LOOP_BUILTINS = {"range", "enumerate", "zip"}


class _Calls(ast.NodeTransformer):
    """`f(args)` -> `__agcall(f, unroll)(args)` (converted_call): the
    functions the converted function calls are converted too (not library
    code)."""

    def __init__(self, unroll):
        self.unroll = unroll

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and \
                node.func.id in _FRAME_CALLS | _LOOP_BUILTINS:
            return node
        if isinstance(node.func, ast.Attribute) and \
                isinstance(node.func.value, ast.Name) and \
                node.func.value.id == f"{A.PREFIX}ops":
            return node  # autograph's own (_autograph_jumps)
        node.func = ast.copy_location(ast.Call(
            func=A.name(f"{A.PREFIX}call"),
            args=[node.func, ast.Constant(self.unroll)], keywords=[]),
            node.func)
        return node


class _Converter(ast.NodeTransformer):
    def __init__(self, loads, excluded, unroll):
        # (name, line) of every name the function reads.
        self.loads = loads
        self.excluded = excluded  # global and nonlocal names
        self.unroll = unroll
        self.count = 0

    def _fresh(self, kind):
        self.count += 1
        return f"{A.PREFIX}_{kind}_{self.count}"

    def _state(self, node, statements):
        """The variables `node` assigns, and those of them no code outside
        it reads (temporaries: dropped where they have no value)."""
        names = [n for n in A.assigned(statements) if n not in self.excluded]
        first, last = node.lineno, node.end_lineno
        local = [n for n in names
                 if not any(name == n and not first <= line <= last
                            for name, line in self.loads)]
        return names, local

    def _guarded(self, node, what):
        """`node` left as Python; its test raises if it is traced."""
        node.test = A.call("python_condition", node.test,
                          ast.Constant(what), ast.Constant(node.lineno))
        return node

    def _emit(self, node, functions, names, call):
        """functions; names = Undefined where unbound; (names) = call"""
        state = self._fresh("state")
        statements = list(functions)
        for n in names:
            # try: n / except NameError: n = Undefined("n")
            statements.append(ast.Try(
                body=[ast.Expr(value=A.name(n))],
                handlers=[ast.ExceptHandler(
                    type=A.name("NameError"), name=None,
                    body=[ast.Assign(targets=[A.name(n, store=True)],
                                     value=A.call("Undefined",
                                                 ast.Constant(n)))])],
                orelse=[], finalbody=[]))
        statements.append(ast.Assign(targets=[A.name(state, store=True)],
                                     value=call))
        if names:
            statements.append(ast.Assign(
                targets=[A.tuple_of(names, store=True)], value=A.name(state)))
        return [ast.fix_missing_locations(ast.copy_location(s, node))
                for s in statements]

    def visit_If(self, node):
        self.generic_visit(node)
        if jumps.has_jump(node.body + node.orelse):
            return self._guarded(node, "an `if` with a `return`, `break` "
                                       "or `continue` that autograph cannot "
                                       "rewrite (inside a `try`)")
        names, local = self._state(node, node.body + node.orelse)
        true_fn, false_fn = self._fresh("if_true"), self._fresh("if_false")
        functions = [A.function(true_fn, names, node.body, names),
                     A.function(false_fn, names, node.orelse or [ast.Pass()],
                               names)]
        both = [n for n in A.assigned(node.body)
                if n in A.assigned(node.orelse)]
        call = A.call("if_stmt", node.test, A.name(true_fn), A.name(false_fn),
                     A.tuple_of(names), A.strings(names), A.strings(local),
                     A.strings(both), ast.Constant(node.lineno))
        return self._emit(node, functions, names, call)

    def visit_While(self, node):
        self.generic_visit(node)
        if jumps.has_jump(node.body):  # (LoopElse took the `else`)
            return self._guarded(node, "a `while` loop with a jump inside "
                                       "a `try`")
        names, local = self._state(node, node.body)
        test_fn, body_fn = self._fresh("while_test"), self._fresh("while_body")
        test = A.function(test_fn, names, [], [])
        test.body = [ast.Return(value=node.test)]
        functions = [test, A.function(body_fn, names, node.body, names)]
        call = A.call("while_stmt", A.name(test_fn), A.name(body_fn),
                     A.tuple_of(names), A.strings(names), A.strings(local),
                     ast.Constant(node.lineno))
        return self._emit(node, functions, names, call)

    def visit_For(self, node):
        self.generic_visit(node)
        target = node.target
        unpacked = isinstance(target, (ast.Tuple, ast.List)) and \
            all(isinstance(t, ast.Name) for t in target.elts)
        if jumps.has_jump(node.body) or \
                not (isinstance(target, ast.Name) or unpacked):
            return node  # Python iteration: a traced iterable raises
        names, local = self._state(node, node.body)
        targets = {t.id for t in (target.elts if unpacked else [target])}
        names = [n for n in names if n not in targets]
        local = [n for n in local if n not in targets]
        body_fn = self._fresh("for_body")
        body = node.body
        if unpacked:
            # for i, row in ...: the body unpacks the item.
            item = self._fresh("item")
            body = [ast.copy_location(ast.Assign(targets=[target],
                                                 value=A.name(item)), node),
                    *body]
            parameter = item
        else:
            parameter = target.id
        functions = [A.function(body_fn, [parameter] + names, body, names)]
        extra_test = ast.Constant(None)
        flag = getattr(node, "ag_break", None)
        if flag is not None:
            # The loop goes on while the break flag is down.
            test_fn = self._fresh("for_test")
            test = A.function(test_fn, names, [], [])
            test.body = [ast.Return(value=A.not_flag(flag))]
            functions.append(test)
            extra_test = A.name(test_fn)
        common = (A.name(body_fn), A.tuple_of(names), A.strings(names),
                  A.strings(local), ast.Constant(node.lineno),
                  ast.Constant(self.unroll), extra_test)
        iterable = node.iter
        builtin = _builtin_call(iterable)
        if builtin == "range" and 1 <= len(iterable.args) <= 3:
            call = A.call("for_range", iterable.func,
                          ast.Tuple(elts=iterable.args, ctx=ast.Load()),
                          *common)
        elif builtin in ("enumerate", "zip"):
            call = A.call("for_call", iterable.func,
                          ast.Tuple(elts=iterable.args, ctx=ast.Load()),
                          *common)
        else:
            call = A.call("for_stmt", iterable, *common)
        return self._emit(node, functions, names, call)


def _builtin_call(node):
    """The name of the call `node` if it is range(...), enumerate(...) or
    zip(...) with positional arguments (the operators check at run time
    that the name is the builtin)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id in _LOOP_BUILTINS and not node.keywords and \
            not any(isinstance(a, ast.Starred) for a in node.args):
        return node.func.id
    return None


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
    for child in A.own_scope_nodes(node):
        if isinstance(child, (ast.Global, ast.Nonlocal)):
            excluded.update(child.names)
    loop_else = jumps.LoopElse()
    node.body = [converted for statement in node.body
                 for converted in _as_list(loop_else.visit(statement))]
    node.body = jumps.canonical_returns(node)
    ast.fix_missing_locations(node)
    loads = [(n.id, n.lineno) for n in ast.walk(node)
             if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
    calls = _Calls(unroll)
    node.body = [calls.visit(statement) for statement in node.body]
    flags = jumps.Jumps()
    node.body = [converted for statement in node.body
                 for converted in _as_list(flags.visit(statement))]
    converter = _Converter(loads, excluded, unroll)
    node.body = [converted for statement in node.body
                 for converted in _as_list(converter.visit(statement))]
    # A factory of the function: its closure's variables and the operators
    # are its parameters.
    factory = A.function_def(
        f"{A.PREFIX}_factory",
        ast.arguments(
            posonlyargs=[],
            args=[ast.arg(arg=a) for a in
                  (f"{A.PREFIX}ops", f"{A.PREFIX}call",
                   *f.__code__.co_freevars)],
            vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
            defaults=[]),
        [node, ast.Return(value=A.name(node.name))])
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


@functools.lru_cache(maxsize=None)
def _library_prefixes():
    import site
    import sysconfig
    paths = {os.path.dirname(os.path.abspath(__file__))}
    paths.update(sysconfig.get_paths()[k] for k in
                 ("stdlib", "platstdlib", "purelib", "platlib"))
    paths.update(site.getsitepackages())
    paths.add(os.path.join(sys.base_prefix, "lib", "python3", "dist-packages"))
    return tuple(os.path.join(os.path.abspath(p), "") for p in paths)


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
    converted = namespace[f"{A.PREFIX}_factory"](autograph_operators,
                                                converted_call, *cells)
    converted.__defaults__ = f.__defaults__
    converted.__kwdefaults__ = f.__kwdefaults__
    functools.update_wrapper(converted, f)
    converted.__wrapped__ = f
    return converted
