"""An action call's arguments: literal values only, bound to the action function's signature,
each of the type its annotation names (BrowserGym's action functions are typed)."""

from __future__ import annotations

import ast
import inspect
import types
import typing


def bind_arguments(fn: typing.Callable, call: ast.Call) -> dict | str:
    """The call's literal arguments bound to ``fn``'s parameters, each of its type; else what is
    wrong with them (naming the signature)."""
    name = call.func.id if isinstance(call.func, ast.Name) else fn.__name__
    sig = inspect.signature(fn)
    args, kwargs = [], {}
    for i, node in enumerate(call.args):
        if isinstance(node, ast.Starred):
            return f"*-arguments are not allowed; signature: {_signature(fn)}"
        ok, value, problem = _literal(node)
        if not ok:
            return f"argument {i + 1}: {problem}; signature: {_signature(fn)}"
        args.append(value)
    for kw in call.keywords:
        if kw.arg is None:
            return f"**-arguments are not allowed; signature: {_signature(fn)}"
        ok, value, problem = _literal(kw.value)
        if not ok:
            return f"argument {kw.arg}: {problem}; signature: {_signature(fn)}"
        kwargs[kw.arg] = value
    unexpected = [k for k in kwargs if k not in sig.parameters]
    if unexpected:
        names = ", ".join(unexpected)
        return f"{name} has no parameter {names}; signature: {_signature(fn)}"
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError as e:
        return f"{e}; signature: {_signature(fn)}"
    hints = typing.get_type_hints(fn)
    for pname, value in bound.arguments.items():
        annotation = hints.get(pname, inspect.Parameter.empty)
        if not _type_ok(value, annotation):
            return f"{pname} must be {_describe_type(annotation)}, got {value!r}; signature: {_signature(fn)}"
    return dict(bound.arguments)


def _signature(fn: typing.Callable) -> str:
    return f"{fn.__name__}{inspect.signature(fn)}".replace("typing.", "")


def _type_ok(value, annotation) -> bool:
    """Does a literal value fit a BrowserGym parameter annotation?"""
    if annotation is inspect.Parameter.empty or annotation is typing.Any:
        return True
    if annotation is str:
        return isinstance(value, str)
    if annotation is bool:
        return isinstance(value, bool)
    if annotation is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if annotation is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return value in typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        return any(_type_ok(value, a) for a in typing.get_args(annotation))
    if origin is list:
        (inner,) = typing.get_args(annotation) or (typing.Any,)
        return isinstance(value, (list, tuple)) and all(_type_ok(v, inner) for v in value)
    return True


def _describe_type(annotation) -> str:
    if annotation in (str, int, float, bool):
        return {str: "a string", int: "an integer", float: "a number", bool: "True or False"}[annotation]
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return "one of " + ", ".join(repr(a) for a in typing.get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_describe_type(a) for a in typing.get_args(annotation))
    if origin is list:
        (inner,) = typing.get_args(annotation) or (typing.Any,)
        return f"a list of {_describe_type(inner)}"
    return str(annotation)


def _literal(node: ast.expr):
    """(ok, value, problem) for an argument expression; only literals are accepted."""
    try:
        return True, ast.literal_eval(node), ""
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        pass
    if isinstance(node, ast.Name):
        return False, None, f"{node.id} is a bare name, not a value (quote strings: '{node.id}')"
    return False, None, f"{ast.unparse(node)!r} is not a literal value"
