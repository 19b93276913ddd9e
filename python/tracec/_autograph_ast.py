"""The AST that autograph (autograph.py) reads and builds: which variables
statements assign, and the generated functions, calls and assignments."""
from __future__ import annotations

import ast

# Generated names start with this: the analysis leaves them out.
PREFIX = "__ag"


def own_scope_nodes(node):
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


def assigned(statements):
    """Names the statements bind in their own scope, in first-seen order."""
    names = {}
    for statement in statements:
        for node in own_scope_nodes(statement):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.setdefault(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                   ast.ClassDef)):
                names.setdefault(node.name)
    return [n for n in names if not n.startswith(PREFIX)]


def name(identifier, store=False):
    return ast.Name(id=identifier, ctx=ast.Store() if store else ast.Load())


def tuple_of(names, store=False):
    return ast.Tuple(elts=[name(n, store) for n in names],
                     ctx=ast.Store() if store else ast.Load())


def strings(names):
    return ast.Tuple(elts=[ast.Constant(n) for n in names], ctx=ast.Load())


def call(function, *args):
    return ast.Call(func=ast.Attribute(value=name(f"{PREFIX}ops"),
                                       attr=function, ctx=ast.Load()),
                    args=list(args), keywords=[])


def function(name, params, body, returned):
    """def name(*params): body; return (returned,)"""
    arguments = ast.arguments(
        posonlyargs=[], args=[ast.arg(arg=p) for p in params], vararg=None,
        kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    return function_def(name, arguments,
                        list(body) + [ast.Return(value=tuple_of(returned))])


def function_def(name, arguments, body):
    node = ast.FunctionDef(name=name, args=arguments, body=body,
                           decorator_list=[], returns=None)
    if "type_params" in ast.FunctionDef._fields:  # Python 3.12+
        node.type_params = []
    return node


def assign(identifier, value):
    return ast.Assign(targets=[name(identifier, store=True)], value=value)


def not_flag(identifier):
    """not_(identifier), autograph_operators.not_."""
    return call("not_", name(identifier))


def no_arguments():
    return ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                         kw_defaults=[], kwarg=None, defaults=[])
